"""``BuildLog``: one log's answers as pandas DataFrames.

Each table is computed from the events the first time it is asked for, or read from the
parsed-log store when the log was parsed before. The columns of each table are documented in
the module that builds it (``trtlog.analysis.<module>``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pandas as pd

    from trtlog.analysis.stream import KeptEvents, TableStream
    from trtlog.analysis.tactic_frames import TacticFrames
    from trtlog.events import Event
    from trtlog.events.index import EventIndex
    from trtlog.parse import ParsedLog, Summary

# The table builders, the parser and the events are imported when a table is first computed:
# a log read from the store needs none of them.

# Table name -> module documenting its columns.
TABLES: dict[str, str] = {
    "engine_builds": "builds",
    "stages": "stages",
    "tactics": "tactics",
    "choices": "choices",
    "fusions": "fusions",
    "provenance": "fusions",
    "reformats": "reformats",
    "memory": "memory",
    "memory_totals": "memory",
    "layers": "layers",
    "perf": "performance",
    "profile": "performance",
    "times": "performance",
    "warnings": "warnings",
    "timeline": "timeline.builder",
    "precision": "precision",
    "options": "options",
}


class StoredTables(Protocol):
    """The tables of a log kept in the store (``trtlog.store.parquet_tables``)."""

    def read(
        self,
        name: str,
        columns: list[str] | None = None,
        where: tuple[str, list[str]] | None = None,
    ) -> pd.DataFrame:
        """A table: whole, some of its columns, or the rows whose ``column`` holds one of
        ``values`` (``where``)."""

    def distinct(self, name: str, column: str) -> list[str]:
        """The distinct text values of a column (``trtlog.analysis.columns.distinct_names``)."""


class _Table:
    """A table of ``BuildLog`` read as an attribute: ``log.stages`` is ``log.table("stages")``."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, log: BuildLog, owner: type | None = None) -> pd.DataFrame:
        return log.table(self.name)


class BuildLog:
    """The tables of one TensorRT log.

    Build one with ``trtlog.load(path)`` (parses, or reads the store) or
    ``BuildLog.from_parsed(parsed)``; read tables as attributes: ``log.engine_builds``,
    ``log.stages``, ``log.tactics``, ``log.choices``, ``log.fusions``, ``log.provenance``,
    ``log.reformats``, ``log.memory``, ``log.memory_totals``, ``log.layers``, ``log.perf``,
    ``log.profile``, ``log.warnings``, ``log.timeline``, ``log.precision``, ``log.times``,
    ``log.options``.
    """

    def __init__(
        self,
        source: str,
        summary: Summary,
        events: Sequence[Event] | None = None,
        stored: StoredTables | None = None,
        reread: Callable[[], Sequence[Event]] | None = None,
        stream: TableStream | None = None,
    ) -> None:
        """``events``: all the log's events; ``stream``: a ``TableStream`` that has read the
        log (its tables and kept events); ``stored``: reads a table kept in the store;
        ``reread``: parses the log again when its events are asked for."""
        self.source = source
        self.summary = summary
        self._events = events
        self._stored = stored
        self._reread = reread
        self._tables: dict[str, pd.DataFrame] = {}
        # The computed tables already typed (``typed_empty``).
        self._typed: set[str] = set()
        self._stream = stream
        # The events the stream kept, indexed by class for the tables that read them.
        self._kept: EventIndex | None = None
        # The builds a selection keeps (``only``); None: every row.
        self._selected: frozenset[int] | None = None
        self._whole: BuildLog | None = None
        self._frames: TacticFrames | None = None

    @classmethod
    def from_parsed(cls, parsed: ParsedLog) -> BuildLog:
        """The tables of a parsed log (all its events in memory)."""
        from trtlog.analysis.stream import TableStream
        from trtlog.parse.summarize import summarize

        stream = TableStream().feed_all(parsed.events)
        return cls(parsed.source, summarize(parsed), events=parsed.events, stream=stream)

    @classmethod
    def from_stream(
        cls,
        shell: ParsedLog,
        stream: KeptEvents,
        reread: Callable[[], Sequence[Event]] | None = None,
    ) -> BuildLog:
        """The tables of a log read through ``stream``; ``shell`` holds its source and line
        counts, not its events. Where ``stream`` kept events alone (not a ``TableStream``),
        the tactics and timeline tables are made of the events read again, if asked for."""
        from trtlog.analysis.stream import TableStream
        from trtlog.parse import ParsedLog
        from trtlog.parse.summarize import summarize

        kept = ParsedLog(shell.source, stream.events, shell.counts, shell.physical_lines)
        summary = summarize(kept, stream.families)
        tables = stream if isinstance(stream, TableStream) else None
        log = cls(shell.source, summary, reread=reread, stream=tables)
        log._kept = kept.index
        return log

    @property
    def events(self) -> Sequence[Event]:
        """The parsed events (not kept in the store, nor when the log was streamed: the log is
        read again for these)."""
        if self._whole is not None:
            return self._whole.events
        if self._events is None:
            from trtlog.parse import parse_file

            self._events = self._reread() if self._reread else parse_file(self.source).events
        return self._events

    def only(self, builds: frozenset[int] | None) -> BuildLog:
        """This log with its tables holding only the rows of ``builds`` (rows of no build, such
        as a ``--loadEngine`` run's, are left out too); None keeps every row."""
        if builds is None:
            return self
        selected = BuildLog(self.source, self.summary)
        selected._whole = self
        selected._selected = builds
        return selected

    def table(self, name: str) -> pd.DataFrame:
        if self._whole is not None:
            return _selected_rows(self._whole.table(name), self._selected)
        if name not in TABLES:
            raise KeyError(f"no table {name!r}; tables: {', '.join(TABLES)}")
        if name not in self._tables:
            if self._stored is not None:
                self._tables[name] = self._stored.read(name)
            else:
                self._compute(name)
                # Computing one table may compute others: each is typed once.
                for computed, table in self._tables.items():
                    if computed not in self._typed:
                        self._typed.add(computed)
                        if table.empty:
                            self._tables[computed] = typed_empty(table)
        return self._tables[name]

    def made(self) -> frozenset[str]:
        """The tables made (or read from the store) so far and held."""
        return frozenset(self._tables)

    def forget(self, names: Iterable[str]) -> None:
        """Let go of the tables ``names`` made so far (written to the store, say): each is made
        again where it is asked for."""
        for name in names:
            self._tables.pop(name, None)
            self._typed.discard(name)

    def distinct(self, name: str, column: str) -> list[str]:
        """The distinct text values of a column of a table (a stored table's column alone is
        read for it)."""
        from trtlog.analysis.columns import distinct_names

        if self._whole is not None:
            return self._whole.distinct(name, column)
        if name in self._tables or self._stored is None:
            return distinct_names(self.table(name)[column])
        return self._stored.distinct(name, column)

    def rows_where(self, name: str, column: str, values: list[str]) -> pd.DataFrame:
        """The rows of a table whose ``column`` holds one of ``values`` (a stored table reads
        only those rows)."""
        if self._whole is not None:
            rows = self._whole.rows_where(name, column, values)
            return _selected_rows(rows, self._selected).reset_index(drop=True)
        if name in self._tables or self._stored is None:
            table = self.table(name)
            return table[table[column].isin(values)]
        return self._stored.read(name, where=(column, values)).reset_index(drop=True)

    def tables(self) -> dict[str, pd.DataFrame]:
        return {name: self.table(name) for name in TABLES}

    def table_frames(self, name: str, rows: int) -> Iterable[pd.DataFrame]:
        """Table ``name`` in frames of at most ``rows`` rows, for writing: the tactics table of
        a log just read is made a range of rows at a time and never held whole (millions of
        rows for a large build); any other table is one frame, whole."""
        if (
            name == "tactics"
            and name not in self._tables
            and self._whole is None
            and self._stored is None
        ):
            frames = self._tactic_frames()
            if frames.rows:
                return frames.frames(rows)
        return [self.table(name)]

    def _compute(self, name: str) -> None:
        from trtlog.analysis.fusions import fusions_table, provenance_table
        from trtlog.analysis.layers import layers_table
        from trtlog.analysis.memory import memory_tables
        from trtlog.analysis.precision import precision_table, requested_precisions
        from trtlog.events.index import EventIndex

        stream = self._table_stream()
        # Every table but these is built from the events the stream kept.
        if self._kept is None or not self._kept.covers(stream.events):
            self._kept = EventIndex(stream.events)
        events = self._kept
        if name == "tactics":
            self._tables["tactics"] = self._tactic_frames().whole()
        elif name == "choices":
            # From the tactics table where it is made already, else from the columns it reads.
            self._tables["choices"] = stream.choices_table(
                self._tables.get("tactics"), self._tactic_frames()
            )
        elif name == "timeline":
            self._tables["timeline"] = stream.timeline_table()
        elif name in ("memory", "memory_totals"):
            self._tables["memory"], self._tables["memory_totals"] = memory_tables(events)
        elif name == "provenance":
            self._tables["provenance"] = provenance_table(events, lambda: self.table("tactics"))
        elif name == "fusions":
            self._tables["fusions"] = fusions_table(events, self.table("provenance"))
        elif name == "precision":
            requested = requested_precisions(events, self.summary.precision)
            self._tables["precision"] = precision_table(events, self.table("layers"), requested)
        elif name == "layers":
            self._tables["layers"] = layers_table(
                events, self.table("choices"), self.table("provenance"), self.table("reformats")
            )
        else:
            module, _, function = _SIMPLE[name].rpartition(".")
            builder = getattr(import_module(f"trtlog.analysis.{module}"), function)
            self._tables[name] = builder(events)

    def _tactic_frames(self) -> TacticFrames:
        """The tactics table to be made a range of rows at a time, once per log (its marks
        are worked out when it is made)."""
        if self._frames is None:
            self._frames = self._table_stream().tactic_frames()
        return self._frames

    def _table_stream(self) -> TableStream:
        from trtlog.analysis.stream import TableStream

        if self._stream is None:
            self._stream = TableStream().feed_all(self.events)
        return self._stream

    engine_builds = _Table()
    stages = _Table()
    tactics = _Table()
    choices = _Table()
    fusions = _Table()
    provenance = _Table()
    reformats = _Table()
    memory = _Table()
    memory_totals = _Table()
    layers = _Table()
    perf = _Table()
    profile = _Table()
    times = _Table()
    warnings = _Table()
    timeline = _Table()
    precision = _Table()
    options = _Table()


def _selected_rows(table: pd.DataFrame, builds: frozenset[int] | None) -> pd.DataFrame:
    if builds is None or "build" not in table.columns:
        return table
    return table[table["build"].isin(builds).fillna(False).astype(bool)]


# Tables built from the kept events alone: "module.function" in ``trtlog.analysis``.
_SIMPLE = {
    "engine_builds": "builds.engine_builds_table",
    "stages": "stages.stages_table",
    "reformats": "reformats.reformats_table",
    "perf": "performance.perf_table",
    "profile": "performance.profile_table",
    "times": "performance.times_table",
    "warnings": "warnings.warnings_table",
    "options": "options.options_table",
}


# Columns of the tables that hold numbers or flags, by name; every other column holds text.
_NUMBER_SUFFIXES = ("_ms", "_s", "_seconds", "_percent", "_bytes", "_qps", "_line", "_count")
_NUMBER_COLUMNS = {
    "percent", "seconds", "line", "build", "step", "layers", "change", "count", "run",
    "combination", "block", "rank", "iterations", "runner_id", "tactics_tried",
    "tactics_skipped", "runners_tried", "host_persistent", "device_persistent", "scratch",
    "bytes", "strategy", "tactics", "kept_strategy", "trace_averages", "iteration", "delta",
}  # fmt: skip
_FLAG_COLUMNS = {"fastest", "chosen", "wider", "sparse_weights", "kept", "inserted", "in_engine"}


def column_kind(name: str) -> str:
    """What a table column holds, by its name: "flag", "number" or "text"."""
    if name in _FLAG_COLUMNS:
        return "flag"
    if name in _NUMBER_COLUMNS or name.endswith(_NUMBER_SUFFIXES):
        return "number"
    return "text"


def typed_empty(table: pd.DataFrame) -> pd.DataFrame:
    """An empty table with numeric and flag columns typed as such, so that sums and
    comparisons on it work (pandas types an empty frame's columns as objects)."""
    from trtlog.analysis.columns import of_empty

    if len(table) or not table.columns.is_unique:
        wanted = _empty_types()
        types = {
            column: wanted[kind]
            for column in table.columns
            if (kind := column_kind(str(column))) in wanted
        }
        return table.astype(types)
    # Once per set of columns and types: most tables of a small log are empty.
    return of_empty(table, _retyped_empty)


def _empty_types() -> dict[str, Any]:
    """The type of an empty table's columns of each kind but text (``column_kind``)."""
    import numpy as np
    import pandas as pd

    return {"flag": pd.BooleanDtype(), "number": np.dtype(np.float64)}


def _retyped_empty(table: pd.DataFrame) -> pd.DataFrame:
    """Made from empty arrays: the same table as ``astype`` makes, without its work per
    column."""
    import pandas as pd

    wanted = _empty_types()
    columns = {
        column: pd.array([], dtype=wanted[kind])
        if (kind := column_kind(str(column))) in wanted and dtype != wanted[kind]
        else table[column].array
        for column, dtype in table.dtypes.items()
    }
    return pd.DataFrame(columns, index=table.index, copy=False)


def parse_build_log(path: str | Path) -> BuildLog:
    """Parse ``path`` (no store involved)."""
    from trtlog.parse import parse_file

    return BuildLog.from_parsed(parse_file(path))
