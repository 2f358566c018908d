"""The spans a timeline is read into, and the table rows made from them (see ``timeline``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trtlog.analysis.clock import Clock
from trtlog.analysis.timeline.phases import total_kind

COLUMNS = [
    "run",
    "build",
    "level",
    "phase",
    "layer",
    "start_s",
    "end_s",
    "seconds",
    "source",
    "reported_as",
    "tactics",
    "first_line",
    "last_line",
]


class Passes:
    """Numbers the optimisation passes of a log from 0: each build, and within a 10.x build
    each backend strategy (the graph optimisations before the first strategy are that
    strategy's first stages)."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[int, int | None], int] = {}

    def of(self, build: int | None, strategy: int | None) -> int | None:
        if build is None:
            return None
        number = self.numbers.get((build, strategy))
        if number is None:
            opening = self.numbers.get((build, None))
            claimed = any(key[0] == build and key[1] is not None for key in self.numbers)
            fresh = len(set(self.numbers.values()))
            number = opening if opening is not None and not claimed else fresh
            self.numbers[(build, strategy)] = number
        return number


@dataclass
class Row:
    run: int
    build: int | None
    level: str
    phase: str
    layer: str | None = None
    start_s: float | None = None
    end_s: float | None = None
    seconds: float | None = None
    source: str | None = None
    reported_as: str | None = None
    tactics: int | None = None
    first_line: int | None = None
    last_line: int | None = None


@dataclass
class Span:
    """Consecutive lines of one phase, or of one layer's tuning."""

    build: int | None
    phase: str
    layer: str | None
    first_line: int
    last_line: int
    start: float
    end: float
    reported: dict[str, float] = field(default_factory=dict)
    tactics: int = 0
    # A layer's tuning ends where its phase does, not where the next layer's tuning (perhaps in
    # the next build) begins.
    closed: bool = False

    def key(self) -> tuple[int | None, str, str | None]:
        return self.build, self.phase, self.layer


@dataclass
class Run:
    """What one run (one trtexec invocation, one process) of the log did, span by span."""

    builds_engine: bool
    clock: Clock = field(default_factory=Clock)
    build: int | None = None
    # Whether the lines read now belong to a build (initialisation can happen in one or not).
    in_build: bool = False
    # Whether the last build printed its end and no phase has been placed since.
    build_ended: bool = False
    previous_offset: float = 0.0
    # Set once the run is past initialisation: option echoes after that (trtexec's explanation
    # of the performance metrics) are not initialisation.
    started: bool = False
    # Progress bars last drawn, by depth: (step, done).
    bars: dict[int, tuple[str, int]] = field(default_factory=dict)
    phases: list[Span] = field(default_factory=list)
    layers: list[Span] = field(default_factory=list)
    # (build or None, name) -> (seconds, line) of a reported total
    totals: dict[tuple[int | None, str], tuple[float, int]] = field(default_factory=dict)
    # The optimisation passes of the whole log (``Passes``), shared by its runs.
    passes: Passes = field(default_factory=lambda: Passes())

    def place(self, spans: list[Span], key: tuple[int | None, str, str | None], line: int,
              end_line: int, offset: float, tactic: bool = False,
              started: float | None = None) -> Span:  # fmt: skip
        """Extend the last span when it has ``key``, else start one (at ``started`` where the
        span began before its line, not before the last one ends); ``tactic`` counts a timed
        tactic in it."""
        last = spans[-1] if spans else None
        # Field by field: a tuple made per tuning line to compare keys cost more.
        if (
            last is None
            or last.closed
            or last.layer != key[2]
            or last.phase != key[1]
            or last.build != key[0]
        ):
            start = offset if started is None or last is None else max(started, last.end)
            close(spans, start)
            last = Span(*key, line, end_line, start, offset)
            spans.append(last)
        last.last_line, last.end = end_line, offset
        last.tactics += tactic
        return last


def close(spans: list[Span], offset: float, final: bool = False) -> None:
    """A span lasts until the next one starts; ``final``: it ends at ``offset`` (the phase it
    belongs to ended), whatever starts next."""
    if spans and not spans[-1].closed:
        spans[-1].end = max(spans[-1].end, offset)
        spans[-1].closed = final


def add_reported(reported: dict[str, float], name: str, seconds: float) -> None:
    reported[name] = reported.get(name, 0.0) + seconds


def span_rows(spans: list[Span], run: int, level: str, measured: str | None) -> list[Row]:
    """Phases: one row per span, in order (initialisation comes back inside a build). Layers:
    one row per layer, its spans added up (a layer is tuned once per format combination)."""
    if level == "phase":
        return [_row([span], run, level, measured) for span in spans]
    merged: dict[tuple[int | None, str, str | None], list[Span]] = {}
    for span in spans:
        merged.setdefault(span.key(), []).append(span)
    return [_row(parts, run, level, measured) for parts in merged.values()]


def _row(parts: list[Span], run: int, level: str, measured: str | None) -> Row:
    first, last = parts[0], parts[-1]
    # A layer tuned in one span (most are) has its reports as they are, neither copied nor added.
    reported = first.reported
    if len(parts) > 1:
        reported = {}
        for part in parts:
            for name, seconds in part.reported.items():
                add_reported(reported, name, seconds)
    row = Row(run, first.build, level, first.phase, first.layer)
    row.first_line, row.last_line = first.first_line, last.last_line
    if first.phase == "autotuning":
        row.tactics = sum(part.tactics for part in parts)
    if measured:
        row.start_s, row.end_s = first.start, last.end
    if reported:
        # Several names for one phase measure it from different ends ("Deserialization" and
        # "Engine deserialized"): the longest covers the most.
        row.seconds, row.source = max(reported.values()), "reported"
        row.reported_as = ", ".join(reported)
    elif measured:
        row.seconds, row.source = sum(part.end - part.start for part in parts), measured
    return row


def row_columns(rows: list[Row]) -> dict[str, list[Any]]:
    """The values of ``rows``, column by column (``COLUMNS``)."""
    return {name: [getattr(row, name) for row in rows] for name in COLUMNS}


def derived_rows(run: Run, number: int, phases: list[Row]) -> list[Row]:
    """Without timestamps, the phases of a build that nothing reports took the build's reported
    total less the phases that are reported, tuning among them: one phase gets the figure,
    several share a row."""
    if run.clock.timestamped:
        return []
    rows = []
    for (build, name), (total, line) in run.totals.items():
        inside = [row for row in phases if build is not None and row.build == build]
        unknown = [row for row in inside if row.seconds is None]
        tuned = any(row.phase == "autotuning" and row.source == "reported" for row in inside)
        if total_kind(name) != "build" or not unknown or not tuned:
            # Without the reported tuning time the unreported phases may hide anything.
            continue
        known = sum(row.seconds for row in inside if row.seconds is not None)
        together = " + ".join(dict.fromkeys(row.phase for row in unknown))
        if len(unknown) == 1:
            derived = unknown[0]
        else:
            for row in unknown:
                row.reported_as = f"part of {together}"
            derived = Row(number, build, "phase", together)
            derived.first_line, derived.last_line = unknown[0].first_line, line
            rows.append(derived)
        derived.seconds, derived.source = max(total - known, 0.0), "derived"
        derived.reported_as = f"{name} less the reported phases"
    return rows


def total_rows(run: Run, number: int, phases: list[Row], measured: str | None) -> list[Row]:
    """A row per build (its reported total, else its span) and one per other reported total
    (trtexec's "Engine built in", Polygraphy's and TensorRT-LLM's)."""
    rows = []
    used: set[tuple[int | None, str]] = set()
    for build in dict.fromkeys(row.build for row in phases if row.build is not None):
        inside = [row for row in phases if row.build == build]
        total = Row(number, build, "total", "build")
        total.first_line = inside[0].first_line
        total.last_line = max(row.last_line or 0 for row in inside)
        if measured:
            total.start_s = inside[0].start_s
            total.end_s = max(row.end_s or 0.0 for row in inside)
            total.seconds, total.source = total.end_s - (total.start_s or 0.0), measured
        for (of, name), (seconds, _) in run.totals.items():
            if of == build and total_kind(name) == "build":
                total.seconds, total.source, total.reported_as = seconds, "reported", name
                used.add((of, name))
        rows.append(total)
    for (of, name), (seconds, line) in run.totals.items():
        if (of, name) not in used:
            other = Row(number, of, "total", name, seconds=seconds, source="reported")
            other.reported_as, other.first_line, other.last_line = name, line, line
            rows.append(other)
    return rows
