"""Runs of tactic timings and Myelin trace lines read as blocks give exactly the events, counts
and line numbers of reading the log line by line, whatever surrounds them and wherever the
text is cut into pieces."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, SAMPLES, corpus_dir, needs_corpus
from trtlog.analysis import BuildLog, stream_build_log
from trtlog.events import MyelinTrace, TacticTiming, TimingRunner
from trtlog.parse import StreamItems, blocks, parse_file, parse_lines, parse_text
from trtlog.parse.blocks import BlockScanner, ParsedLine, text_chunks
from trtlog.parse.fold import fold
from trtlog.parse.records import RecordParser
from trtlog.parse.result import ParsedLog
from trtlog.parse.rows import TIME_MS, RowBlock, events_of
from trtlog.sources import resolve

ALL_LOGS = sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS
STAMP = "[07/07/2026-02:11:14] [V] [TRT] "
LATER = "[07/07/2026-02:11:15] [V] [TRT] "
PYTHON = "[07/07/2026-02:11:15] [TRT] [V] "
NAMED = "Tactic Name: sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x64 Tactic: 0x0123456789abcdef Time: 0.0123"  # fmt: skip
SPLIT = "Tactic Name: sm90_gemm numSplitK: 1 numBuffers: 0 numKernels: 1 Tactic: 0x00000000000003e8 Time: 0.5"  # fmt: skip
PLAIN = "Tactic: 0x00000000000003ea Time: 0.00832914"
OLD_PLAIN = "Tactic: -3360065831133338131 time 3.4e+38"
MYELIN = " (foreignNode)    0, 0.0188384, 1.00000, 0.92564, sm80_xmma_gemm, 0x4841c72cefae1,"
MYELIN_ONNX = " (foreignNode) Autotuning op node_linear_r0: [ONNX Layer: node_linear_r0]"
FORMATS = STAMP + "*************** Autotuning format combination: Float(3136,49,7,1) -> Float(3136,1) ***************"  # fmt: skip
RUNNER = STAMP + "--------------- Timing Runner: Conv_0 (CaskConvolution[0x80000009])"
FASTEST = STAMP + "Fastest Tactic: 0x00000000000003ea Time: 1"


def read_blocks(data: bytes, chunk_bytes: int = 1 << 20) -> tuple[ParsedLog, list[RowBlock]]:
    """The log as ``parse_file`` reads it (blocks), with pieces of ``chunk_bytes``."""
    reader = StreamItems()
    blocks: list[RowBlock] = []

    def keep(items):  # type: ignore[no-untyped-def]
        for item in items:
            if isinstance(item, RowBlock):
                blocks.append(item)
            yield item

    items = fold(keep(reader.of_chunks(text_chunks(io.BytesIO(data), chunk_bytes))))
    events = list(events_of(items))
    parsed = ParsedLog("<blocks>", events, reader.parser.counts, reader.physical_lines)
    return parsed, blocks


def assert_same(data: bytes, chunk_bytes: int = 1 << 20) -> list[RowBlock]:
    by_line = parse_text(data)
    by_block, blocks = read_blocks(data, chunk_bytes)
    assert by_block.events == by_line.events
    assert by_block.counts == by_line.counts
    assert by_block.physical_lines == by_line.physical_lines
    return blocks


def log(*lines: str, end: str = "\n") -> bytes:
    return ("\n".join(lines) + end).encode()


def test_a_run_is_one_block_with_the_rows_of_its_lines() -> None:
    data = log(
        RUNNER,
        STAMP + NAMED,
        STAMP + SPLIT,
        STAMP + NAMED.replace("0.0123", "inf"),
        STAMP + "Conv_0 (CaskConvolution[0x80000009]) profiling completed in 0.5 seconds. "
        "Fastest Tactic: 0x0123456789abcdef Time: 0.0123",
    )
    blocks = assert_same(data)
    assert [(block.kind, block.first_line, len(block)) for block in blocks] == [
        (TacticTiming, 2, 3)
    ]
    (block,) = blocks
    # The fold gave the block the runner's context; the values are the lines' own.
    assert (block.layer, block.runner, block.runner_id) == ("Conv_0", "CaskConvolution", 0x80000009)
    assert list(block.tactics) == [0x0123456789ABCDEF, 0x3E8, 0x0123456789ABCDEF]
    assert [row[TIME_MS] for row in block.rows()] == [0.0123, 0.5, None]
    assert block.parameters == [None, "numSplitK: 1 numBuffers: 0 numKernels: 1", None]


def test_blocks_end_where_the_stamp_or_the_form_changes() -> None:
    data = log(
        STAMP + PLAIN,
        STAMP + PLAIN,
        LATER + PLAIN,
        LATER + NAMED,
        LATER + MYELIN,
        LATER + MYELIN,
        PYTHON + MYELIN,
        STAMP + "Fastest Tactic: 0x00000000000003ea Time: 0.00832914",
    )
    blocks = assert_same(data)
    assert [(block.kind, block.first_line, len(block)) for block in blocks] == [
        (TacticTiming, 1, 2),
        (TacticTiming, 3, 1),
        (TacticTiming, 4, 1),
        (MyelinTrace, 5, 2),
        (MyelinTrace, 7, 1),
    ]


def test_a_line_that_may_not_stand_alone_is_read_line_by_line() -> None:
    # The last line of a run with a bare line under it (a continuation), a line holding a
    # phrase that the grammar's lexer would take first, CR line ends, a stamp inside a line,
    # and the log's last line: all read line by line, with the same events.
    data = log(
        STAMP + PLAIN,
        STAMP + PLAIN,
        "a bare line under it",
        STAMP + MYELIN,
        STAMP + " (foreignNode) Conv_0 (CaskConvolution) profiling completed in 0.5 seconds.",
        STAMP + MYELIN,
        STAMP + PLAIN + "\r",
        STAMP + PLAIN + "\r",
        STAMP + MYELIN + " [07/07/2026-02:11:14] [V] [TRT] " + PLAIN,
        STAMP + "Fastest Tactic: 0x00000000000003ea Time: 0.00832914",
        STAMP + MYELIN,
        STAMP + MYELIN_ONNX,
        STAMP + PLAIN,
        end="",
    )
    blocks = assert_same(data)
    # Line 12 is the last of its piece (the unterminated last line is a piece of its own):
    # what follows it cannot be seen, so it is read line by line too.
    assert [(block.first_line, len(block)) for block in blocks] == [(1, 1), (11, 1)]


def test_phrases_that_a_form_may_hold_are_still_looked_for() -> None:
    # A kernel may be named "broadcasting": "Tactic Name: broadcasting Tactic: ..." holds
    # ": broadcasting ", which the block scanner looks for in named runs (it need not in plain
    # timings, which cannot hold it: ``trtlog.parse.containment``).
    broadcasting = "Tactic Name: broadcasting Tactic: 0x00000000000003e8 Time: 0.5"
    fastest = LATER + "Fastest Tactic: 0x00000000000003e8 Time: 0.5"
    data = log(
        STAMP + NAMED, STAMP + broadcasting, STAMP + PLAIN, LATER + NAMED, LATER + NAMED, fastest
    )
    blocks = assert_same(data)
    assert [(block.first_line, len(block)) for block in blocks] == [(3, 1), (4, 2)]


def test_8x_kernel_names_join_the_timings_of_a_block() -> None:
    data = log(
        STAMP
        + "Conv_3 + Relu_4 Set Tactic Name: ampere_scudnn_128x64_relu Tactic: 0x00000000000003ea",
        STAMP + "Conv_3 + Relu_4 Set Tactic Name: ampere_scudnn_128x32_relu",
        STAMP + PLAIN,
        STAMP + PLAIN.replace("3ea", "3e8"),
        STAMP + "Fastest Tactic: 0x00000000000003ea Time: 0.00832914",
    )
    blocks = assert_same(data)
    assert [block.kernels for block in blocks] == [
        ["ampere_scudnn_128x64_relu", "ampere_scudnn_128x32_relu"]
    ]


NAME = "conv1 + relu1 Set Tactic Name: sm80_xmma_fprop_i8i8 Tactic: 0x00000000000003ea"
UNNUMBERED_NAME = "conv1 + relu1 Set Tactic Name: sm80_xmma_fprop_f16"


def test_blocks_share_the_text_of_repeated_kernels() -> None:
    # One object per name, however many lines repeat it: what a worker pickles holds it once.
    # (Tactic ids and times are numbers in arrays.)
    fastest = STAMP + "Fastest Tactic: 0x00000000000003ea Time: 1"
    data = log(STAMP + NAMED, STAMP + NAMED, LATER + NAMED, LATER + PLAIN, STAMP + PLAIN, fastest)
    blocks = assert_same(data)
    assert [len(block) for block in blocks] == [2, 1, 1, 1]
    kernels = [kernel for block in blocks[:2] for kernel in block.kernels or []]
    assert len(kernels) == 3 and all(kernel is kernels[0] for kernel in kernels)


def test_8x_name_lines_among_timings_are_one_block() -> None:
    data = log(
        STAMP + "--------------- Timing Runner: conv1 + relu1 (CaskConvolution)",
        STAMP + NAME,
        STAMP + PLAIN.replace("3ea", "3e8"),
        STAMP + PLAIN,
        STAMP + UNNUMBERED_NAME,
        STAMP + PLAIN.replace("3ea", "3f0"),
        STAMP + NAME.replace("3ea", "3f2"),
        STAMP + "Fastest Tactic: 0x00000000000003ea Time: 0.00832914",
    )
    (block,) = assert_same(data)
    assert (block.first_line, len(block), block.timings) == (2, 6, 3)
    assert block.name_offsets == [0, 3, 5]
    # A numbered name is found by its id (0x3ea: the second timing, not the first); an
    # unnumbered one names the next timing without a name of its own (0x3f0); the last name
    # has no timing under it in the block.
    assert block.kernels == [None, "sm80_xmma_fprop_i8i8", "sm80_xmma_fprop_f16"]
    assert [row[0].__name__ for row in block.rows()] == [
        "SetTacticName", "TacticTiming", "TacticTiming", "SetTacticName", "TacticTiming",
        "SetTacticName",
    ]  # fmt: skip


def test_8x_name_lines_that_cannot_join_a_block() -> None:
    # Name lines alone; a name line holding a stamp of a later line; a CR inside one: the
    # timings around them still read the same as line by line.
    data = log(
        STAMP + NAME,
        STAMP + UNNUMBERED_NAME,
        STAMP + "Fastest Tactic: 0x00000000000003ea Time: 1",
        STAMP + NAME + " [07/07/2026-02:11:14] [V] [TRT] " + PLAIN,
        STAMP + PLAIN,
        STAMP + "Fastest Tactic: 0x00000000000003ea Time: 1",
        STAMP + NAME + "\r" + STAMP + PLAIN,
        STAMP + PLAIN,
        STAMP + "Fastest Tactic: 0x00000000000003ea Time: 1",
    )
    blocks = assert_same(data)
    assert all(not block.names for block in blocks)


def test_8x_name_lines_give_the_tables_of_reading_line_by_line(tmp_path: Path) -> None:
    lines = [
        "[07/07/2026-02:11:13] [V] [TRT] =============== Computing costs for conv1 + relu1",
        "[07/07/2026-02:11:13] [V] [TRT] *************** Autotuning format combination: "
        "Int8(1,2,3,4) -> Int8(1,2,3,4) ***************",
        STAMP + NAME,
        STAMP + "--------------- Timing Runner: conv1 + relu1 (CaskConvolution)",
        STAMP + NAME,
        STAMP + PLAIN.replace("3ea", "3e8"),
        STAMP + PLAIN,
        LATER + UNNUMBERED_NAME,
        LATER + PLAIN.replace("3ea", "3f0"),
        LATER + "Fastest Tactic: 0x00000000000003ea Time: 0.00832914",
        LATER + ">>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 0x00000000000003ea",
        LATER + NAME,
        LATER + NAME,
    ]
    path = tmp_path / "named.log"
    path.write_bytes(log(*lines))
    streamed = stream_build_log(resolve(path))
    # Lines 5-7 and 8-9 (a name line alone, line 3, is not a block).
    blocks = read_blocks(path.read_bytes())[1]
    assert [(b.first_line, b.name_offsets) for b in blocks if b.names] == [(5, [0]), (8, [0])]
    by_line = BuildLog.from_parsed(parse_lines(path.read_bytes().splitlines()))
    for name in ("tactics", "choices", "timeline"):
        pd.testing.assert_frame_equal(streamed.table(name), by_line.table(name), obj=name)
    kernels = streamed.tactics["kernel"].tolist()
    assert pd.isna(kernels[0]) and kernels[1:] == ["sm80_xmma_fprop_i8i8", "sm80_xmma_fprop_f16"]
    layers = streamed.timeline[streamed.timeline["level"] == "layer"]
    assert layers[["layer", "tactics", "first_line", "last_line"]].values.tolist() == [
        ["conv1 + relu1", 3, 1, 13]
    ]


def test_old_forms_and_python_envelopes_are_blocks_too() -> None:
    data = log(PYTHON + OLD_PLAIN, PYTHON + OLD_PLAIN, STAMP + "Fastest Tactic: 0 Time: 0.1")
    (block,) = assert_same(data)
    # 3.4e+38 (FLT_MAX) means "not timed": None in the events.
    assert [row[TIME_MS] for row in block.rows()] == [None, None]
    assert list(block.tactics) == [(-3360065831133338131) & 0xFFFF_FFFF_FFFF_FFFF] * 2


@pytest.mark.parametrize("chunk_bytes", [1, 7, 64, 200, 4096])
def test_any_piece_size_reads_the_same(chunk_bytes: int) -> None:
    lines = [STAMP + NAMED] * 5 + [LATER + MYELIN] * 4 + ["bare"] + [LATER + PLAIN] * 3
    data = log(*lines) + b"\n\xff\xfe not utf-8 \xe2\x82\n" + log(*lines, end="")
    assert_same(data, chunk_bytes)


HOT = [STAMP + NAMED, STAMP + SPLIT, STAMP + PLAIN, LATER + PLAIN, PYTHON + OLD_PLAIN,
       STAMP + MYELIN, LATER + MYELIN_ONNX, STAMP + "Fastest Tactic: 0x00000000000003ea Time: 1",
       RUNNER, FORMATS,
       STAMP + NAME, LATER + UNNUMBERED_NAME, "bare", "", "\r", "[07/07/2026-02:11:14] [I] [TRT] [MemUsageChange] x", "\x1b[2K"]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(st.sampled_from(HOT), st.text(max_size=40)),
        max_size=40,
    ),
    st.integers(min_value=1, max_value=300),
    st.booleans(),
)
def test_mixtures_read_the_same(lines: list[str], chunk_bytes: int, final_newline: bool) -> None:
    assert_same(log(*lines, end="\n" if final_newline else ""), chunk_bytes)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000), st.integers(min_value=1, max_value=500))
def test_arbitrary_bytes_read_the_same(data: bytes, chunk_bytes: int) -> None:
    assert_same(data, chunk_bytes)


@needs_corpus
@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda path: path.name)
def test_every_log_reads_the_same(path: Path) -> None:
    with path.open("rb") as stream:
        by_line = parse_lines(stream, source=str(path))
    by_block = parse_file(path)
    assert by_block.events == by_line.events
    assert by_block.counts == by_line.counts
    assert by_block.physical_lines == by_line.physical_lines


def scanned_kinds(data: bytes) -> list[str]:
    """What the scanner hands on for each record or line: "block", "parsed" or "line"."""
    scanner = BlockScanner(RecordParser().fast_path)  # type: ignore[arg-type]
    names = {RowBlock: "block", ParsedLine: "parsed", tuple: "line"}
    return [names[type(item)] for item in scanner.scan(text_chunks(io.BytesIO(data)))]


def test_one_line_records_are_parsed_as_they_are_scanned() -> None:
    data = log(FORMATS, RUNNER, STAMP + PLAIN, FASTEST, LATER + "not a hot form", FASTEST)
    # The last line may have bare lines under it in the next piece of text: read line by line.
    assert scanned_kinds(data) == ["parsed", "parsed", "block", "parsed", "line", "line"]
    assert_same(data)


def test_a_long_line_is_left_to_the_record_parser() -> None:
    # The fast path does not remember messages this long: a miss would be tried twice.
    long = STAMP + "--------------- Timing Runner: " + "x" * 1000 + " (CaskConvolution[0x80000009])"
    data = log(long, RUNNER, RUNNER)
    assert scanned_kinds(data) == ["line", "parsed", "line"]
    assert_same(data)


def test_a_line_with_bare_lines_under_it_is_not_parsed_while_scanned() -> None:
    data = log(RUNNER, "  under the runner line", FORMATS, FORMATS + "\r", RUNNER, RUNNER)
    # A line with a CR is more than one segment: neither it nor the line above it is taken.
    assert scanned_kinds(data) == ["line", "line", "line", "line", "parsed", "line"]
    assert_same(data)


def test_the_line_after_a_run_that_is_not_a_block_decides_too() -> None:
    # A plain timing line with more after its time is no block: its lines are read one by
    # one, and the last of them is a record of its own only if the line after it opens one.
    odd = STAMP + PLAIN + " and more"
    opened = log(RUNNER, odd, STAMP + PLAIN, LATER + "next", RUNNER)
    assert scanned_kinds(opened)[:3] == ["parsed", "line", "parsed"]
    assert_same(opened)
    # A redrawn line (a CR in it) opens a record, but is not known to be one clean segment.
    redrawn = log(RUNNER, odd, STAMP + PLAIN, LATER + "next\r", RUNNER)
    assert scanned_kinds(redrawn)[:3] == ["parsed", "line", "line"]
    assert_same(redrawn)


@needs_corpus
def test_most_tactic_timings_of_a_10x_build_are_read_as_blocks() -> None:
    # The equality above says nothing if no line ever made a block.
    path = corpus_dir() / "logs" / "hackathon_trt10.16.1_trtexec_build_h100.log"
    _, blocks = read_blocks(path.read_bytes())
    in_blocks = Counter[str]()
    for block in blocks:
        in_blocks[block.kind.__name__] += len(block)
    timings = sum(isinstance(event, TacticTiming) for event in parse_file(path).events)
    assert in_blocks["TacticTiming"] >= 0.9 * timings
    assert in_blocks["MyelinTrace"] > 1000


@needs_corpus
def test_most_one_line_autotuning_records_of_a_10x_build_are_parsed_as_scanned() -> None:
    # The equalities above say nothing if no line was ever parsed while scanned.
    path = corpus_dir() / "logs" / "hackathon_trt10.16.1_trtexec_build_h100.log"
    kinds = Counter(scanned_kinds(path.read_bytes()))
    runners = sum(isinstance(event, TimingRunner) for event in parse_file(path).events)
    assert kinds["parsed"] >= 3 * runners > 300


MYELIN_STARTS = [" (foreignNode)", " (myelin)", " (Myelin)", " (Foreign)", "(foreignNode)", ""]
MYELIN_PIECES = [" ", "[07/07/2026-02:11:14]", "[07/07/2026-02:11:1]", "[", "]", "\r", "\x1b", ", 0x4a,"]  # fmt: skip
MYELIN_LINES = st.builds(
    lambda start, rest: start + "".join(rest).replace("\n", " "),
    st.sampled_from(MYELIN_STARTS),
    st.lists(st.one_of(st.sampled_from(MYELIN_PIECES), st.text(max_size=5)), max_size=6),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(MYELIN_LINES, min_size=1, max_size=4))
def test_a_trace_is_whole_when_each_line_matches_the_fast_path(lines: list[str]) -> None:
    expected = all(blocks._MYELIN_LINE.fullmatch(line) for line in lines)
    assert blocks._whole_trace("\n".join(lines), len(lines)) == expected


def test_a_trace_block_gives_each_line_its_text() -> None:
    (block,) = assert_same(
        log(STAMP + MYELIN, STAMP + MYELIN_ONNX, STAMP + " (myelin) x [1]", LATER + "x")
    )
    assert [row[-1] for row in block.rows()] == [
        MYELIN[14:].strip(),
        MYELIN_ONNX[14:].strip(),
        "x [1]",
    ]


# Kernel names as the logs print them, and the characters that may not stand in one.
KERNEL_PIECES = ["sm80_xmma_gemm", "_f16", "k", " ", "\t", "\r", "[", "\x1b", "\x1c", "é",
                 "\u2003", "\n", "Tactic Name: ", " Tactic: 0x1 Time: 2"]  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(
        st.builds(
            lambda kernel, parameters, time: (
                f"Tactic Name: {kernel}{parameters} Tactic: 0x00ab Time: {time}"
            ),
            st.lists(st.sampled_from(KERNEL_PIECES), min_size=1, max_size=4).map("".join),
            st.sampled_from(["", " numSplitK: 1 numBuffers: 0 numKernels: 1"]),
            st.sampled_from(["0.0123", "nan", "x"]),
        ),
        min_size=1,
        max_size=4,
    ).map("\n".join)
)
def test_kernel_names_are_found_as_the_fast_path_finds_them(bodies: str) -> None:
    # A run is taken when every line matches; then each line's values must be the fast path's.
    lines = bodies.count("\n") + 1
    expected = blocks._NAMED_LINE.findall(bodies)
    found = blocks._named_timings(bodies)
    assert (len(found) == lines) == (len(expected) == lines)
    if len(expected) == lines:
        assert found == expected


def test_only_the_characters_checked_for_may_not_stand_in_an_ascii_kernel_name() -> None:
    refused = {chr(code) for code in range(128) if not blocks._NAMED_LINE.match(
        f"Tactic Name: a{chr(code)}b Tactic: 1 Time: 2")}  # fmt: skip
    assert refused == {*blocks._NOT_IN_PLAIN_NAMES, " ", "\n"}
