"""Read a log's items once and keep only what its tables need.

A verbose log of a large model holds millions of tactic timings and Myelin trace lines (in
blocks, ``trtlog.parse.items``), and the format combinations, timing runners and fastest
tactics around them. ``TableStream`` takes each item as it is parsed: the tactic and timeline
builders read every one, the counts per family see every one, and the events the other tables
read are kept: all but the blocks (other programs' lines excepted) and the autotuning events (of
which the memory table needs those where the build number changes, the warnings table those
that warn). Memory stays near the size of the tables, whatever the size of the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from trtlog.analysis.tactics import TacticCollector
from trtlog.analysis.timeline.builder import TimelineBuilder
from trtlog.events import AutotuningEvent, Event, Foreign, LayerCount
from trtlog.parse import WARNING_OR_WORSE
from trtlog.parse.items import Item, LineBlock

if TYPE_CHECKING:
    import pandas as pd

    from trtlog.analysis.tactic_frames import TacticFrames

# Per event class: whether it is an autotuning event, and whether it carries a build number
# that decides whether it is kept.
_BUILD_RULE: dict[type, tuple[bool, bool]] = {}


class KeptEvents:
    """The events of one log that the tables but tactics and timeline read, and the events per
    family, read item by item: all a log's summary needs (``--format jsonl`` without the
    store)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.families: Counter[str] = Counter()
        # The build and strategy of the last kept event numbered by build.
        self._build: tuple[int | None, int | None] | None = None

    def feed(self, item: Item) -> None:
        families = self.families
        if isinstance(item, LineBlock):
            families[item.kind.family] = families.get(item.kind.family, 0) + len(item)
            if item.kind is Foreign:
                # The summary reads other programs' lines (the GPU Torch-TensorRT names).
                self.events.extend(item.events())
            return
        families[item.family] = families.get(item.family, 0) + 1
        kind = type(item)
        rule = _BUILD_RULE.get(kind)
        if rule is None:
            tuning = issubclass(kind, AutotuningEvent)
            rule = _BUILD_RULE[kind] = (tuning, tuning or issubclass(kind, LayerCount))
        tuning, numbered = rule
        if numbered and not self._keeps((item.build, item.strategy), item.severity, tuning):
            return
        self.events.append(item)

    def _keeps(
        self, build: tuple[int | None, int | None], severity: str | None, tuning: bool
    ) -> bool:
        """Whether an event numbered by build is kept: an autotuning event only where its build
        or strategy changes or it warns; noting the build either way."""
        if tuning and build == self._build and severity not in WARNING_OR_WORSE:
            return False
        self._build = build
        return True


class TableStream(KeptEvents):
    """The tactic columns, the timeline and the kept events of one log, read item by item."""

    def __init__(self) -> None:
        super().__init__()
        self.tactics = TacticCollector()
        self.timeline = TimelineBuilder()

    def feed(self, item: Item) -> None:
        self.tactics.feed(item)
        self.timeline.feed(item)
        super().feed(item)

    def feed_all(self, items: Iterable[Item]) -> TableStream:
        for item in items:
            self.feed(item)
        return self

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables built while reading: tactics, choices and timeline."""
        tactics = self.tactics_table()
        return {
            "tactics": tactics,
            "choices": self.choices_table(tactics),
            "timeline": self.timeline.table(),
        }

    # One by one, so that a table can be written while the next is built (``Store``).
    def tactics_table(self) -> pd.DataFrame:
        return self.tactic_frames().whole()

    def tactic_frames(self) -> TacticFrames:
        """The tactics table of the log read, to be made a range of rows at a time. It reads
        the collector's arrays where they are: nothing may be fed while it is in use."""
        from trtlog.analysis.engine_tactics import engine_tactics
        from trtlog.analysis.tactic_frames import TacticFrames

        return TacticFrames(self.tactics.timings(), engine_tactics(self.events))

    def choices_table(
        self, tactics: pd.DataFrame | None = None, frames: TacticFrames | None = None
    ) -> pd.DataFrame:
        """The choices, from the ``tactics_table`` where it is made already, else from the
        columns of it that they read (of ``frames``, where made already)."""
        from trtlog.analysis.choices import choices_frame
        from trtlog.analysis.engine_tactics import engine_tactics, in_engine
        from trtlog.analysis.kernel_names import with_kernel_columns

        if tactics is not None:
            choices = choices_frame(tactics, self.tactics.choice_columns())
        else:
            # Part by part: each holds whole format combinations and their choices.
            frames = frames or self.tactic_frames()
            parts = [
                choices_frame(frames.choice_inputs(start, stop), rows)
                for start, stop, rows in frames.parts()
            ]
            filled = [part for part in parts if not part.empty]
            choices = _concatenated(filled) if filled else parts[0]
        choices["in_engine"] = in_engine(choices, engine_tactics(self.events))
        return with_kernel_columns(choices)

    def timeline_table(self) -> pd.DataFrame:
        return self.timeline.table()


def _concatenated(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """``parts`` one after another, each column of the type it has made in one piece: pandas
    types a text column with no text in a part as objects, which ``concat`` would keep."""
    import pandas as pd

    joined = pd.concat(parts, ignore_index=True)
    for column in joined.columns:
        if joined[column].dtype == object and any(part[column].dtype != object for part in parts):
            joined[column] = joined[column].infer_objects()
    return joined


__all__ = ["KeptEvents", "TableStream"]
