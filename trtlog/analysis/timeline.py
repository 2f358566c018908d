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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import pandas as pd

from trtlog.analysis.clock import Clock, within_second
from trtlog.analysis.timeline_phases import (
    BUILD_PHASES,
    RUN_PHASES,
    phase_of,
    reported_phase,
    total_kind,
)
from trtlog.events import (
    AutotuningEvent,
    DeviceProperty,
    Event,
    FastestTactic,
    LayerCount,
    LayerPlacement,
    LayersRunningOn,
    MemUsageChange,
    OptionLine,
    PhaseDuration,
    ProgressUpdate,
    ReformatLayerAdded,
    RunHeader,
    SectionHeader,
    SetTacticName,
    TacticTiming,
)
from trtlog.events.base import EXPORT_PRODUCER

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


@dataclass
class _Row:
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
class _Span:
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

    def key(self) -> tuple[int | None, str, str | None]:
        return self.build, self.phase, self.layer


@dataclass
class _Run:
    """What one run (one trtexec invocation, one process) of the log did, span by span."""

    builds_engine: bool
    clock: Clock = field(default_factory=Clock)
    build: int | None = None
    # Whether the lines read now belong to a build (initialisation can happen in one or not).
    in_build: bool = False
    previous_offset: float = 0.0
    # Set once the run is past initialisation: option echoes after that (trtexec's explanation
    # of the performance metrics) are not initialisation.
    started: bool = False
    # Progress bars last drawn, by depth: (step, done).
    bars: dict[int, tuple[str, int]] = field(default_factory=dict)
    phases: list[_Span] = field(default_factory=list)
    layers: list[_Span] = field(default_factory=list)
    # (build or None, name) -> (seconds, line) of a reported total
    totals: dict[tuple[int | None, str], tuple[float, int]] = field(default_factory=dict)

    def place(self, spans: list[_Span], key: tuple[int | None, str, str | None], event: Event,
              offset: float) -> _Span:  # fmt: skip
        last = spans[-1] if spans else None
        if last is None or last.key() != key:
            _close(spans, offset)
            last = _Span(*key, event.line, event.end_line, offset, offset)
            spans.append(last)
        last.last_line, last.end = event.end_line, offset
        if isinstance(event, TacticTiming):
            last.tactics += 1
        return last


def timeline_table(events: Sequence[Event]) -> pd.DataFrame:
    # Events read from JSON exports have no time and no place in the log's order.
    events = [event for event in events if event.producer != EXPORT_PRODUCER]
    rows: list[_Row] = []
    for number, run in enumerate(_runs(events)):
        measured = f"timestamps ({run.clock.resolution})" if run.clock.timestamped else None
        phases = _rows(run.phases, number, "phase", measured)
        rows.extend(phases)
        rows.extend(_derived(run, number, phases))
        rows.extend(_rows(run.layers, number, "layer", measured))
        rows.extend(_totals(run, number, phases, measured))
    frame = pd.DataFrame([asdict(row) for row in rows], columns=COLUMNS)
    return frame.astype(
        {"build": "Int64", "tactics": "Int64", "first_line": "Int64", "last_line": "Int64"}
    )


def _run_starts(events: Sequence[Event]) -> list[int]:
    """Index of the first event of each run: a run header after TensorRT's own lines opens a
    new run (trtexec run again and again into one file)."""
    starts = [0]
    content = False
    for index, event in enumerate(events):
        if isinstance(event, RunHeader) and content:
            starts.append(index)
            content = False
        elif event.family not in ("foreign", "unrecognized", "run"):
            content = True
    return starts


def _runs(events: Sequence[Event]) -> list[_Run]:
    starts = _run_starts(events)
    runs = []
    for start, end in zip(starts, [*starts[1:], len(events)], strict=True):
        chunk = events[start:end]
        run = _Run(any(_builds(event) for event in chunk))
        for event, fraction in zip(chunk, within_second(chunk), strict=True):
            _read(run, event, fraction)
        runs.append(run)
    return runs


def _builds(event: Event) -> bool:
    """Whether ``event`` shows the run building an engine (not only loading one)."""
    if isinstance(event, (LayerCount, AutotuningEvent, LayersRunningOn, LayerPlacement)):
        return True
    if isinstance(event, ProgressUpdate):
        return event.phase == "Building engine"
    return isinstance(event, PhaseDuration) and total_kind(event.phase) is not None


def _read(run: _Run, event: Event, fraction: float) -> None:
    # Lines without an envelope inherit the timestamp above them; only their own stamp counts
    # towards measuring the run.
    offset = run.clock.offset(event.timestamp, own=event.severity is not None) + fraction
    try:
        _place_event(run, event, offset)
    finally:
        run.previous_offset = offset


def _place_event(run: _Run, event: Event, offset: float) -> None:
    if isinstance(event, (AutotuningEvent, LayerCount, ReformatLayerAdded)):
        run.build = event.build
    if isinstance(event, PhaseDuration):
        _note_duration(run, event, offset)
    phase = phase_of(event, run.builds_engine)
    if isinstance(event, ProgressUpdate) and not _bar_changed(run, event):
        phase = None
    if (
        phase == "engine generation and serialisation"
        and event.family == "engine"
        and not run.in_build
    ):
        # trtexec lists a built engine's layers again after loading it for inference.
        phase = None
    tuning = bool(run.phases) and run.phases[-1].phase == "autotuning"
    if isinstance(event, SetTacticName) and not tuning:
        # 8.0-8.5 name the chosen kernels again while generating the engine.
        phase = None
    _enter(run, phase)
    if phase == "initialisation":
        if isinstance(event, MemUsageChange):
            # "[MemUsageChange] Init cuDNN: ..." is printed when the step is done: it began
            # after the line before.
            offset = run.previous_offset
        elif run.started and isinstance(event, (OptionLine, SectionHeader, DeviceProperty)):
            # trtexec explains its performance metrics in option-like lines after the run.
            phase = None
    elif phase is not None:
        run.started = True
    if phase is None:
        # Lines that say nothing of the phase belong to the one under way.
        for spans in (run.phases, run.layers) if tuning else (run.phases,):
            if spans:
                spans[-1].last_line, spans[-1].end = event.end_line, offset
        return
    build = run.build if run.in_build else None
    run.place(run.phases, (build, phase, None), event, offset)
    if isinstance(event, AutotuningEvent) and event.layer and phase == "autotuning":
        layer = run.place(run.layers, (build, phase, event.layer), event, offset)
        if isinstance(event, FastestTactic) and event.profiling_seconds is not None:
            # 8.6+: "<layer> (<runner>) profiling completed in <s> seconds", once per runner.
            _add(layer.reported, "profiling completed in", event.profiling_seconds)
    elif tuning and phase != "autotuning":
        _close(run.layers, offset)


def _bar_changed(run: _Run, event: ProgressUpdate) -> bool:
    """Progress monitors redraw every bar around the one that moved: only a bar that is new
    at its depth (or was reset) says that a step began."""
    state = (event.phase, event.done)
    if run.bars.get(event.indent) == state:
        return False
    run.bars = {depth: bar for depth, bar in run.bars.items() if depth < event.indent}
    run.bars[event.indent] = state
    return True


def _enter(run: _Run, phase: str | None) -> None:
    """Note whether ``phase`` happens inside a build."""
    if phase in BUILD_PHASES:
        run.in_build = True
        if run.build is None:
            # INFO-level logs build without numbering anything.
            run.build = 0
    elif phase in RUN_PHASES:
        run.in_build = False


def _close(spans: list[_Span], offset: float) -> None:
    """A span lasts until the next one starts."""
    if spans:
        spans[-1].end = max(spans[-1].end, offset)


def _add(reported: dict[str, float], name: str, seconds: float) -> None:
    reported[name] = reported.get(name, 0.0) + seconds


def _note_duration(run: _Run, event: PhaseDuration, offset: float) -> None:
    total = total_kind(event.phase)
    if total is not None:
        build = run.build if total == "build" else None
        run.totals[(build, event.phase)] = (event.seconds, event.line)
        return
    phase = reported_phase(event.phase)
    if phase is None:
        return
    _enter(run, phase)
    key = (run.build if run.in_build else None, phase, None)
    span = next((span for span in reversed(run.phases) if span.key() == key), None)
    if span is None:
        # 8.6+ reports network construction without printing anything else about it.
        span = run.place(run.phases, key, event, offset)
    _add(span.reported, event.phase, event.seconds)


def _rows(spans: list[_Span], run: int, level: str, measured: str | None) -> list[_Row]:
    """Phases: one row per span, in order (initialisation comes back inside a build). Layers:
    one row per layer, its spans added up (a layer is tuned once per format combination)."""
    if level == "phase":
        return [_row([span], run, level, measured) for span in spans]
    merged: dict[tuple[int | None, str, str | None], list[_Span]] = {}
    for span in spans:
        merged.setdefault(span.key(), []).append(span)
    return [_row(parts, run, level, measured) for parts in merged.values()]


def _row(parts: list[_Span], run: int, level: str, measured: str | None) -> _Row:
    first, last = parts[0], parts[-1]
    reported: dict[str, float] = {}
    for part in parts:
        for name, seconds in part.reported.items():
            _add(reported, name, seconds)
    row = _Row(run, first.build, level, first.phase, first.layer)
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


def _derived(run: _Run, number: int, phases: list[_Row]) -> list[_Row]:
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
            derived = _Row(number, build, "phase", together)
            derived.first_line, derived.last_line = unknown[0].first_line, line
            rows.append(derived)
        derived.seconds, derived.source = max(total - known, 0.0), "derived"
        derived.reported_as = f"{name} less the reported phases"
    return rows


def _totals(run: _Run, number: int, phases: list[_Row], measured: str | None) -> list[_Row]:
    """A row per build (its reported total, else its span) and one per other reported total
    (trtexec's "Engine built in", Polygraphy's and TensorRT-LLM's)."""
    rows = []
    used: set[tuple[int | None, str]] = set()
    for build in dict.fromkeys(row.build for row in phases if row.build is not None):
        inside = [row for row in phases if row.build == build]
        total = _Row(number, build, "total", "build")
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
            other = _Row(number, of, "total", name, seconds=seconds, source="reported")
            other.reported_as, other.first_line, other.last_line = name, line, line
            rows.append(other)
    return rows
