"""Where the time went: the phases of each run and build in order, and under autotuning one row
per layer.

``timeline`` columns: ``run`` (trtexec run or process, from 0), ``build`` (optimisation pass, for
what happens inside a build; else missing), ``level`` ("phase": one stretch of the log in one
phase, in order, so a phase can come back; "layer": one layer's tuning under autotuning, all its
format combinations together; "total": a build from first to last line, phase "build", or a
total a tool reports, phase named as reported, such as trtexec's "Engine built"), ``phase``,
``layer``, ``start_s`` and ``end_s`` (offsets from the run's first timestamp; a phase lasts
until the next one starts; missing when the log has no timestamps), ``seconds``,
``source`` (how ``seconds`` was found: "reported" where TensorRT or trtexec printed the figure,
"timestamps (1 s)" or "timestamps (1 ms)" where it was measured between lines stamped at that
resolution, "derived" for the phases of a build without timestamps that nothing reports, as the
build's reported total less the reported phases; missing where nothing tells),
``reported_as`` (the names of the reported figures used), ``tactics`` (tactics timed),
``first_line``, ``last_line``.

Phases, in the order a trtexec build runs them: initialisation (CUDA, the builder's kernel
library, cuBLAS and cuDNN; it can come back inside a build), model parsing, network
construction (reported by 8.6+ only), graph optimisation, calibration, autotuning (the reported
"Formats and tactics selection" includes reformat selection), reformat selection, memory
planning, engine generation and serialisation, engine load, inference warm-up and timing,
profiling.

The log is read once, item by item, in constant memory: a run is held back
only until it shows whether it builds an engine, and lines only until their second ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from itertools import groupby
from typing import TYPE_CHECKING, Any

from trtlog.analysis.timeline.phases import total_kind
from trtlog.analysis.timeline.placement import (
    read_block,
    read_item,
    read_tuning_run,
    tuning_key,
)
from trtlog.analysis.timeline.spans import (
    COLUMNS,
    Passes,
    Row,
    Run,
    derived_rows,
    row_columns,
    span_rows,
    total_rows,
)
from trtlog.events import (
    AutotuningEvent,
    LayerCount,
    LayerPlacement,
    LayersRunningOn,
    PhaseDuration,
    ProgressUpdate,
    RunHeader,
    TacticTiming,
    TimingCache,
)
from trtlog.events.base import EXPORT_PRODUCER
from trtlog.parse import build_marker
from trtlog.parse.items import Item, LineBlock

if TYPE_CHECKING:
    import pandas as pd

_NOT_CONTENT = ("foreign", "unrecognized", "run")
# The table's columns of whole numbers that may be missing, and of seconds.
_COUNTS = ("build", "tactics", "first_line", "last_line")
_TIMES = ("start_s", "end_s", "seconds")


class TimelineBuilder:
    """Reads a log's items one at a time into runs of phase and layer spans."""

    def __init__(self) -> None:
        self.runs: list[Run] = []
        self._run: Run | None = None
        self._passes = Passes()
        # Items of the current run read before it showed whether it builds an engine.
        self._undecided: list[Item] = []
        self._content = False
        # Items stamped with the same time, waiting for the stamp to change.
        self._second: list[Item] = []
        self._second_lines = 0
        self._second_stamp: datetime | None = None

    def feed(self, item: Item) -> None:
        if isinstance(item, LineBlock):
            family = item.kind.family
        else:
            if item.producer == EXPORT_PRODUCER:
                # Events read from JSON exports have no time and no place in the log's order.
                return
            family = item.family
            if isinstance(item, RunHeader) and self._content:
                # A run header after TensorRT's own lines opens a new run (trtexec run again
                # and again into one file).
                self._end_run()
        if family not in _NOT_CONTENT:
            self._content = True
        if self._run is None:
            self._undecided.append(item)
            if _builds(item):
                self._start_run(builds_engine=True)
            return
        self._add_to_second(item)

    def feed_all(self, items: Iterable[Item]) -> TimelineBuilder:
        for item in items:
            self.feed(item)
        return self

    def table(self) -> pd.DataFrame:
        import numpy as np
        import pandas as pd

        table_rows = self.rows()
        if not table_rows:
            return pd.DataFrame(columns=COLUMNS).astype(dict.fromkeys(_COUNTS, "Int64"))
        # Column by column, each made its type at once where the values tell it beforehand: a
        # large log's table has tens of thousands of rows (one per layer), and pandas working
        # out each column's type from rows of values is slower.
        columns: dict[str, Any] = row_columns(table_rows)
        columns["run"] = np.array(columns["run"], dtype="int64")
        for name in _COUNTS:
            columns[name] = pd.array(columns[name], dtype="Int64")
        for name in _TIMES:
            values = columns[name]
            # Where no row has a value the column stays one of None, as pandas makes it.
            if any(value is not None for value in values):
                columns[name] = np.array(values, dtype="float64")
        return pd.DataFrame(columns)

    def rows(self) -> list[Row]:
        """The rows of the table, once the log is read."""
        self._end_run()
        table_rows = []
        for number, run in enumerate(self.runs):
            measured = f"timestamps ({run.clock.resolution})" if run.clock.timestamped else None
            phases = span_rows(run.phases, number, "phase", measured)
            table_rows.extend(phases)
            table_rows.extend(derived_rows(run, number, phases))
            table_rows.extend(span_rows(run.layers, number, "layer", measured))
            table_rows.extend(total_rows(run, number, phases, measured))
        return table_rows

    def _start_run(self, builds_engine: bool) -> None:
        self._run = Run(builds_engine, passes=self._passes)
        self.runs.append(self._run)
        undecided, self._undecided = self._undecided, []
        for item in undecided:
            self._add_to_second(item)

    def _end_run(self) -> None:
        if self._run is None and self._undecided:
            self._start_run(builds_engine=False)
        self._end_second()
        self._run = None
        self._content = False

    def _add_to_second(self, item: Item) -> None:
        stamp = item.timestamp
        if self._second and stamp != self._second_stamp:
            self._end_second()
        self._second_stamp = stamp
        self._second.append(item)
        self._second_lines += len(item) if type(item) is LineBlock else 1

    def _end_second(self) -> None:
        second, self._second = self._second, []
        count, self._second_lines = self._second_lines, 0
        if not second or self._run is None:
            return
        # Whole-second stamps are refined by spreading the lines of the second evenly across
        # it; finer stamps need no help.
        stamp, run = self._second_stamp, self._run
        spread = count if stamp is not None and not stamp.microsecond else 0
        position = 0
        for key, group in groupby(second, key=tuning_key):
            if key is not None:
                position = read_tuning_run(run, list(group), key, position, spread)
                continue
            for item in group:
                if type(item) is LineBlock:
                    read_block(run, item, position, spread)
                    position += len(item)
                else:
                    read_item(run, item, position / spread if spread else 0.0)
                    position += 1


def timeline_table(items: Iterable[Item]) -> pd.DataFrame:
    return TimelineBuilder().feed_all(items).table()


def _builds(item: Item) -> bool:
    """Whether ``item`` shows the run building an engine (not only loading one)."""
    if isinstance(item, LineBlock):
        return item.kind is TacticTiming
    if isinstance(item, (LayerCount, AutotuningEvent, LayersRunningOn, LayerPlacement)):
        return True
    if isinstance(item, ProgressUpdate):
        return item.phase == "Building engine"
    if isinstance(item, PhaseDuration) and total_kind(item.phase) is not None:
        return True
    # At INFO level: the timing cache's note that opens a build, a build's end markers.
    if isinstance(item, TimingCache):
        return item.opens_builder_pass
    return build_marker(item) is not None


__all__ = ["COLUMNS", "TimelineBuilder", "timeline_table"]
