"""Where each line of a run goes in its timeline: the phase it belongs to, the layer it tunes,
and the figures it reports (``trtlog.analysis.timeline.builder`` reads the log in order and
hands each line here with its time offset)."""

from __future__ import annotations

from trtlog.analysis.timeline.phases import (
    BUILD_PHASES,
    RUN_PHASES,
    UNLOGGED_BUILD,
    phase_of,
    reported_phase,
    says_nothing_by_class,
    total_kind,
)
from trtlog.analysis.timeline.spans import Run, Span, add_reported, close
from trtlog.events import (
    AutotuningEvent,
    ChoseRunner,
    ComputingCosts,
    DeviceProperty,
    Event,
    FastestTactic,
    Foreign,
    FormatCombination,
    LayerCount,
    MemUsageChange,
    OptionLine,
    PhaseDuration,
    ProgressUpdate,
    ReformatLayerAdded,
    RunnerSkipped,
    SectionHeader,
    SetTacticName,
    TacticSkipped,
    TacticTiming,
    TimingCacheHit,
    TimingRunner,
)
from trtlog.parse import build_marker
from trtlog.parse.items import Item, LineBlock


def read_item(run: Run, item: Item, fraction: float) -> None:
    # Lines without an envelope inherit the timestamp above them; only their own stamp counts
    # towards measuring the run.
    kind = type(item)
    own = item.severity is not None
    offset = run.clock.offset(item.timestamp, own, counted=kind is not Foreign) + fraction
    try:
        if kind in _TUNING_EVENTS:
            _place_tuning_event(run, item, offset)  # type: ignore[arg-type]
        elif isinstance(item, Event):
            silent = _SILENT_CLASSES.get((kind, run.builds_engine))
            if silent is None:
                silent = _SILENT_CLASSES[(kind, run.builds_engine)] = _silent_class(item, run)
            if silent:
                tuning = bool(run.phases) and run.phases[-1].phase == "autotuning"
                _extend(run, tuning, item.end_line, offset)
            else:
                _place_event(run, item, offset)
    finally:
        run.previous_offset = offset


# Per class of event (and whether the run builds an engine): whether its events only extend
# the phase under way (``_place_event`` would do nothing else with them): most of a log's
# notes, trace averages and other programs' lines.
_SILENT_CLASSES: dict[tuple[type, bool], bool] = {}
# The events ``_place_event`` reads whatever their phase.
_READ_IN_ANY_PHASE = (AutotuningEvent, LayerCount, ReformatLayerAdded, PhaseDuration)


def _silent_class(event: Event, run: Run) -> bool:
    return not isinstance(event, _READ_IN_ANY_PHASE) and says_nothing_by_class(
        event, run.builds_engine
    )


# The autotuning events of every format combination and runner (a large build logs hundreds of
# thousands): always in the autotuning phase (``phase_of``), placed as ``_place_event`` would.
_TUNING_EVENTS = frozenset(
    {ComputingCosts, FormatCombination, TimingRunner, FastestTactic, ChoseRunner, RunnerSkipped,
     TacticSkipped, TimingCacheHit}
)  # fmt: skip


def _place_tuning_event(run: Run, event: AutotuningEvent, offset: float) -> None:
    seconds = event.profiling_seconds if type(event) is FastestTactic else None
    number = run.passes.of(event.build, event.strategy)
    _place_tuning(run, number, event.layer, event.line, event.end_line, offset, seconds)


def tuning_key(item: Item) -> tuple[int | None, int | None] | None:
    """The build and strategy of an item of tactic tuning (a tuning event, a block of tactic
    timings), None for any other: consecutive items of one key are read together
    (``read_tuning_run``)."""
    kind = type(item)
    if kind is LineBlock:
        block: LineBlock = item  # type: ignore[assignment]
        return (block.build, block.strategy) if block.kind is TacticTiming else None
    if kind in _TUNING_EVENTS:
        event: AutotuningEvent = item  # type: ignore[assignment]
        return event.build, event.strategy
    return None


class _Lines:
    """Consecutive tuning lines of one layer (or none): where they start and end, their
    tactics timed and the profiling times they report."""

    __slots__ = ("end", "first_end_line", "first_line", "last_line", "layer", "seconds", "start",
                 "tactics")  # fmt: skip

    def __init__(
        self, layer: str | None, first_line: int, first_end_line: int, start: float,
        last_line: int, end: float, tactics: int, seconds: float | None,
    ) -> None:  # fmt: skip
        self.layer = layer
        self.first_line, self.first_end_line, self.start = first_line, first_end_line, start
        self.last_line, self.end = last_line, end
        self.tactics = tactics
        self.seconds = [] if seconds is None else [seconds]

    def place(self, run: Run, spans: list[Span], key: tuple[int | None, str, str | None]) -> Span:
        span = run.place(spans, key, self.first_line, self.first_end_line, self.start)
        span.last_line, span.end = self.last_line, self.end
        span.tactics += self.tactics
        return span


def read_tuning_run(
    run: Run, items: list[Item], key: tuple[int | None, int | None], position: int, spread: int
) -> int:
    """``read_item`` and ``read_block`` for consecutive items of tactic tuning of one build and
    strategy (``tuning_key``), the lines ``position``.. of their second (spread over ``spread``
    lines; 0: not spread); returns the position after them. Each item only extends the
    autotuning span and its layer's span that the items before it placed, so each span is
    placed once for all of them."""
    clock = run.clock
    # The runs of consecutive lines of each layer (a layer's lines continue past lines of no
    # layer, a reformat's format combination), and where all the lines start and end.
    layers: list[_Lines] = []
    current: _Lines | None = None
    first: tuple[int, int, float] | None = None
    last_line, end, tactics = 0, 0.0, 0
    for item in items:
        if type(item) is LineBlock:
            block: LineBlock = item
            count = len(block)
            offset = clock.offset_of_lines(block.timestamp, block.severity is not None, count)
            start = offset + (position / spread if spread else 0.0)
            end = offset + ((position + count - 1) / spread if spread else 0.0)
            layer, line, end_line, last_line = (
                block.layer,
                block.first_line,
                block.first_line,
                block.last_line,
            )
            timed, seconds = block.timings, None
            position += count
        else:
            event: AutotuningEvent = item  # type: ignore[assignment]
            layer, line, end_line = event.layer, event.line, event.end_line
            seconds = event.profiling_seconds if type(event) is FastestTactic else None
            start = end = clock.offset(event.timestamp, own=event.severity is not None) + (
                position / spread if spread else 0.0
            )
            last_line, timed = end_line, 0
            position += 1
        if first is None:
            first = (line, end_line, start)
        tactics += timed
        if not layer:
            continue
        if current is not None and current.layer == layer:
            current.last_line, current.end = last_line, end
            current.tactics += timed
            if seconds is not None:
                current.seconds.append(seconds)
            continue
        current = _Lines(layer, line, end_line, start, last_line, end, timed, seconds)
        layers.append(current)
    assert first is not None
    run.build = run.passes.of(*key)
    _enter(run, "autotuning")
    run.started = True
    build = run.build
    whole = _Lines(None, *first, last_line, end, tactics, None)
    whole.place(run, run.phases, (build, "autotuning", None))
    for lines in layers:
        _place_layer(run, build, lines)
    run.previous_offset = end
    return position


def _place_layer(run: Run, build: int | None, lines: _Lines | None) -> None:
    if lines is None:
        return
    span = lines.place(run, run.layers, (build, "autotuning", lines.layer))
    for seconds in lines.seconds:
        add_reported(span.reported, "profiling completed in", seconds)


def _place_tuning(
    run: Run,
    build: int | None,
    layer_name: str | None,
    line: int,
    end_line: int,
    offset: float,
    profiling_seconds: float | None,
) -> None:
    """A tuning line (``_TUNING_EVENTS``): in the autotuning phase and its layer's span, with a
    fastest tactic's reported profiling time (8.6+)."""
    run.build = build
    _enter(run, "autotuning")
    run.started = True
    run.place(run.phases, (run.build, "autotuning", None), line, end_line, offset)
    if layer_name:
        key = (run.build, "autotuning", layer_name)
        layer = run.place(run.layers, key, line, end_line, offset)
        if profiling_seconds is not None:
            add_reported(layer.reported, "profiling completed in", profiling_seconds)


def read_block(run: Run, block: LineBlock, position: int, spread: int) -> None:
    """``read_item`` for each line of a block: one stamp, so one offset; ``spread`` is the number
    of lines the second's are spread over (0: not spread)."""
    first_line, count = block.first_line, len(block)
    own, counted = block.severity is not None, block.kind is not Foreign
    offset = run.clock.offset_of_lines(block.timestamp, own, count, counted)
    first = offset + (position / spread if spread else 0.0)
    last = offset + ((position + count - 1) / spread if spread else 0.0)
    run.previous_offset = last
    tuning = bool(run.phases) and run.phases[-1].phase == "autotuning"
    if block.kind is not TacticTiming:
        # Myelin's trace and other programs' lines say nothing of the phase.
        _extend(run, tuning, block.last_line, last)
        return
    run.build = run.passes.of(block.build, block.strategy)
    _enter(run, "autotuning")
    run.started = True
    build = run.build if run.in_build else None
    spans: list[tuple[list[Span], tuple[int | None, str, str | None]]] = [
        (run.phases, (build, "autotuning", None))
    ]
    if block.layer:
        spans.append((run.layers, (build, "autotuning", block.layer)))
    for kind_spans, key in spans:
        span = run.place(kind_spans, key, first_line, first_line, first, tactic=True)
        span.last_line, span.end = block.last_line, last
        span.tactics += block.timings - 1


def _place_event(run: Run, event: Event, offset: float) -> None:
    _place_in_phase(run, event, offset)
    marker = build_marker(event)
    if marker is not None and marker[1]:
        # The next step outside a build (an engine's load, the next process's set-up) starts
        # where it does, without stretching the build to it.
        run.build_ended = True


def _place_in_phase(run: Run, event: Event, offset: float) -> None:
    if isinstance(event, (AutotuningEvent, LayerCount, ReformatLayerAdded)):
        run.build = run.passes.of(event.build, event.strategy)
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
    elif phase == UNLOGGED_BUILD:
        number = run.passes.of(event.build, event.strategy)
        if run.in_build and (number == run.build or event.strategy is not None):
            if not _reported_only(run.phases, run.build):
                # A build (or a backend strategy of one) whose steps the log shows already.
                phase = None
        else:
            run.build = number
    if phase is not None and run.build_ended:
        run.build_ended = False
        if phase not in BUILD_PHASES and run.in_build:
            # Library set-up comes back inside a build (8.x loads cuDNN after graph
            # optimisation), but not once the build has ended: the next process's. The
            # build's spans end where it did.
            run.in_build = False
            for spans in (run.phases, run.layers):
                if spans:
                    spans[-1].closed = True
    _enter(run, phase)
    if phase == "initialisation":
        loading = bool(run.phases) and run.phases[-1].phase == "engine load"
        if loading and not (isinstance(event, MemUsageChange) and event.what == "Init CUDA"):
            # The runtime loads its libraries while it deserializes an engine (8.x); only CUDA's
            # set-up starts another process.
            phase = None
        elif isinstance(event, MemUsageChange):
            # "[MemUsageChange] Init cuDNN: ..." is printed when the step is done: it began
            # after the line before.
            offset = run.previous_offset
        elif run.started and isinstance(event, (OptionLine, SectionHeader, DeviceProperty)):
            # trtexec explains its performance metrics in option-like lines after the run.
            phase = None
    elif phase is not None:
        run.started = True
    if phase is None:
        _extend(run, tuning, event.end_line, offset)
        return
    build = run.build if run.in_build else None
    is_tactic = isinstance(event, TacticTiming)
    line, end_line = event.line, event.end_line
    run.place(run.phases, (build, phase, None), line, end_line, offset, tactic=is_tactic)
    if isinstance(event, AutotuningEvent) and event.layer and phase == "autotuning":
        key = (build, phase, event.layer)
        layer = run.place(run.layers, key, line, end_line, offset, tactic=is_tactic)
        if isinstance(event, FastestTactic) and event.profiling_seconds is not None:
            # 8.6+: "<layer> (<runner>) profiling completed in <s> seconds", once per runner.
            add_reported(layer.reported, "profiling completed in", event.profiling_seconds)
    elif tuning and phase != "autotuning":
        close(run.layers, offset, final=True)


def _reported_only(phases: list[Span], build: int | None) -> bool:
    """Whether the build's one span so far is a step it reported on one line: 8.6 and later
    report graph optimisation's time at INFO level, then print the timing cache's note and
    nothing more until the build ends."""
    inside = [span for span in phases if span.build == build]
    return (
        len(inside) == 1
        and bool(inside[0].reported)
        and (inside[0].first_line == inside[0].last_line)
    )


def _extend(run: Run, tuning: bool, end_line: int, offset: float) -> None:
    """Lines that say nothing of the phase belong to the one under way."""
    for spans in (run.phases, run.layers) if tuning else (run.phases,):
        if spans:
            spans[-1].last_line, spans[-1].end = end_line, offset


def _bar_changed(run: Run, event: ProgressUpdate) -> bool:
    """Progress monitors redraw every bar around the one that moved: only a bar that is new
    at its depth (or was reset) says that a step began."""
    state = (event.phase, event.done)
    if run.bars.get(event.indent) == state:
        return False
    run.bars = {depth: bar for depth, bar in run.bars.items() if depth < event.indent}
    run.bars[event.indent] = state
    return True


def _enter(run: Run, phase: str | None) -> None:
    """Note whether ``phase`` happens inside a build."""
    if phase in BUILD_PHASES:
        run.in_build = True
        if run.build is None:
            # INFO-level logs build without numbering anything.
            run.build = 0
    elif phase in RUN_PHASES:
        run.in_build = False


def _note_duration(run: Run, event: PhaseDuration, offset: float) -> None:
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
    span: Span | None = next((span for span in reversed(run.phases) if span.key() == key), None)
    if span is None:
        # 8.6+ reports network construction without printing anything else about it, and
        # TensorRT-LLM its engine's serialisation once done: the step ran before the report.
        started = offset - event.seconds
        span = run.place(run.phases, key, event.line, event.end_line, offset, started=started)
    add_reported(span.reported, event.phase, event.seconds)
