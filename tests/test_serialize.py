"""``event_json`` writes the text ``json.dumps(event_to_dict(event))`` writes, for every event;
``block_json`` the text ``event_json`` writes of a block's events."""

from __future__ import annotations

import json
import math
from array import array
from dataclasses import fields
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import CORPUS_LOGS, SAMPLES
from trtlog.events import EVENT_CLASSES, Event, FastestTactic, MyelinTrace, TacticId, TacticTiming
from trtlog.parse import StreamItems, parse_file
from trtlog.parse.envelope import Envelope
from trtlog.parse.items import LineBlock
from trtlog.parse.serialize import block_json, event_json, event_to_dict

# The sample logs and the first dozen corpus logs.
LOGS = [*sorted(SAMPLES.glob("*.log")), *CORPUS_LOGS[:12]]


def _dumped(event: Event) -> str:
    return json.dumps(event_to_dict(event), allow_nan=False)


@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.name)
def test_every_event_of_a_log_is_written_as_json_dumps_writes_it(path: Path) -> None:
    if not path.is_file():
        pytest.skip("no corpus")
    events = parse_file(path).events
    assert events
    for event in events:
        assert event_json(event) == _dumped(event)


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
def test_values_of_every_kind_are_written_as_json_dumps_writes_them(cls: type[Event]) -> None:
    # Text that needs escaping (quotes, a backslash, a control character, beyond ASCII) in
    # every field, then None in every field: each class's encoder meets both.
    odd = {field.name: f'"{field.name}"\\\t\u00e9\u4e2d' for field in fields(cls)}
    for values in (odd, dict.fromkeys(odd)):
        event = cls(**values)
        assert event_json(event) == _dumped(event)


def test_numbers_ids_times_and_lists_are_written_as_json_dumps_writes_them() -> None:
    for time_ms in (0.0123, 1e-7, 12345678.5, -0.0, math.inf, math.nan):
        event = FastestTactic(
            line=3,
            end_line=3,
            timestamp=datetime(2026, 7, 7, 2, 11, 1, 250),
            severity="verbose",
            layer="conv",
            tactic=TacticId(0xDB0B80F591D1BB6D),
            time_ms=time_ms,
            profiling_seconds=None,
        )
        assert event_json(event) == _dumped(event)
    # The last: NaN, which JSON cannot hold, is null; the id as TensorRT prints it.
    assert '"time_ms": null' in event_json(event)
    assert '"tactic": "0xdb0b80f591d1bb6d"' in event_json(event)


def _blocks_of(path: Path) -> list[LineBlock]:
    with path.open("rb") as stream:
        return [item for item in StreamItems().folded(stream) if isinstance(item, LineBlock)]


@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.name)
def test_every_block_of_a_log_is_written_as_its_events_are(path: Path) -> None:
    if not path.is_file():
        pytest.skip("no corpus")
    for block in _blocks_of(path):
        assert block_json(block) == [event_json(event) for event in block.events()]


_ENVELOPE = Envelope("trtexec", datetime(2026, 7, 7, 2, 11, 1, 250), "verbose", "trt")


def test_odd_values_of_a_block_of_timings_are_written_as_their_events_are() -> None:
    # Times TensorRT prints for "not timed" (inf, FLT_MAX), NaN, minus infinity and zero; text
    # needing escapes, and "%" that a template must not take for its own.
    times = [0.0123, math.inf, 3.40282e38, math.nan, -math.inf, -0.0]
    block = LineBlock(
        TacticTiming,
        41,
        _ENVELOPE,
        array("Q", [0, 1, 2**64 - 1, 0x5A55274960724BA8, 7, 8]),
        array("d", times),
        kernels=['k "1"\\', None, "\u4e2d%s", "%d%%", "\t", "{x}"],
        parameters=[None, "[x]", "%", None, "é", "}"],
        layer='conv "%s"',
        formats="Half(1) -> Half(2)",
        runner="CaskConvolution",
        runner_id=2**63,
        run=1,
        build=2,
        strategy=None,
    )
    written = block_json(block)
    assert written == [event_json(event) for event in block.events()]
    assert [json.loads(line)["time_ms"] for line in written] == [
        0.0123,
        None,
        None,
        None,
        None,
        -0.0,
    ]
    assert json.loads(written[2])["tactic"] == "0xffffffffffffffff"
    assert json.loads(written[0])["line"] == 41 and json.loads(written[-1])["end_line"] == 46


def test_a_block_of_myelin_trace_lines_is_written_as_its_events_are() -> None:
    lines = [
        " (foreignNode) Pass a %s is skipped",
        ' (myelin) "quoted" \\ 100%',
        " (foreignNode) x",
    ]
    block = LineBlock(
        MyelinTrace, 7, _ENVELOPE, array("Q"), array("d"), trace="\n".join(lines), trace_lines=3
    )
    written = block_json(block)
    assert written == [event_json(event) for event in block.events()]
    assert [json.loads(line)["text"] for line in written] == [
        "Pass a %s is skipped",
        '"quoted" \\ 100%',
        "x",
    ]
