"""A log's events with the place of each class's events found once.

Each table of a log reads a few classes of its events; the index finds every class's events in
one pass over the log, so that each table walks only the events it reads, in log order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

from trtlog.events.base import Event

E = TypeVar("E", bound=Event)


class EventIndex(Sequence[Event]):
    """``events`` as they are, and, by class, where each class's events stand in them."""

    __slots__ = ("_events", "_length", "_positions", "_selections")

    def __init__(self, events: Sequence[Event]) -> None:
        self._events = events
        self._length = len(events)
        positions: dict[type[Event], list[int]] = {}
        for position, event in enumerate(events):
            kind = type(event)
            found = positions.get(kind)
            if found is None:
                positions[kind] = [position]
            else:
                found.append(position)
        self._positions = positions
        # The positions each asked-for tuple of classes selects (one lookup per table).
        self._selections: dict[tuple[type[Event], ...], list[int]] = {}

    def of(self, *kinds: type[E]) -> list[E]:
        """The events that are instances of any of ``kinds``, in log order."""
        selected = self._selections.get(kinds)
        if selected is None:
            lists = [found for kind, found in self._positions.items() if issubclass(kind, kinds)]
            if len(lists) == 1:
                selected = lists[0]
            else:
                selected = sorted(position for found in lists for position in found)
            self._selections[kinds] = selected
        events = self._events
        return [events[position] for position in selected]  # type: ignore[misc]

    def covers(self, events: Sequence[Event]) -> bool:
        """Whether this index is of ``events`` as they are now (the same list, not grown)."""
        return self._events is events and len(events) == self._length

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    @overload
    def __getitem__(self, position: int) -> Event: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[Event]: ...

    def __getitem__(self, position: int | slice) -> Event | Sequence[Event]:
        return self._events[position]


def indexed(events: Sequence[Event]) -> EventIndex:
    """``events`` indexed by class (as they are, when they already are)."""
    return events if isinstance(events, EventIndex) else EventIndex(events)


__all__ = ["EventIndex", "indexed"]
