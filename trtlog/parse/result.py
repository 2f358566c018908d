"""The result of parsing one log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from trtlog.events.base import Event
from trtlog.parse.line_counts import LineCounts

E = TypeVar("E", bound=Event)


@dataclass
class ParsedLog:
    """All events of one log, in order, and how its lines were classified."""

    source: str
    events: list[Event] = field(default_factory=list)
    counts: LineCounts = field(default_factory=LineCounts)
    physical_lines: int = 0

    def of(self, kind: type[E]) -> list[E]:
        """The events of one class, in log order."""
        return [event for event in self.events if isinstance(event, kind)]

    @property
    def recognized_ratio(self) -> float:
        """Recognised lines over the lines that are TensorRT's (foreign and blank excluded)."""
        counts = self.counts
        own = counts.recognized + counts.unrecognized
        return 1.0 if own <= 0 else counts.recognized / own
