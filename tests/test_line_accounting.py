"""Recognised + unrecognised + foreign + blank lines add up to the lines the summary reports,
for every input: CR redraws, CRLF, lone CRs and several records on one physical line included."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, SAMPLES, examples, needs_corpus
from trtlog.parse import parse_file, parse_lines, parse_text
from trtlog.parse.result import ParsedLog
from trtlog.parse.summarize import summarize

ALL_LOGS = sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS


def added_up(log: ParsedLog) -> int:
    summary = summarize(log)
    return summary.recognized + summary.unrecognized + summary.foreign + summary.blank


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda path: path.name)
def test_every_log_adds_up_to_its_lines(path: Path) -> None:
    log = parse_file(path)
    with path.open("rb") as stream:
        lines = sum(1 for _ in stream)
    assert log.physical_lines == lines
    assert added_up(log) == summarize(log).lines == lines


@needs_corpus
def test_two_records_on_one_line_count_as_one_line() -> None:
    # Line 19 of this excerpt: a progress line overwritten by two stamps, then a record.
    path = next(path for path in CORPUS_LOGS if "mvsacmp" in path.name)
    log = parse_file(path)
    assert log.counts.segments == log.physical_lines + 2
    assert added_up(log) == log.physical_lines == 49


def test_a_line_redrawn_by_carriage_returns_is_one_line() -> None:
    text = (
        "[07/07/2026-06:12:03] [TRT] [V] Original: 24 layers\n"
        # Three redraws of a line, the last of them unknown: the line is unrecognised.
        "[07/07/2026-06:12:03] [TRT] [V] Original: 24 layers\r\r"
        "[07/07/2026-06:12:03] [TRT] [V] Nothing TensorRT prints\r\n"
        "\n"
    )
    for fast in (True, False):
        log = parse_text(text, fast=fast)
        c = log.counts
        assert (c.recognized, c.unrecognized, c.foreign, c.blank) == (1, 1, 0, 1)
        assert log.physical_lines == 3 and c.segments == 5


def test_lines_given_with_newlines_inside_are_the_lines_they_hold() -> None:
    stamp = "[07/07/2026-06:12:03] [TRT] [V] "
    lines = [
        f"{stamp}Original: 24 layers\n{stamp}Tactic: 0x1 Time: 0.5",
        # A lone surrogate is invalid UTF-8: replaced, whichever way the line is read.
        f"{stamp}Nothing TensorRT prints \udc80\n",
    ]
    fast, slow = parse_lines(lines), parse_lines(lines, fast=False)
    for log in (fast, slow):
        assert log.physical_lines == 3 and added_up(log) == 3
        c = log.counts
        assert (c.recognized, c.unrecognized) == (2, 1)
    assert [event.line for event in fast.events] == [event.line for event in slow.events]
    assert fast.events[-1] == slow.events[-1]
    assert "\udc80" not in fast.events[-1].text  # type: ignore[attr-defined]


PIECES = [
    "[07/07/2026-06:12:03] [TRT] [V] Original: 24 layers",
    "[03/25/2023-07:13:17] [V] [TRT] Tactic Name: ampere_scudnn_128x128_relu_medium_nn_v1 "
    "Tactic: 0xf067e6205da31c2e Time: 0.0129196",
    "[03/25/2023-07:13:17] [V] [TRT] Tactic: 0x00000000000003ea Time: 0.0141162",
    "[08/30/2026-03:51:53] [I] [TRT] Local timing cache in use. Profiling results in this builder pas",
    "[01/29/2022-15:09:41] [V] [TRT] Engine Layer Information:",
    "Layer(CaskConvolution): Conv__25 + Relu, Tactic: 7144526460361122478, "
    "x:0[Float(-2,1,28,28)] -> Relu:0[Float(-2,32,28,28)]",
    "\x1b[0G\x1b[2K[----------] Building engine 0/6",
    "INFO:torch_tensorrt [TensorRT Conversion Context]:Original: 3 layers",
    "W0725 16:43:50.537823 139848660895552 file.py:280] another library's warning",
    "WARNING: [Torch-TensorRT] - Some warning:",
    "- an item",
    "  indented",
    "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=a.onnx",
    "[V] [TRT] Deleting timing cache: 65 entries, 0 hits",
    "some other program's output",
    "",
    " ",
]


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(
        st.tuples(
            st.lists(st.sampled_from(PIECES), min_size=1, max_size=3),
            # What joins the records of one physical line, and what ends the line.
            st.sampled_from(["", "\r", "\r\r"]),
            st.sampled_from(["\n", "\r\n", "\r\r\n", "\n\n"]),
        ),
        max_size=40,
    ),
    unterminated=st.booleans(),
)
def test_generated_logs_add_up_to_their_lines(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[tuple[list[str], str, str]],
    unterminated: bool,
) -> None:
    text = "".join(joiner.join(pieces) + end for pieces, joiner, end in lines)
    if unterminated:
        text = text.rstrip("\n")
    expected = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    path = tmp_path_factory.mktemp("log") / "generated.log"
    path.write_text(text, encoding="utf-8", newline="")
    for log in (parse_text(text), parse_text(text, fast=False), parse_file(path)):
        assert log.physical_lines == expected
        assert added_up(log) == expected
