"""The native core against the grammar: whatever the core claims is what the grammar gives.

The core (``trtlog._core``) takes runs of tactic timings and Myelin trace rows as blocks. Every
row of every block it makes of every corpus log and sample, and of generated logs, is compared
field by field with the event the grammar alone makes of that line; every line it does not claim
comes back as text with its own number, so that each line is handed on exactly once.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, SAMPLES, examples, needs_corpus
from tests.test_claims import grammar_events, same
from trtlog import _core
from trtlog.events.autotuning import FastestTactic, TacticTiming
from trtlog.events.onnx import OnnxImporterTrace
from trtlog.parse.envelope_grammar import split_envelope
from trtlog.parse.grammar import message_parser
from trtlog.parse.items import LineBlock
from trtlog.parse.reader import open_log
from trtlog.parse.records import RecordParser
from trtlog.parse.scanner import (
    BareLines,
    ClaimedRecords,
    CoreScanner,
    byte_chunks,
    core_guards,
    shared_guards,
)

ALL_LOGS = sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS


def _scanner() -> CoreScanner:
    return CoreScanner(RecordParser().lark)


def _scanned(data: bytes, chunk: int = 1 << 20) -> tuple[list[object], int]:
    scanner = _scanner()
    chunks = [data[start : start + chunk] for start in range(0, len(data), chunk)]
    return list(scanner.scan(chunks)), scanner.lines


def _claimed(data: bytes, chunk: int) -> tuple[list[object], int]:
    """The events of the lines the core claims (blocks' lines and records), and the lines."""
    scanner = _scanner()
    core = scanner._core
    pieces = []
    for start in range(0, len(data), chunk):
        pieces.extend(core.feed(data[start : start + chunk]))
    pieces.extend(core.finish())
    events: list[object] = []
    for piece in pieces:
        if piece[0] == 0:
            continue
        for item in scanner._piece(piece):
            if isinstance(item, LineBlock):
                events.extend(item.events())
            elif isinstance(item, BareLines):
                # Read, not claimed: tests/test_core_progress.py.
                continue
            else:
                claimed = item.items  # type: ignore[union-attr]
                events.extend(claimed)
    return events, core.lines


def _own_fields(event: object) -> dict[str, object]:
    """Every field but the line numbers: a line parsed alone has no context (run, build,
    layer...) unless its own message names it (a timing runner's layer and runner)."""
    return {
        f.name: getattr(event, f.name)
        for f in fields(event)  # type: ignore[arg-type]
        if f.name not in ("line", "end_line")
    }


def _check_claims(data: bytes, chunk: int = 1 << 20) -> int:
    """Compares every event the core claims with the grammar's event of its line, and checks
    that the lines are counted. Returns the events compared."""
    text_lines = data.decode("utf-8", errors="replace").split("\n")
    if text_lines and text_lines[-1] == "":
        text_lines.pop()
    events, lines = _claimed(data, chunk)
    assert lines == len(text_lines)
    for event in events:
        line = text_lines[event.line - 1]  # type: ignore[attr-defined]
        wanted = grammar_events(line)
        assert len(wanted) == 1, (line, wanted)
        assert type(wanted[0]) is type(event), line
        assert same(_own_fields(event), _own_fields(wanted[0])), (line, event, wanted[0])
    return len(events)


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda path: path.name)
def test_every_claimed_line_is_what_the_grammar_makes_of_it(path: Path) -> None:
    with open_log(path) as stream:
        data = b"".join(byte_chunks(stream))
    _check_claims(data)


@pytest.mark.slow
@needs_corpus
def test_the_core_claims_most_lines_of_a_large_build() -> None:
    # TensorRT 10.16 trtexec build: tactic timings, Myelin rows and the tuning records around
    # them are most of its lines (3,748 of 4,713 claimed).
    path = next(p for p in CORPUS_LOGS if p.name.startswith("hackathon_trt10.16.1_trtexec"))
    data = path.read_bytes()
    compared = _check_claims(data)
    assert compared > 0.75 * data.count(b"\n"), compared


@needs_corpus
def test_the_core_claims_the_importer_trace_of_onnx_node_names_with_slashes() -> None:
    # TREx's 8.5 INT8 yolo build: "Parsing node: /backbone/conv1/_input_quantizer/Constant
    # [Constant]" and thousands like it. Slashes are not a second timestamp: the core reads them.
    path = next(p for p in CORPUS_LOGS if p.name.startswith("nvtrt_trex_trt8.5.2_trtexec"))
    data = path.read_bytes()
    events, _ = _claimed(data, 1 << 20)
    claimed = {event.line for event in events if isinstance(event, OnnxImporterTrace)}
    traced = [
        number
        for number, line in enumerate(data.split(b"\n"), start=1)
        if b"[V] [TRT] Parsing node: /" in line
    ]
    assert len(traced) > 100
    assert sum(number in claimed for number in traced) > 0.9 * len(traced)


@pytest.mark.slow
def test_pieces_are_the_same_however_the_bytes_are_fed() -> None:
    data = (SAMPLES / "trtexec_10.x_build_inference_profile.log").read_bytes()
    whole, lines = _scanned(data)
    for chunk in (1, 7, 4096):
        pieces, counted = _scanned(data, chunk)
        assert counted == lines
        assert [_describe(item) for item in pieces] == [_describe(item) for item in whole]


def _describe(item: object) -> object:
    if isinstance(item, LineBlock):
        return ("block", item.first_line, list(item.events()))
    if isinstance(item, tuple):
        return item
    if isinstance(item, ClaimedRecords):
        return ("claimed", item.first_line, item.items)
    return ("parsed", item.item)  # type: ignore[attr-defined]


def test_every_form_has_guards_read_from_the_parser() -> None:
    guards = dict(core_guards(message_parser()))
    assert {"tactic_timing", "named_tactic_timing", "myelin_trace", "timing_runner"} <= set(guards)
    # PROFILED_SUBJECT is tried before MYELIN_PREFIX: a Myelin row holding its phrase is the
    # grammar's profiled-runner line, not a trace row.
    assert any("profiling completed in" in pattern for pattern in guards["myelin_trace"])


def test_every_claimed_rule_starts_where_the_scanner_says() -> None:
    # A first terminal the start state does not try leaves the rule never claimed (its guard
    # cannot compile): a grammar change that moves a rule's start must show here.
    never = [form for form, patterns in core_guards(message_parser()) if patterns == ("(",)]
    assert never == []


def test_a_myelin_row_an_earlier_terminal_takes_is_left_to_the_grammar() -> None:
    stamp = "[07/07/2026-02:11:09] [V] [TRT] "
    lines = [
        f"{stamp} (foreignNode) 1, 0.5, sm80_kernel",
        f"{stamp} (foreignNode) x (Gemm) profiling completed in 0.1 seconds. Fastest Tactic: 0x1 Time: 0.2",
        f"{stamp}Tactic: 0x1 Time: 0.5",
        "[07/07/2026-02:11:09] [I] end",
    ]
    scanned, _ = _scanned(("\n".join(lines) + "\n").encode())
    claimed = [
        event.line for item in scanned if isinstance(item, LineBlock) for event in item.events()
    ]
    assert claimed == [1, 3]


def test_ids_and_times_come_back_as_printed() -> None:
    # TensorRT 8.6 trtexec: hexadecimal ids; 7.1: decimal, negative ids wrap to 64 bits.
    stamp = "[07/07/2026-02:11:09] [V] [TRT] "
    lines = [
        f"{stamp}Tactic: 0xffffffffffffffff Time: 3.40282e+38",
        f"{stamp}Tactic: -1 time 0.25",
        "[07/07/2026-02:11:09] [I] end",
    ]
    scanned, _ = _scanned(("\n".join(lines) + "\n").encode())
    block = next(item for item in scanned if isinstance(item, LineBlock))
    assert block.kind is TacticTiming
    assert list(block.tactics) == [2**64 - 1, 2**64 - 1]
    assert list(block.times) == [3.40282e38, 0.25]


_STAMPS = ["[07/07/2026-02:11:09] [V] [TRT] ", "[03/14/2023-10:00:01] [TRT] [V] "]
_AWKWARD = st.sampled_from(
    ["", " ", "\t", "\x1c", "\u00a0", "[", "]", "(", ")", ",", ":", "/", "-", "\ufffd", "é", "٣"]
)
_WORD = st.text(st.sampled_from("abcxyz_019"), min_size=1, max_size=8)
_ID = st.one_of(
    st.integers(0, 2**64 - 1).map(lambda value: f"0x{value:016x}"),
    st.integers(-(2**63), 2**64 + 5).map(str),
    st.sampled_from(["0x", "0X1F", "--1", "1e3", "0x10000000000000000"]),
)
_TIME = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["inf", "-inf", "nan", "+inf", "1.", ".5", "1e400", "1e", "0x1", "\u0661"]),
)
_PARAMETERS = st.sampled_from(["", " numSplitK: 1 numBuffers: 0 numKernels: 1", " numSplitK: x"])
_BODY = st.one_of(
    st.builds(
        lambda i, t, sep: f"Tactic{sep} {i} {t}",
        _ID,
        _TIME.map("Time: {}".format),
        st.sampled_from([":", ""]),
    ),
    st.builds(lambda i, t: f"Tactic: {i} time {t}", _ID, _TIME),
    st.builds(
        lambda k, a, p, i, t: f"Tactic Name: {k}{a}{p} Tactic: {i} Time: {t}",
        _WORD,
        _AWKWARD,
        _PARAMETERS,
        _ID,
        _TIME,
    ),
    st.builds(
        lambda prefix, a, w, b: f" ({prefix}){a}{w}{b}",
        st.sampled_from(["foreignNode", "myelin", "Myelin", "Foreign"]),
        _AWKWARD,
        _WORD,
        _AWKWARD,
    ),
    st.builds(
        lambda w: (
            f" (foreignNode) {w} (CaskGemm) profiling completed in 0.5 seconds. "
            "Fastest Tactic: 0x1 Time: 0.2"
        ),
        _WORD,
    ),
)
_RUNNER = st.sampled_from(["CaskConvolution", "Reformat", "Myelin", "x", "é", "Foo[0x1]", ""])
_SUBJECT = st.lists(st.one_of(_WORD, _AWKWARD, _RUNNER.map(" ({})".format)), max_size=5).map(
    "".join
)
_RUNNER_ID = st.sampled_from(["", "[0x80000009]", "[0xffffffffffffffff]", "[0x]"])
_FORMATS = st.lists(
    st.sampled_from(["Float(1,2)", "Half(8,1:8)", "", " ", " -> ", "***************", "é"]),
    max_size=3,
).map(", ".join)
_RECORD = st.one_of(
    st.builds(lambda i, t: f"Fastest Tactic: {i} Time: {t}", _ID, _TIME),
    st.builds(
        lambda s, r, rid, sec, i, t: (
            f"{s} ({r}{rid}) profiling completed in {sec} seconds. Fastest Tactic: {i} Time: {t}"
        ),
        _SUBJECT,
        _RUNNER,
        _RUNNER_ID,
        _TIME,
        _ID,
        _TIME,
    ),
    st.builds(
        lambda s, r, rid: f"--------------- Timing Runner: {s} ({r}{rid})",
        _SUBJECT,
        _RUNNER,
        _RUNNER_ID,
    ),
    st.builds(
        lambda kind, a, b: f"*************** Autotuning {kind}{a} -> {b} ***************",
        st.sampled_from(["format combination: ", "Reformat:", "Reformat: "]),
        _FORMATS,
        _FORMATS,
    ),
    st.builds(
        lambda kind, s: f"=============== Computing {kind}{s}",
        st.sampled_from(["costs for", "reformatting costs"]),
        st.sampled_from(["", " conv1", ": ", "x", " "]),
    ),
    st.builds(lambda r, i: f">>>>>>>>>>>>>>> Chose Runner Type: {r} Tactic: {i}", _RUNNER, _ID),
    st.builds(lambda r, s: f"Skipping {r}: No valid tactics for {s}", _RUNNER, _SUBJECT),
    st.builds(lambda r: f"{r} has no valid tactics for this config, skipping", _RUNNER),
)
# The other frequent one-line messages (``core/src/messages.rs``), with near misses.
_NODE_SUFFIX = st.builds(
    lambda op, direction: f" [{op}] {direction}:",
    st.sampled_from(["Conv", "Gemm", "com.microsoft:QLinear", "é", "", "A B"]),
    st.sampled_from(["inputs", "outputs", "input"]),
)
_SYMBOLIC = st.one_of(
    st.builds(
        lambda stage, count, tail: f"{stage}: {count} layers{tail}",
        st.sampled_from(
            ["Original", "After dead-layer removal", "After ", "Originals", "After a:b"]
        ),
        st.sampled_from(["24", "0", "99999999999999999999", "٣", ""]),
        st.sampled_from(["", " ", "x"]),
    ),
    st.builds(
        lambda kind, gap, name: f"{kind}{gap}{name}",
        st.sampled_from(["CONSTANT", "PLUGIN", "PLUGIN_V2", "CONDITION", "CONDITIONAL_INPUT", "X"]),
        st.sampled_from([" ", "  ", "", "\t", " \x1c"]),
        _SUBJECT,
    ),
    st.builds(
        lambda indent, role, index: f"{indent}{role} {index}",
        st.sampled_from(["    ", "   ", "     "]),
        st.sampled_from(["Input", "Output", "Other"]),
        st.sampled_from(["0", "12", "٣", "", "1 2"]),
    ),
    st.builds(
        lambda indent, value, symbol: f"{indent}{value}\t{symbol}",
        st.sampled_from(["        ", "       ", "         "]),
        _SUBJECT,
        _SUBJECT,
    ),
)
_MESSAGE = st.one_of(
    _SYMBOLIC,
    st.builds(
        lambda step, rest: step + rest,
        st.sampled_from(
            [
                "Parsing node: ",
                "Registering tensor: ",
                "Searching for input: ",
                "Using kernel: ",
                "Setting dynamic range for ",
                "Assigning ",
                "using ",
                "User overriding scale with ",
                "Removing ",
                "ModelImporter.cpp:103: Parsing node: ",
                "Parsing node:",
            ]
        ),
        _SUBJECT,
    ),
    st.builds(
        lambda name, suffix, rest: name + suffix + rest,
        _SUBJECT,
        _NODE_SUFFIX,
        st.lists(st.one_of(_AWKWARD, _NODE_SUFFIX, _WORD), max_size=3).map("".join),
    ),
    st.builds(
        lambda name, after: f"Running: {name}{after}",
        st.sampled_from(["ConstShuffleFusion", "_x1", "1x", "é", "A\u00e9", ""]),
        st.one_of(st.just(""), _SUBJECT.map(" on {}".format), _SUBJECT),
    ),
    st.builds(
        lambda verb, namespace, name, version: f"{verb} - {namespace}::{name} version {version}",
        st.sampled_from(["Registered plugin creator", "Plugin creator already registered"]),
        st.sampled_from(["", "nv", "a.b", "é", "::"]),
        _SUBJECT,
        st.sampled_from(["1", "2.1", "", "1 2", "x\x1f", " version 3"]),
    ),
)
_LINE = st.one_of(
    st.builds(lambda stamp, body: stamp + body, st.sampled_from(_STAMPS), _RECORD),
    st.builds(lambda stamp, body: stamp + body, st.sampled_from(_STAMPS), _MESSAGE),
    st.builds(lambda stamp, body: stamp + body, st.sampled_from(_STAMPS), _BODY),
    st.sampled_from(["  bare continuation", "[07/07/2026-02:11:09] [I] next", ""]),
)


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, min_size=1, max_size=12), st.integers(1, 64))
@example(["[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x1 Time: 1."], 1)
@example(["[07/07/2026-02:11:09] [V] [TRT] Tactic Name: a\x1cb Tactic: 0x1 Time: 1"], 3)
@example(
    [
        "[07/07/2026-02:11:09] [V] [TRT] Registered plugin creator - :: version version X version 1",
        "[07/07/2026-02:11:09] [V] [TRT]          \t ",
        "[07/07/2026-02:11:09] [V] [TRT]         \u00a0\t\u3000",
        "[07/07/2026-02:11:09] [I] next",
    ],
    64,
)
@example(
    [
        "[07/07/2026-02:11:09] [V] [TRT] 0 (CaskConvolution) profiling completed in nan seconds. "
        "Fastest Tactic: 0x0 Time: 0"
    ],
    64,
)
@example(
    [
        "[07/07/2026-02:11:09] [V] [TRT] *************** Autotuning format combination: "
        "A -> B -> ***************",
        "[07/07/2026-02:11:09] [V] [TRT] Skipping Foo: No valid tactics for layer1\x1f",
        "[07/07/2026-02:11:09] [I] next",
    ],
    64,
)
def test_generated_runs_are_claimed_only_as_the_grammar_reads_them(
    lines: list[str], chunk: int
) -> None:
    _check_claims(("\n".join(lines) + "\n").encode(), chunk)


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=300), st.integers(1, 64))
def test_arbitrary_bytes_never_fail_and_every_line_is_counted(data: bytes, chunk: int) -> None:
    scanner = _core.Scanner(_core.Guards([]), 1)
    pieces = []
    for start in range(0, len(data), chunk):
        pieces.extend(scanner.feed(data[start : start + chunk]))
    pieces.extend(scanner.finish())
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    assert scanner.lines == lines
    # Without guards no form is claimed: every line comes back as text, decoded as Python
    # decodes it.
    text = "\n".join(piece[2] for piece in pieces)
    wanted = data.decode("utf-8", errors="replace")
    assert text == (wanted[:-1] if wanted.endswith("\n") else wanted)


def test_a_record_an_earlier_terminal_takes_is_not_claimed_as_a_later_form() -> None:
    # The profiled runner's lazy subject is tried before the literal "Fastest Tactic: ": a line
    # holding its phrase is that message, whatever it starts with.
    parser = RecordParser()
    envelope, _ = split_envelope("[07/07/2026-02:11:09] [V] [TRT] x")
    fastest = parser.claim(envelope, "Fastest Tactic: 0x0000000000000000 Time: 0.00314842", 1)
    assert type(fastest) is FastestTactic
    profiled = "Fastest Tactic: x (CaskConvolution) profiling completed in 0.1 ms"
    assert parser.claim(envelope, profiled, 2) is None
    (event,) = grammar_events("[07/07/2026-02:11:09] [V] [TRT] " + profiled)
    assert type(event).__name__ != "FastestTactic"


def test_no_rule_is_claimed_in_the_messages_of_two_start_rules() -> None:
    # The core keys a rule's guards by the rule's name alone.
    forms = [form for form, _ in core_guards(RecordParser().lark)]
    assert len(forms) == len(set(forms))


def test_a_read_error_midway_reaches_the_reader() -> None:
    data = (SAMPLES / "trtexec_10.x_build_inference_profile.log").read_bytes()

    def failing_chunks() -> Iterator[bytes]:
        # Chunks in flight on the scanning thread when the reading fails.
        yield data[:4096]
        yield data[4096:8192]
        yield data[8192:12288]
        raise OSError("disk gone")

    scanned = _scanner().scan(failing_chunks())
    with pytest.raises(OSError, match="disk gone"):
        list(scanned)


def _scanning_threads() -> int:
    """This process's threads named as the core names its scanning thread."""
    return sum(_thread_name(task) == "trtlog-scan" for task in Path("/proc/self/task").iterdir())


def _thread_name(task: Path) -> str:
    try:
        return (task / "comm").read_text().strip()
    except OSError:  # the thread ended meanwhile
        return ""


def _until_no_scanning_thread() -> None:
    deadline = time.monotonic() + 10
    while _scanning_threads():
        assert time.monotonic() < deadline, "a scanning thread still runs"
        time.sleep(0.01)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux's /proc")
def test_a_scan_stopped_early_leaves_no_thread_behind() -> None:
    data = (SAMPLES / "trtexec_10.x_build_inference_profile.log").read_bytes()
    _until_no_scanning_thread()
    scanned = _scanner().scan(data[start : start + 512] for start in range(0, len(data), 512))
    assert next(scanned) is not None
    assert _scanning_threads() == 1
    scanned.close()
    del scanned
    _until_no_scanning_thread()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux's /proc")
def test_a_log_of_one_chunk_is_scanned_without_a_thread() -> None:
    data = (SAMPLES / "trtexec_10.x_build_inference_profile.log").read_bytes()
    _until_no_scanning_thread()
    core = _core.Scanner(shared_guards(RecordParser().lark))
    assert core.feed(data) == []
    assert _scanning_threads() == 0
    pieces = core.finish()
    assert core.lines == data.count(b"\n")
    # The same pieces as a scan in chunks on the thread.
    chunked = _core.Scanner(shared_guards(RecordParser().lark))
    in_chunks = [
        piece
        for start in range(0, len(data), 999)
        for piece in chunked.feed(data[start : start + 999])
    ]
    assert pieces == [*in_chunks, *chunked.finish()]
