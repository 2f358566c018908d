"""Hand a piece's items from a worker process to this one with little pickling work.

Most items a worker parses are events: about a million format combinations, timing runners and
fastest tactics per GB of a 10.x log. Pickled one by one, each event calls its ``__reduce__``
and, when read back, ``rebuild`` (``trtlog.events.pickling``): Python code run per event, most
of the work a second job added on two cores once parsing was compiled. ``pack`` takes the
events' classes and field values out in one loop (compiled, ``setup.py``), which pickle then
writes and reads as plain tuples without calling back into Python; ``unpack`` makes the same
events again with each class's maker (``trtlog.events.makers``), as ``rebuild`` does; blocks
(``RowBlock``) go the same way. Rows pass as they are. With the compiled modules this is a third
less work per piece of a 10.x log than pickling the items themselves. ``tests/test_pickling.py``
round-trips every event class and a block this way; ``tests/test_parallel.py`` holds a parse in
pieces to the events of one pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trtlog.events.makers import value_maker
from trtlog.events.pickling import field_names
from trtlog.parse.rows import Item, RowBlock

# A piece's items packed: the rows in place with None for each event or block, then the
# classes of those and their field values, in order.
Packed = tuple[list[Any], list[type], list[tuple[Any, ...]]]


def pack(items: list[Item]) -> Packed:
    kept: list[Any] = []
    kinds: list[type] = []
    values: list[tuple[Any, ...]] = []
    # Looked up here per class: ``field_names`` is plain Python, a call per event would cost.
    names_of: dict[type, tuple[str, ...]] = {}
    for item in items:
        kind: Any = type(item)
        if kind is tuple:
            kept.append(item)
            continue
        names = names_of.get(kind)
        if names is None:
            names = names_of[kind] = field_names(kind)
        kept.append(None)
        kinds.append(kind)
        values.append(tuple([getattr(item, name) for name in names]))
    return kept, kinds, values


def unpack(packed: Packed) -> list[Item]:
    kept, kinds, values = packed
    # Looked up here per class, as in ``pack``: ``value_maker`` is plain Python.
    makers: dict[type, Callable[..., Any]] = {}
    items: list[Item] = []
    event = 0
    for item in kept:
        if item is not None:
            items.append(item)
            continue
        kind = kinds[event]
        make = makers.get(kind)
        if make is None:
            # A block's class is compiled: made through its ``__init__`` (``RowBlock``).
            make = makers[kind] = RowBlock if kind is RowBlock else value_maker(kind)
        items.append(make(*values[event]))
        event += 1
    return items


__all__ = ["Packed", "pack", "unpack"]
