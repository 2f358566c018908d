"""Events and tactic blocks pickle (to hand them to another process, or keep them): every field
must survive."""

from __future__ import annotations

import math
import pickle
from array import array
from dataclasses import fields
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import CORPUS_LOGS, SAMPLES, needs_corpus
from trtlog.events import (
    EVENT_CLASSES,
    Event,
    FastestTactic,
    SetTacticName,
    TacticId,
    TacticTiming,
)
from trtlog.parse import parse_file
from trtlog.parse.envelope import Envelope
from trtlog.parse.items import LineBlock, events_of


def _round_trip(value: object) -> object:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
def test_every_event_class_keeps_every_field(cls: type[Event]) -> None:
    # A different value in each field: a field restored into another's slot shows.
    values = {field.name: f"{field.name} of {cls.__name__}" for field in fields(cls)}
    event = cls(**values)
    copy = _round_trip(event)
    assert type(copy) is cls
    assert {field.name: getattr(copy, field.name) for field in fields(cls)} == values
    assert copy == event


def test_a_block_keeps_its_lines_and_context() -> None:
    envelope = Envelope("trtexec", datetime(2026, 7, 7, 2, 11, 1), "verbose", "trt")
    block = LineBlock(
        TacticTiming,
        41,
        envelope,
        array("Q", [0x5A55274960724BA8, 0xDB0B80F591D1BB6D]),
        array("d", [0.0123, math.inf]),
        kernels=["sm80_a", "sm90_b"],
        parameters=[None, "[x]"],
        layer="conv1",
        formats="Half(1) -> Half(2)",
        runner="CaskConvolution",
        runner_id=0x80000009,
        build=2,
    )
    event = next(block.events())
    copy = _round_trip(block)
    assert type(copy) is LineBlock
    assert [getattr(copy, field.name) for field in fields(LineBlock)] == [
        getattr(block, field.name) for field in fields(LineBlock)
    ]
    assert list(copy.events()) == list(block.events())
    trip = _round_trip([event, block, event])
    assert list(events_of(trip)) == list(events_of([event, block, event]))  # type: ignore[arg-type]


def test_tactic_ids_come_back_typed() -> None:
    fastest = FastestTactic(
        line=9,
        end_line=9,
        layer="conv1",
        runner="CaskConvolution",
        tactic=TacticId(0xDB0B80F591D1BB6D),
        time_ms=0.0123,
    )
    back = _round_trip(fastest)
    assert type(back.tactic) is TacticId  # type: ignore[attr-defined]
    assert repr(back) == repr(fastest)
    untimed = SetTacticName(line=3, end_line=3, subject="conv1", kernel="sm80_a")
    assert _round_trip(untimed) == untimed


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize(
    "path",
    [SAMPLES / "trtexec_10.x_build_inference_profile.log", *CORPUS_LOGS[:8]],
    ids=lambda path: path.name,
)
def test_parsed_events_survive_the_trip_back(path: Path) -> None:
    events = parse_file(path).events
    assert _round_trip(events) == events
