"""Read a log's items once and keep only what its tables need.

A verbose log of a large model holds millions of tactic timings, Myelin trace lines and kernel
names (the rows of ``trtlog.parse.rows``), and one autotuning event per format combination
and runner around them. ``TableStream`` takes each item as it is parsed: the tactic and
timeline builders read every one, the counts per family see every one, and the events the
other tables read are kept: all but the rows and the autotuning events (of which the memory
table needs those where the build number changes, the warnings table those that warn).
Memory stays near the size of the tables, whatever the size of the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pandas as pd

from trtlog.analysis.tactics import TacticCollector
from trtlog.analysis.timeline import TimelineBuilder
from trtlog.events import AutotuningEvent, Event, LayerCount
from trtlog.parse.envelope import WARNING_OR_WORSE
from trtlog.parse.rows import Item, RowBlock


class TableStream:
    """The tactic columns, the timeline and the kept events of one log, read item by item."""

    def __init__(self) -> None:
        self.tactics = TacticCollector()
        self.timeline = TimelineBuilder()
        self.events: list[Event] = []
        self.families: Counter[str] = Counter()
        # The build number of the last kept event that carries one.
        self._build: int | None = None

    def feed(self, item: Item) -> None:
        self.tactics.feed(item)
        self.timeline.feed(item)
        if isinstance(item, RowBlock):
            self.families[item.kind.family] += len(item)
            return
        if isinstance(item, tuple):
            self.families[item[0].family] += 1
            return
        self.families[item.family] += 1
        if isinstance(item, (AutotuningEvent, LayerCount)):
            if (
                isinstance(item, AutotuningEvent)
                and item.build == self._build
                and item.severity not in WARNING_OR_WORSE
            ):
                return
            self._build = item.build
        self.events.append(item)

    def feed_all(self, items: Iterable[Item]) -> TableStream:
        for item in items:
            self.feed(item)
        return self

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables built while reading: tactics, choices and timeline."""
        tactics, choices = self.tactics.tables()
        return {"tactics": tactics, "choices": choices, "timeline": self.timeline.table()}


__all__ = ["TableStream"]
