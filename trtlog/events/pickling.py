"""Pickling for slotted dataclasses that cross between processes by the hundred thousand.

The worker processes of a parallel parse (``trtlog.parse.parallel``) hand their events and tactic
blocks back pickled. The ``__setstate__`` that ``dataclass(slots=True)`` generates walks
``dataclasses.fields`` for every object it restores, a large share of the main process's work.
``reduce_slots`` pickles an object as its class and field values instead, and ``rebuild`` sets them
through the slots' own descriptors (``trtlog.events.makers``). Frozen classes are rebuilt the way
their ``__init__`` sets them, so nothing about them changes: ``tests/test_parallel.py`` round-trips
every event class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from trtlog.events.makers import value_maker

# Per class: its field names, in order.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def rebuild(cls: type, *values: Any) -> Any:
    """The object of class ``cls`` whose fields hold ``values`` (``reduce_slots``'s inverse)."""
    return value_maker(cls)(*values)


def field_names(cls: Any) -> tuple[str, ...]:
    """The names of a dataclass's fields, in order."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in fields(cls))
    return names


def reduce_slots(instance: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """``__reduce__`` for a slotted dataclass: its class and its field values."""
    cls = type(instance)
    return rebuild, (cls, *[getattr(instance, name) for name in field_names(cls)])


__all__ = ["field_names", "rebuild", "reduce_slots"]
