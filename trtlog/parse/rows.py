"""Rows: the events that fill most of a verbose log, carried as plain tuples.

A large build logs millions of tactic timings, Myelin tactic-table lines and (7.x-8.5) kernel
names. Building a frozen event object for each costs more than parsing the line, and keeping
them all costs gigabytes. So the fast path hands these three kinds on as rows: a tuple whose
first item is the event class and whose other items are that event's field values in the
order of ``dataclasses.fields`` (``line``, ``end_line``, ``timestamp``, ``severity``,
``producer``, then the class's own). The fold links rows as it links events, the table
builders read rows directly, and ``materialize`` turns a row into the event it stands for when
events are asked for (``parse_file``, ``--format json``). A row and its event are the same
thing: ``tests/test_fast_path.py`` checks ``materialize(row)`` against the grammar's event.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from trtlog.events.autotuning import SetTacticName, TacticTiming
from trtlog.events.base import Event
from trtlog.events.notes import MyelinTrace

ROW_CLASSES: tuple[type[Event], ...] = (TacticTiming, SetTacticName, MyelinTrace)
# A row is (event class, *field values).
Row = tuple[Any, ...]
Item = Event | Row

FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {
    cls: tuple(field.name for field in fields(cls)) for cls in ROW_CLASSES
}


def _index(cls: type[Event], name: str) -> int:
    return 1 + FIELD_NAMES[cls].index(name)


# Positions in a row (the class is at 0). The fields every event has come first.
LINE, END_LINE, TIMESTAMP, SEVERITY, PRODUCER = 1, 2, 3, 4, 5
# Autotuning rows: the context the fold links, then the event's own fields.
LAYER = _index(TacticTiming, "layer")
BUILD = _index(TacticTiming, "build")
CONTEXT = slice(LAYER, BUILD + 1)
TACTIC = _index(TacticTiming, "tactic")
TIME_MS = _index(TacticTiming, "time_ms")
KERNEL = _index(TacticTiming, "kernel")
KERNEL_PARAMETERS = _index(TacticTiming, "kernel_parameters")
SUBJECT = _index(SetTacticName, "subject")
NAME_KERNEL = _index(SetTacticName, "kernel")
NAME_TACTIC = _index(SetTacticName, "tactic")
NAME_PARAMETERS = _index(SetTacticName, "kernel_parameters")
assert _index(SetTacticName, "layer") == LAYER and _index(SetTacticName, "build") == BUILD

_set_field = object.__setattr__


def materialize(row: Row) -> Event:
    """The event a row stands for."""
    cls: type[Event] = row[0]
    event: Event = object.__new__(cls)
    for name, value in zip(FIELD_NAMES[cls], row[1:], strict=True):
        _set_field(event, name, value)
    return event


def is_row(item: Item) -> bool:
    return type(item) is tuple


def kind_of(item: Item) -> type[Event]:
    """The event class of an event or a row."""
    return item[0] if type(item) is tuple else type(item)  # type: ignore[return-value]


__all__ = [
    "BUILD",
    "CONTEXT",
    "FIELD_NAMES",
    "KERNEL",
    "LAYER",
    "LINE",
    "ROW_CLASSES",
    "TACTIC",
    "TIMESTAMP",
    "TIME_MS",
    "Item",
    "Row",
    "is_row",
    "kind_of",
    "materialize",
]
