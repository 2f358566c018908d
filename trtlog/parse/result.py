"""The result of parsing one log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from trtlog.events.base import Event
from trtlog.events.index import EventIndex
from trtlog.parse.line_counts import LineCounts

E = TypeVar("E", bound=Event)


@dataclass
class ParsedLog:
    """All events of one log, in order, and how its lines were classified."""

    source: str
    events: list[Event] = field(default_factory=list)
    counts: LineCounts = field(default_factory=LineCounts)
    physical_lines: int = 0
    _index: EventIndex | None = field(default=None, init=False, repr=False, compare=False)

    def of(self, *kinds: type[E]) -> list[E]:
        """The events of any of ``kinds``, in log order."""
        return self.index.of(*kinds)

    @property
    def index(self) -> EventIndex:
        """The events indexed by class (indexed again when ``events`` changed)."""
        if self._index is None or not self._index.covers(self.events):
            self._index = EventIndex(self.events)
        return self._index

    @property
    def recognized_ratio(self) -> float:
        """Recognised lines over the lines that are TensorRT's (foreign and blank excluded)."""
        counts = self.counts
        own = counts.recognized + counts.unrecognized
        return 1.0 if own <= 0 else counts.recognized / own
