"""Hand a piece's items from a worker process to this one with little pickling work.

Most items a worker parses are rows (``trtlog.parse.rows``): format combinations, timing runners and
fastest tactics, and the blocks of tactic timings between them. Rows pass as they are: pickle writes
and reads plain tuples without calling back into Python. An event pickled by itself calls its
``__reduce__`` and, when read back, ``rebuild`` (``trtlog.events.pickling``): Python code run per
event. So ``pack`` takes the events' classes and field values out in one loop, and ``unpack`` makes
the same events again with each class's maker (``trtlog.events.makers``), as ``rebuild`` does;
blocks (``RowBlock``) go the same way.

Two kinds of value still cost pickle a call per object, and are taken apart here too:
- a tactic id (``TacticId``, an ``int`` subclass) goes through ``object.__reduce_ex__``, a
  Python call per id. It crosses as a plain
  ``int`` and is made a ``TacticId`` again: a field that can hold one (annotated ``TacticId``)
  holds nothing else an event is made with but ``None``.
- a block's tactic ids and times (``array``) go through ``array.__reduce_ex__``, which copies
  them into a list. They cross as their bytes.

``tests/test_pickling.py`` round-trips every event class and a block this way;
``tests/test_parallel.py`` holds a parse in pieces to the events of one pass.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from trtlog.events.base import TacticId
from trtlog.events.makers import value_maker
from trtlog.events.pickling import field_names
from trtlog.parse.rows import Item, RowBlock

# A piece's items packed: the rows in place with None for each event or block, then the
# classes of those and their field values, in order.
Packed = tuple[list[Any], list[type], list[tuple[Any, ...]]]

# A block's arrays and their type codes (``RowBlock``): tactic ids, times.
_BLOCK_ARRAYS = (
    (field_names(RowBlock).index("tactics"), "Q"),
    (field_names(RowBlock).index("times"), "d"),
)


def tactic_positions(kind: type) -> tuple[int, ...]:
    """Where the field values of ``kind`` may hold a ``TacticId``."""
    if kind is RowBlock:
        return ()
    return tuple(
        position for position, field in enumerate(fields(kind)) if "TacticId" in str(field.type)
    )


def pack(items: list[Item]) -> Packed:
    kept: list[Any] = []
    kinds: list[type] = []
    values: list[tuple[Any, ...]] = []
    # Looked up here per class: ``field_names`` is plain Python, a call per event would cost.
    names_of: dict[type, tuple[str, ...]] = {}
    tactics_of: dict[type, tuple[int, ...]] = {}
    for item in items:
        kind: Any = type(item)
        if kind is tuple:
            kept.append(item)
            continue
        names = names_of.get(kind)
        if names is None:
            names = names_of[kind] = field_names(kind)
            tactics_of[kind] = tactic_positions(kind)
        kept.append(None)
        kinds.append(kind)
        fields_values = [getattr(item, name) for name in names]
        for position in tactics_of[kind]:
            value = fields_values[position]
            if type(value) is TacticId:
                fields_values[position] = int(value)
        if kind is RowBlock:
            for position, code in _BLOCK_ARRAYS:
                numbers = fields_values[position]
                if type(numbers) is array and numbers.typecode == code:
                    fields_values[position] = numbers.tobytes()
        values.append(tuple(fields_values))
    return kept, kinds, values


def unpack(packed: Packed) -> list[Item]:
    kept, kinds, values = packed
    # Looked up here per class, as in ``pack``: ``value_maker`` is plain Python.
    makers: dict[type, Callable[..., Any]] = {}
    tactics_of: dict[type, tuple[int, ...]] = {}
    items: list[Item] = []
    event = 0
    for item in kept:
        if item is not None:
            items.append(item)
            continue
        kind = kinds[event]
        make = makers.get(kind)
        if make is None:
            # A block is no dataclass: it is made through its ``__init__`` (``RowBlock``).
            make = makers[kind] = RowBlock if kind is RowBlock else value_maker(kind)
            tactics_of[kind] = tactic_positions(kind)
        fields_values = values[event]
        positions = tactics_of[kind]
        if positions or kind is RowBlock:
            fields_values = _restored(kind, fields_values, positions)
        items.append(make(*fields_values))
        event += 1
    return items


def _restored(kind: type, packed: tuple[Any, ...], positions: tuple[int, ...]) -> tuple[Any, ...]:
    """The field values ``pack`` took apart, made again."""
    fields_values = list(packed)
    for position in positions:
        value = fields_values[position]
        if type(value) is int:
            fields_values[position] = TacticId(value)
    if kind is RowBlock:
        for position, code in _BLOCK_ARRAYS:
            numbers = fields_values[position]
            if type(numbers) is bytes:
                fields_values[position] = array(code, numbers)
    return tuple(fields_values)


__all__ = ["Packed", "pack", "tactic_positions", "unpack"]
