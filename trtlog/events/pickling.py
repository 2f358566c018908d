"""Pickling for slotted dataclasses that cross between processes by the hundred thousand.

The worker processes of a parallel parse (``trtlog.parse.parallel``) hand their events and
tactic blocks back pickled. The ``__setstate__`` that ``dataclass(slots=True)`` generates walks
``dataclasses.fields`` for every object it restores (about 4 µs per event), which made
unpickling a fifth of the main process's work. ``reduce_slots`` pickles an object as its class
and field values instead, and ``rebuild`` sets them through the slots' own descriptors, three
times faster. Frozen classes are rebuilt the way their ``__init__`` sets them, so nothing about
them changes: ``tests/test_parallel.py`` round-trips every event class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

# Per class: (field name, the setter of its slot), in field order.
_SLOT_SETTERS: dict[type, tuple[tuple[str, Callable[[Any, Any], None]], ...]] = {}


def _setters(cls: type) -> tuple[tuple[str, Callable[[Any, Any], None]], ...]:
    setters = _SLOT_SETTERS.get(cls)
    if setters is None:
        setters = _SLOT_SETTERS[cls] = tuple(
            (field.name, getattr(cls, field.name).__set__) for field in fields(cls)
        )
    return setters


def rebuild(cls: type, *values: Any) -> Any:
    """The object of class ``cls`` whose fields hold ``values`` (``reduce_slots``'s inverse)."""
    made: Any = object.__new__(cls)
    for (_name, setter), value in zip(_setters(cls), values, strict=True):
        setter(made, value)
    return made


def reduce_slots(instance: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """``__reduce__`` for a slotted dataclass: its class and its field values."""
    cls = type(instance)
    return rebuild, (cls, *[getattr(instance, name) for name, _setter in _setters(cls)])


__all__ = ["rebuild", "reduce_slots"]
