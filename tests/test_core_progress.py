"""The native core on a progress monitor's bars, lines without an envelope under the record
above: the core reads each bar's text (as the reader cleans it) and tokens, and the record parser
uses them only where the grammar leaves the line to be parsed on its own
(``core/src/progress.rs``, ``trtlog.parse.assembly``). A log read through the core gives the
events and line counts the grammar alone gives."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, examples, needs_corpus
from tests.test_core import _scanner
from trtlog.events.base import Event
from trtlog.events.notes import ProgressUpdate
from trtlog.parse.assembly import Record
from trtlog.parse.claimed import claimed_item
from trtlog.parse.envelope import NO_ENVELOPE
from trtlog.parse.fold import fold
from trtlog.parse.items import events_of
from trtlog.parse.line_counts import LineCounts
from trtlog.parse.pipeline import StreamItems, iter_events
from trtlog.parse.reader import clean_line
from trtlog.parse.records import RecordParser
from trtlog.parse.scanner import BareLines

_UP = "\x1b[2A\x1b[0G\x1b[2K"
_ERASE = "\x1b[2K"
# TensorRT 10.16 Python build with a progress monitor (hackathon corpus log).
_WARNING = (
    "[07/07/2026-06:12:50] [TRT] [W] ModelImporter.cpp:994: Make sure output z has Int64 binding."
)
_TOP = _UP + "[=====-----] Building engine 3/6"
_NESTED = _ERASE + " [----------] Cloning network graph 0/30"


def _read_bars(data: bytes) -> list[tuple[int, str, tuple[object, ...]]]:
    scanner = _scanner()
    return [
        line
        for piece in scanner.scan([data])
        if isinstance(piece, BareLines)
        for line in piece.lines()
    ]


def _through_core(data: bytes) -> tuple[list[Event], LineCounts]:
    parser = RecordParser()
    events = list(events_of(fold(StreamItems(parser).of_chunks([data]))))
    return events, parser.counts


def _grammar_alone(data: bytes) -> tuple[list[Event], LineCounts]:
    parser = RecordParser(fast=False)
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return list(iter_events(lines, parser)), parser.counts


def _check_log(lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode()
    assert _through_core(data) == _grammar_alone(data)


def test_bars_are_read_with_the_text_the_reader_makes_of_them() -> None:
    read = _read_bars(("\n".join([_WARNING, _TOP, _NESTED, _WARNING]) + "\n").encode())
    assert [(number, text) for number, text, _ in read] == [
        (2, "[=====-----] Building engine 3/6"),
        (3, " [----------] Cloning network graph 0/30"),
    ]
    item = claimed_item(read[1][2], (3, 3, None, None, "none"))
    assert isinstance(item, ProgressUpdate)
    assert (item.phase, item.done, item.total, item.indent) == ("Cloning network graph", 0, 30, 1)


def test_bars_under_records_of_every_kind_give_the_grammar_s_events() -> None:
    lines = [
        # Bars before any envelope: records of their own.
        _TOP,
        _NESTED,
        # An indented bar right under a warning is a line of its message; the others are not.
        _WARNING,
        _NESTED,
        _TOP,
        _NESTED,
        # trtexec's layer listing takes every line under it, bars too.
        "[07/07/2026-06:12:51] [I] Layers:",
        _TOP,
        _NESTED,
        # Under a run of tactic timings, and a bar the core leaves to the reader (a title).
        "[07/07/2026-06:12:52] [V] [TRT] Tactic: 0x1 Time: 0.5",
        "[07/07/2026-06:12:52] [V] [TRT] Tactic: 0x2 Time: 0.25",
        _TOP,
        "\x1b]0;title\x07[==--------] Building engine 1/6",
        _NESTED,
        "not a bar",
        _TOP,
        "[07/07/2026-06:12:53] [TRT] [I] done",
    ]
    data = ("\n".join(lines) + "\n").encode()
    assert len(_read_bars(data)) == 10
    _check_log(lines)


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize(
    "name",
    [
        "hackathon_trt10.16.2_pyapi_progressmonitor_ansi.log",
        "torchtrt_trt10.6_dynamo_debug_dinov2_ansi.log",
    ],
)
def test_every_bar_read_in_the_corpus_is_what_the_grammar_makes_of_its_line(name: str) -> None:
    path = next(p for p in CORPUS_LOGS if p.name == name)
    data = path.read_bytes()
    raw_lines = data.split(b"\n")
    read = _read_bars(data)
    reference = RecordParser(fast=False)
    for number, text, record in read:
        assert clean_line(raw_lines[number - 1]) == [text]
        wanted = reference.parse(Record(number, text, NO_ENVELOPE, text))
        assert wanted == [claimed_item(record, (number, number, None, None, "none"))], text
    bars = sum(1 for line in raw_lines if b"] Building engine " in line)
    assert sum(1 for _, text, _ in read if "] Building engine " in text) == bars > 1000


@pytest.mark.slow
@needs_corpus
def test_a_progress_monitor_s_build_read_through_the_core_is_the_grammar_s() -> None:
    path = next(p for p in CORPUS_LOGS if p.name.startswith("hackathon_trt10.16.2_pyapi_progress"))
    data = path.read_bytes()
    assert _through_core(data) == _grammar_alone(data)


_BAR = st.builds(
    lambda escape, indent, bar, phase, counts: f"{escape}{indent}[{bar}] {phase}{counts}",
    st.sampled_from(["", _UP, _ERASE, "\x1b[1;31m", "\x1b[?25l", "\x1b", "\r"]),
    st.sampled_from(["", " ", "   "]),
    st.sampled_from(["=====-----", "-", "=", "", "= -"]),
    st.sampled_from(["Building engine", "", " x", "a 1/2", "é", "[07/07/2026-06:12:50]"]),
    st.sampled_from([" 3/6", " 0/1", " ٣/4", "3/6", " 1/", " 9223372036854775808/1", ""]),
)
_LINE = st.one_of(
    _BAR,
    st.sampled_from(
        [
            _WARNING,
            "[07/07/2026-06:12:51] [I] Layers:",
            "[07/07/2026-06:12:51] [I] Bindings:",
            "[07/07/2026-06:12:52] [V] [TRT] Tactic: 0x1 Time: 0.5",
            "[07/07/2026-06:12:53] [TRT] [I] done",
            "INFO:torch_tensorrt.dynamo._compiler:Compilation done",
            "  indented",
            "",
        ]
    ),
)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, min_size=1, max_size=10))
@example([_WARNING, _NESTED, _TOP, "[07/07/2026-06:12:51] [I] Layers:", _TOP])
def test_generated_logs_with_bars_read_through_the_core_are_the_grammar_s(
    lines: list[str],
) -> None:
    _check_log(lines)
