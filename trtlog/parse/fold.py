"""The one sequential pass over the events: link each event to the context the log implies.

Parsing a record never looks at other records; this fold is where order matters:
- option lines learn which ``=== Section ===`` they sit in;
- every event learns its run, engine build and 10.x backend strategy (``_Place``);
- tactic timings, skips, fastest and chosen tactics learn their layer, format combination and
  timing runner; 7.x-8.5 kernel names (``Set Tactic Name`` lines) are joined to the timing of
  the same tactic;
- 7.1 performance statistics learn their metric block.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any, TypeVar

from trtlog.events.autotuning import (
    AutotuningEvent,
    BackendStrategy,
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    ReformatLayerAdded,
    RunnerSkipped,
    SetTacticName,
    TacticTiming,
    TimingCacheHit,
    TimingRunner,
)
from trtlog.events.base import Event, TacticId
from trtlog.events.engine import LayerPlacement, LayersRunningOn
from trtlog.events.graph import (
    GraphRewrite,
    LayerCount,
    LayerEliminated,
    LayerRemoved,
    LayersFused,
    LayersMerged,
    LayersSwapped,
    LayerTypeConverted,
    QuantizationParams,
    TensorRetargeted,
)
from trtlog.events.memory import MemUsageChange, MemUsageStats
from trtlog.events.notes import BuilderNote, EmptyMessage, MyelinTrace
from trtlog.events.options import DeviceProperty, OptionLine, SectionHeader
from trtlog.events.performance import LegacyPerfHeader, LegacyPerfStatistic
from trtlog.events.phases import PhaseDuration
from trtlog.events.run import RunHeader
from trtlog.parse import rows
from trtlog.parse.rows import Item, Row, RowBlock

_SECTION_CONTINUES = (OptionLine, DeviceProperty, EmptyMessage, SectionHeader)
E = TypeVar("E", bound=Event)
_set_field = object.__setattr__


# The autotuning fields the fold sets, each through its slot's descriptor: ``replace`` builds a
# dict of keywords and looks each name up on every call, and a large 8.6 log has millions of
# format combinations, timing runners and fastest tactics to link.
_Setter = Callable[[Any, Any], None]
_set_layer: _Setter = AutotuningEvent.__dict__["layer"].__set__
_set_formats: _Setter = AutotuningEvent.__dict__["formats"].__set__
_set_runner: _Setter = AutotuningEvent.__dict__["runner"].__set__
_set_runner_id: _Setter = AutotuningEvent.__dict__["runner_id"].__set__
_set_run: _Setter = Event.__dict__["run"].__set__
_set_build: _Setter = Event.__dict__["build"].__set__
_set_strategy: _Setter = Event.__dict__["strategy"].__set__


def replace(event: E, **values: Any) -> E:
    """Set the fields only the order of the log can tell (layer, build, section...). Events are
    frozen for everyone who reads them; the fold finishes each one before it is yielded, while
    nothing else holds it, so it sets the fields in place rather than copying the event."""
    for name, value in values.items():
        _set_field(event, name, value)
    return event


class _AutotuningContext:
    """Where the builder is in its tactic search."""

    def __init__(self) -> None:
        # (run, build, strategy) of the items being linked (``_Place``).
        self.place: tuple[int | None, int | None, int | None] = (0, None, None)
        self.layer: str | None = None
        self.runner_layer: str | None = None
        self.formats: str | None = None
        self.runner: str | None = None
        self.runner_id: int | None = None
        self.runner_ids: dict[str, int | None] = {}
        self.kernels: dict[TacticId, tuple[str, str | None]] = {}
        self.unnumbered_kernel: str | None = None

    def reset_runner(self) -> None:
        self.runner = self.runner_id = self.runner_layer = None
        self.kernels.clear()
        self.unnumbered_kernel = None

    def enter_combination(self, inputs: tuple[str, ...], outputs: tuple[str, ...]) -> None:
        """A format combination starts: its formats, and no runner yet."""
        self.formats = f"{', '.join(inputs)} -> {', '.join(outputs)}"
        self.runner_ids.clear()
        self.reset_runner()

    def enter_runner(self, layer: str | None, runner: str | None, runner_id: int | None) -> None:
        """A timing runner starts (the layer it names, where it names one)."""
        self.reset_runner()
        self.runner, self.runner_id, self.runner_layer = runner, runner_id, layer
        if runner is not None:
            self.runner_ids[runner] = runner_id

    def link(self, event: AutotuningEvent) -> AutotuningEvent:
        if isinstance(event, ComputingCosts):
            self.layer = event.layer
            self.formats = None
            self.runner_ids.clear()
            self.reset_runner()
            return event
        if isinstance(event, FormatCombination):
            self.enter_combination(event.inputs, event.outputs)
            _set_layer(event, self.layer)
            _set_formats(event, self.formats)
            return event
        if isinstance(event, TimingRunner):
            self.enter_runner(event.layer, event.runner, event.runner_id)
            _set_formats(event, self.formats)
            return event
        if isinstance(event, SetTacticName):
            if event.tactic is None:
                self.unnumbered_kernel = event.kernel
            else:
                self.kernels[event.tactic] = (event.kernel, event.kernel_parameters)
            return self._with_context(event)
        if isinstance(event, TacticTiming) and event.kernel is None:
            kernel, parameters = self._kernel_of(event.tactic)
            if kernel is not None:
                event = replace(event, kernel=kernel, kernel_parameters=parameters)
        if isinstance(event, FastestTactic) and event.runner is not None:
            # 8.6+ name layer and runner on the fastest-tactic line itself.
            _set_formats(event, self.formats)
            return event
        if isinstance(event, RunnerSkipped) and event.layer is not None:
            _set_formats(event, self.formats)
            _set_runner(event, event.skipped_runner)
            return event
        if isinstance(event, RunnerSkipped):
            self._with_context(event)
            _set_runner(event, event.skipped_runner)
            _set_runner_id(event, self.runner_ids.get(event.skipped_runner))
            return event
        if isinstance(event, ChoseRunner):
            self._with_context(event)
            _set_runner(event, event.chosen_runner)
            _set_runner_id(event, self.runner_ids.get(event.chosen_runner))
            return event
        if isinstance(event, TimingCacheHit):
            return replace(event, layer=event.subject)
        return self._with_context(event)

    def link_row(self, row: Row) -> Row:
        """``link`` for a row (see ``trtlog.parse.rows``), made again with its context."""
        kind = row[0]
        context: tuple[Any, ...]
        if kind is FormatCombination:
            self.enter_combination(row[rows.INPUTS], row[rows.OUTPUTS])
            context = (
                *self.place,
                self.layer,
                self.formats,
                row[rows.RUNNER],
                row[rows.RUNNER_ID],
            )
        elif kind is TimingRunner:
            layer, runner, runner_id = row[rows.LAYER], row[rows.RUNNER], row[rows.RUNNER_ID]
            self.enter_runner(layer, runner, runner_id)
            context = (*self.place, layer, self.formats, runner, runner_id)
        elif kind is FastestTactic and row[rows.RUNNER] is not None:
            # 8.6+ name layer and runner on the fastest-tactic line itself.
            layer, runner, runner_id = row[rows.LAYER], row[rows.RUNNER], row[rows.RUNNER_ID]
            context = (*self.place, layer, self.formats, runner, runner_id)
        else:
            if kind is SetTacticName:
                tactic = row[rows.NAME_TACTIC]
                if tactic is None:
                    self.unnumbered_kernel = row[rows.NAME_KERNEL]
                else:
                    self.kernels[tactic] = (row[rows.NAME_KERNEL], row[rows.NAME_PARAMETERS])
            elif kind is TacticTiming and row[rows.KERNEL] is None:
                kernel, parameters = self._kernel_of(row[rows.TACTIC])
                if kernel is not None:
                    rest = row[rows.KERNEL_PARAMETERS + 1 :]
                    row = (*row[: rows.KERNEL], kernel, parameters, *rest)
            context = (
                *self.place,
                self.runner_layer or self.layer,
                self.formats,
                self.runner,
                self.runner_id,
            )
        return (*row[: rows.RUN], *context, *row[rows.RUNNER_ID + 1 :])

    def link_block(self, block: RowBlock) -> None:
        """``link_row`` for each row of a block of tactic timings, in place."""
        if block.names:
            self._link_named_block(block)
        elif block.kernels is None and (self.kernels or self.unnumbered_kernel is not None):
            kernels: list[str | None] = []
            parameters: list[str | None] = []
            for tactic in block.tactics:
                kernel, parameter = self._kernel_of(tactic)
                kernels.append(kernel)
                parameters.append(parameter)
            block.kernels, block.parameters = kernels, parameters
        block.layer = self.runner_layer or self.layer
        block.formats, block.runner, block.runner_id = self.formats, self.runner, self.runner_id
        block.run, block.build, block.strategy = self.place

    def _link_named_block(self, block: RowBlock) -> None:
        """A 7.x-8.5 block's kernel names and timings in line order: each name is noted (and
        linked) before the timings under it look their kernel up."""
        names = dict(zip(block.name_offsets or (), block.names or (), strict=True))
        linked: list[Row] = []
        kernels: list[str | None] = []
        parameters: list[str | None] = []
        offset = 0
        for tactic in block.tactics:
            while offset in names:
                linked.append(self.link_row(names[offset]))
                offset += 1
            kernel, parameter = self._kernel_of(tactic)
            kernels.append(kernel)
            parameters.append(parameter)
            offset += 1
        while offset in names:
            linked.append(self.link_row(names[offset]))
            offset += 1
        block.names, block.kernels, block.parameters = linked, kernels, parameters

    def _kernel_of(self, tactic: int) -> tuple[str | None, str | None]:
        """The kernel named for a timed tactic (by its id, else the last unnumbered name)."""
        kernel, parameters = self.kernels.pop(TacticId(tactic), (None, None))
        if kernel is None and self.unnumbered_kernel is not None:
            kernel, self.unnumbered_kernel = self.unnumbered_kernel, None
        return kernel, parameters

    def _with_context(self, event: AutotuningEvent) -> AutotuningEvent:
        _set_layer(event, self.runner_layer or self.layer)
        _set_formats(event, self.formats)
        _set_runner(event, self.runner)
        _set_runner_id(event, self.runner_id)
        return event


# Graph optimisation happens only while an engine is built.
_GRAPH_WORK = (
    LayerCount,
    LayersFused,
    LayerRemoved,
    LayerTypeConverted,
    LayerEliminated,
    LayersMerged,
    GraphRewrite,
    LayersSwapped,
    TensorRetargeted,
    QuantizationParams,
    ReformatLayerAdded,
    LayersRunningOn,
    LayerPlacement,
)
# Lines printed before a model is built (parsing it, the tool's options): after a build has
# ended they belong to none.
_BEFORE_BUILD_FAMILIES = frozenset({"onnx", "options", "run"})
# Markers a build prints once, in every version and at INFO level: a second one starts another
# build. "Engine generation completed" ends each 10.x backend strategy, and "Detected N inputs
# and M output network tensors" is printed once per strategy.
_ONCE_PER_BUILD = frozenset({"built", "allocation", "peak", "engine building", "torch"})


def _build_marker(event: Event) -> tuple[str, bool] | None:
    """The kind of build marker ``event`` is, and whether it ends the build (or strategy)."""
    kind = type(event)
    if kind is PhaseDuration:
        phase = event.phase  # type: ignore[attr-defined]
        if phase == "Engine generation":
            return "generation", True
        if phase == "Engine built":  # trtexec
            return "built", True
        if phase == "Engine building":  # Polygraphy
            return "engine building", True
        if phase == "Build TRT engine":  # Torch-TensorRT
            return "torch", True
    elif kind is MemUsageChange:
        if event.what.startswith("TensorRT-managed allocation in building engine"):  # type: ignore[attr-defined]
            return "allocation", True
    elif kind is MemUsageStats:
        if event.what.startswith("Peak memory usage of TRT CPU/GPU"):  # type: ignore[attr-defined]
            return "peak", False
    elif kind is BuilderNote:
        text: str = event.text  # type: ignore[attr-defined]
        if text.startswith("Detected ") and text.endswith("network tensors."):
            return "detected", False
    return None


class _Place:
    """Which run, engine build and backend strategy the log is in.

    A run starts at each ``&&&& RUNNING`` header that follows other content. A build starts
    with the first line that only a build prints (graph optimisation, tactic tuning, 7.1's
    layer placement, a build marker at INFO level) after the previous build ended, or at a
    second ``Original:`` stage count; it ends at "Engine generation completed", trtexec's
    "Engine built in", the allocation note or Polygraphy's and Torch-TensorRT's build times.
    What follows an ended build in the same run (its engine's layers, memory totals, the
    inference that uses it) still belongs to it. 10.x builds the graph with several backend
    strategies and keeps one: each "Building graph using backend strategy N" continues the
    build with strategy N, and once the builder has chosen, events carry the kept strategy.
    """

    def __init__(self) -> None:
        self.run = 0
        self.content = False
        self.builds = 0
        self.build: int | None = None
        self.open = False
        self.strategy: int | None = None
        self.kept: int | None = None
        self.strategies = False
        self.stages = False
        self.markers: set[str] = set()

    def value(self) -> tuple[int | None, int | None, int | None]:
        return self.run, self.build, self.strategy

    def last(self) -> tuple[int | None, int | None, int | None]:
        """The place of an event after the log's last line (None before any content)."""
        if not self.content:
            return None, None, None
        return self.value()

    def new_run(self) -> None:
        if self.content:
            self.run += 1
        self.content = True
        self.build = self.strategy = self.kept = None
        self.open = self.strategies = False

    def new_build(self) -> None:
        self.build = self.builds
        self.builds += 1
        self.open = True
        self.strategy = self.kept = None
        self.strategies = self.stages = False
        self.markers = set()

    def building(self) -> None:
        """Content only a build prints."""
        self.content = True
        if not self.open:
            self.new_build()

    def layer_count(self, stage: str) -> None:
        if stage == "Original" and self.open and self.stages:
            # A second "Original:" without a strategy between: another build.
            self.new_build()
        self.building()
        self.stages = True

    def backend_strategy(self, event: BackendStrategy) -> None:
        self.content = True
        if event.action == "building":
            if self.build is None or (not self.open and not self.strategies):
                self.new_build()
            self.open = True
            self.strategies = True
            self.stages = False
            self.strategy = event.strategy
            return
        if event.action in ("initial", "chosen"):
            self.kept = event.strategy
        # Once the builder has compared, what follows is of the engine it kept.
        self.strategy = self.kept

    def marker(self, kind: str, ends: bool) -> None:
        self.content = True
        if self.build is None or (kind in _ONCE_PER_BUILD and kind in self.markers):
            self.new_build()
        self.markers.add(kind)
        if ends:
            self.open = False

    def place(self, event: Event) -> tuple[int | None, int | None, int | None]:
        """The place of an event that neither starts nor ends a build."""
        self.content = True
        if self.open or self.build is None or event.family not in _BEFORE_BUILD_FAMILIES:
            return self.run, self.build, self.strategy
        return self.run, None, None


Place = tuple[int | None, int | None, int | None]


def fold(events: Iterable[Item]) -> Generator[Item, None, Place]:
    """Yield ``events`` in order, each linked to the context of the events before it. Rows
    (``trtlog.parse.rows``) are linked as the events they stand for and stay rows. Returns the
    (run, build, strategy) the log ended in: what trtexec's exports beside it describe."""
    tuning = _AutotuningContext()
    where = _Place()
    section: str | None = None
    legacy_metric: str | None = None
    for event in events:
        if type(event) is RowBlock:
            section = None
            if event.kind is not MyelinTrace:
                where.building()
            tuning.place = where.value()
            if event.kind is TacticTiming:
                tuning.link_block(event)
            else:
                event.run, event.build, event.strategy = tuning.place
            yield event
            continue
        if type(event) is tuple:
            section = None
            if event[0] is not MyelinTrace:
                where.building()
            tuning.place = where.value()
            if event[0] is MyelinTrace:
                event = (*event[: rows.RUN], *tuning.place, *event[rows.STRATEGY + 1 :])
            else:
                event = tuning.link_row(event)
            yield event
            continue
        # Autotuning events first: most events of a verbose log are, and none continues a
        # section.
        if isinstance(event, AutotuningEvent):
            section = None
            where.building()
            place = tuning.place = where.value()
            tuning.link(event)
        else:
            assert isinstance(event, Event)
            if not isinstance(event, _SECTION_CONTINUES):
                section = None
            if isinstance(event, LayerCount):
                where.layer_count(event.stage)
            elif isinstance(event, _GRAPH_WORK):
                where.building()
            elif isinstance(event, BackendStrategy):
                where.backend_strategy(event)
            elif isinstance(event, RunHeader):
                where.new_run()
                legacy_metric = None
            else:
                marker = _build_marker(event)
                if marker is not None:
                    where.marker(*marker)
            if isinstance(event, BackendStrategy):
                # The strategy a decision names is its own.
                place = (where.run, where.build, event.strategy)
            else:
                place = where.place(event)
            if isinstance(event, OptionLine):
                if section:
                    _set_field(event, "section", section)
            elif isinstance(event, SectionHeader):
                section = event.title
            elif isinstance(event, LegacyPerfHeader):
                legacy_metric = event.metric
            elif isinstance(event, LegacyPerfStatistic):
                _set_field(event, "metric", legacy_metric)
        run, build, strategy = place
        _set_run(event, run)
        if build is not None:
            _set_build(event, build)
            if strategy is not None:
                _set_strategy(event, strategy)
        yield event
    return where.last()
