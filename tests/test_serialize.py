"""``event_json`` writes the text ``json.dumps(event_to_dict(event))`` writes, for every event."""

from __future__ import annotations

import json
import math
from dataclasses import fields
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import CORPUS_LOGS, SAMPLES
from trtlog.events import EVENT_CLASSES, Event, FastestTactic, TacticId
from trtlog.parse import parse_file
from trtlog.parse.serialize import event_json, event_to_dict


def _dumped(event: Event) -> str:
    return json.dumps(event_to_dict(event), allow_nan=False)


@pytest.mark.parametrize(
    "path",
    [*sorted(SAMPLES.glob("*.log")), *CORPUS_LOGS[:12]],
    ids=lambda path: path.name,
)
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
