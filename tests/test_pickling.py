"""Events and tactic blocks come back from worker processes pickled, packed as their classes'
field values (``trtlog.parse.transport``): every field must survive either way."""

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
from trtlog.parse.parallel import parse_piece
from trtlog.parse.pieces import cut
from trtlog.parse.rows import Item, RowBlock, events_of
from trtlog.parse.transport import pack, unpack


def _round_trip(value: object) -> object:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def _packed_trip(items: list[Item]) -> list[Item]:
    """What a worker's items become in this process (``trtlog.parse.parallel``)."""
    return unpack(_round_trip(pack(items)))  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
def test_every_event_class_keeps_every_field(cls: type[Event]) -> None:
    # A different value in each field: a field restored into another's slot shows.
    values = {field.name: f"{field.name} of {cls.__name__}" for field in fields(cls)}
    event = cls(**values)
    for copy in (_round_trip(event), *_packed_trip([event])):
        assert type(copy) is cls
        assert {field.name: getattr(copy, field.name) for field in fields(cls)} == values
        assert copy == event


def test_a_block_keeps_its_rows_and_context() -> None:
    envelope = Envelope("trtexec", datetime(2026, 7, 7, 2, 11, 1), "verbose", "trt")
    block = RowBlock(
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
    row = next(block.rows())
    for copy in (_round_trip(block), *_packed_trip([block])):
        assert type(copy) is RowBlock
        assert [getattr(copy, field.name) for field in fields(RowBlock)] == [
            getattr(block, field.name) for field in fields(RowBlock)
        ]
        assert list(copy.rows()) == list(block.rows())
    # Rows (tuples) pass as they are, in their places among events and blocks.
    trip = _packed_trip([row, block, row])
    assert trip[0] == row and trip[2] == row and type(trip[1]) is RowBlock
    assert list(events_of(trip)) == list(events_of([row, block, row]))


def test_tactic_ids_and_block_arrays_cross_as_plain_values_and_come_back_typed() -> None:
    # Pickle calls back into Python for each ``TacticId`` and ``array``; they cross as ints
    # and bytes, and must come back as they went.
    envelope = Envelope("trtexec", datetime(2026, 7, 7, 2, 11, 1), "verbose", "trt")
    fastest = FastestTactic(
        line=9,
        end_line=9,
        layer="conv1",
        runner="CaskConvolution",
        tactic=TacticId(0xDB0B80F591D1BB6D),
        time_ms=0.0123,
    )
    block = RowBlock(
        TacticTiming, 10, envelope, array("Q", [0x5A55274960724BA8]), array("d", [0.0123])
    )
    # An array of another type code (not one the scanner makes) crosses as it is.
    signed = RowBlock(TacticTiming, 11, envelope, array("q", [-3]), array("f", [0.5]))
    kept, kinds, values = _round_trip(pack([fastest, block, signed]))  # type: ignore[misc]
    assert TacticId not in {type(value) for value in values[0]}
    assert [type(value) for value in values[1][3:5]] == [bytes, bytes]
    assert [type(value) for value in values[2][3:5]] == [array, array]
    back_fastest, back_block, back_signed = unpack((kept, kinds, values))
    assert type(back_fastest.tactic) is TacticId  # type: ignore[union-attr]
    assert repr(back_fastest) == repr(fastest)
    for copy, original in ((back_block, block), (back_signed, signed)):
        for name in ("tactics", "times"):
            assert getattr(copy, name).typecode == getattr(original, name).typecode
            assert getattr(copy, name) == getattr(original, name)
    # A tactic field that holds no ``TacticId`` (None) is left as it is.
    untimed = SetTacticName(line=3, end_line=3, subject="conv1", kernel="sm80_a")
    assert _packed_trip([untimed]) == [untimed]


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
    pieces = cut(str(path), 1 << 16) or []
    for piece in pieces[:3]:
        items = parse_piece(str(path), piece).items
        assert list(events_of(_round_trip(items))) == list(events_of(items))  # type: ignore[arg-type]
        assert list(events_of(_packed_trip(items))) == list(events_of(items))
