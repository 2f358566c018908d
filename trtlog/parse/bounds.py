"""Whole numbers beyond 64 bits in parsed events: kept as None and counted.

A corrupted log can print any number of digits ("After slice removal: 99999999999999999999
layers"); the tables keep whole numbers in 64-bit columns.
"""

from __future__ import annotations

from dataclasses import fields
from typing import cast

from trtlog.events.base import Event
from trtlog.parse.items import Item
from trtlog.parse.line_counts import LineCounts

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
# Per event class, the fields that may hold a whole number (``bounded``).
_INT_FIELDS: dict[type, tuple[str, ...]] = {}


def _int_fields(event: Event) -> tuple[str, ...]:
    """The fields of ``event``'s class declared as whole numbers (tactic ids, TensorRT's
    unsigned 64-bit values, are not), besides its line numbers."""
    return tuple(
        f.name
        for f in fields(event)
        if "int" in str(f.type) and "TacticId" not in str(f.type) and f.name not in _LINES
    )


_LINES = ("line", "end_line")


def bounded(counts: LineCounts, items: list[Item]) -> list[Item]:
    """``items`` with every whole number that does not fit in 64 signed bits (a corrupted
    log: "After slice removal: 99999999999999999999 layers") replaced by None and
    counted: tables keep such values in 64-bit columns. Tactic ids (``TacticId``, TensorRT's
    unsigned 64-bit values) are kept."""
    for item in items:
        names = _INT_FIELDS.get(type(item))
        if names is None:
            names = _INT_FIELDS[type(item)] = _int_fields(cast(Event, item))
        for name in names:
            value = getattr(item, name)
            if type(value) is int and not _INT64_MIN <= value <= _INT64_MAX:
                object.__setattr__(item, name, None)
                counts.out_of_range += 1
    return items


__all__ = ["bounded"]
