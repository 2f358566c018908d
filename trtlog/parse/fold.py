"""The one sequential pass over the events: link each event to the context the log implies.

Parsing a record never looks at other records; this fold is where order matters:
- option lines learn which ``=== Section ===`` they sit in;
- every event learns its run, engine build and 10.x backend strategy (``_Place``);
- tactic timings, skips, fastest and chosen tactics learn their layer, format combination and
  timing runner (``trtlog.parse.tuning_context``);
- 7.1 performance statistics learn their metric block.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any

from trtlog.events.autotuning import (
    AutotuningEvent,
    BackendStrategy,
    ReformatLayerAdded,
    TacticTiming,
    TimingCache,
)
from trtlog.events.base import Event
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
from trtlog.events.notes import BuilderNote, EmptyMessage, MyelinTrace, ProgressUpdate
from trtlog.events.options import DeviceProperty, OptionLine, SectionHeader
from trtlog.events.performance import LegacyPerfHeader, LegacyPerfStatistic
from trtlog.events.phases import PhaseDuration
from trtlog.events.records import Foreign
from trtlog.events.run import RunHeader
from trtlog.parse.items import Item, LineBlock
from trtlog.parse.tuning_context import AutotuningContext

# Another program's line (the prefix a CI runner writes before each line) ends no section.
_SECTION_CONTINUES = (OptionLine, DeviceProperty, EmptyMessage, SectionHeader, Foreign)
_set_field = object.__setattr__
# The place fields the fold sets, each through its slot's descriptor (``tuning_context``).
_Setter = Callable[[Any, Any], None]
_set_run: _Setter = Event.__dict__["run"].__set__
_set_build: _Setter = Event.__dict__["build"].__set__
_set_strategy: _Setter = Event.__dict__["strategy"].__set__


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


# What the fold does with an event of a class, found once per class (``_role``): how it moves
# the place, whether it continues an options section, which of its fields the fold sets.
_AUTOTUNING, _LAYER_COUNT, _GRAPH, _STRATEGY, _RUN, _TIMING_CACHE, _OTHER = range(7)
_OPTION, _SECTION, _LEGACY_HEADER, _LEGACY_STATISTIC, _NO_FIELD = range(5)
Role = tuple[int, bool, int]
_ROLES: dict[type, Role] = {}


def _role(kind: type) -> Role:
    """The role of the events of class ``kind`` (``_ROLES``), as ``fold`` tests them in turn."""
    role = _ROLES.get(kind)
    if role is not None:
        return role
    if issubclass(kind, AutotuningEvent):
        role = (_AUTOTUNING, False, _NO_FIELD)
    else:
        places = (
            (LayerCount, _LAYER_COUNT),
            (_GRAPH_WORK, _GRAPH),
            (BackendStrategy, _STRATEGY),
            (RunHeader, _RUN),
            (TimingCache, _TIMING_CACHE),
        )
        fields = (
            (OptionLine, _OPTION),
            (SectionHeader, _SECTION),
            (LegacyPerfHeader, _LEGACY_HEADER),
            (LegacyPerfStatistic, _LEGACY_STATISTIC),
        )
        action = next((action for cls, action in places if issubclass(kind, cls)), _OTHER)
        field = next((field for cls, field in fields if issubclass(kind, cls)), _NO_FIELD)
        role = (action, issubclass(kind, _SECTION_CONTINUES), field)
    _ROLES[kind] = role
    return role


def build_marker(event: Event) -> tuple[str, bool] | None:
    """The kind of build marker ``event`` is, and whether it ends the build (or strategy):
    "generation", "built", "engine building", "torch" and "allocation" end it; "peak" (the
    allocators' peak, printed once the engine is built) and "detected" (its network tensors,
    printed once tuning is done) do not."""
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
    layer placement, the timing cache's note, a build marker at INFO level) after the previous
    build ended, or at a
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

    def builder_pass(self) -> None:
        """The timing cache's note, which opens each builder pass: a build, or at INFO level
        10.x's next backend strategy, where only a strategy's end closed the build before."""
        self.content = True
        if self.open:
            return
        if self.build is not None and not self.markers & _ONCE_PER_BUILD:
            self.open = True
            return
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

    def place(self, family: str) -> tuple[int | None, int | None, int | None]:
        """The place of an event of ``family`` that neither starts nor ends a build."""
        self.content = True
        if self.open or self.build is None or family not in _BEFORE_BUILD_FAMILIES:
            return self.run, self.build, self.strategy
        return self.run, None, None


Place = tuple[int | None, int | None, int | None]


def fold(events: Iterable[Item]) -> Generator[Item, None, Place]:
    """Yield ``events`` in order, each linked to the context of the events before it. Blocks
    (``trtlog.parse.items``) are linked as the events they stand for and stay blocks. Returns the
    (run, build, strategy) the log ended in: what trtexec's exports beside it describe."""
    tuning = AutotuningContext()
    where = _Place()
    section: str | None = None
    legacy_metric: str | None = None
    for event in events:
        if type(event) is LineBlock:
            section = None
            if event.kind is Foreign:
                # Another program's lines, linked as each of them would be.
                event.run, event.build, event.strategy = where.place(Foreign.family)
                yield event
                continue
            if event.kind is not MyelinTrace:
                where.building()
            tuning.place = where.value()
            if event.kind is TacticTiming:
                tuning.link_block(event)
            else:
                event.run, event.build, event.strategy = tuning.place
            yield event
            continue
        action, continues_section, field = _ROLES.get(type(event)) or _role(type(event))
        # Autotuning events first: most events of a verbose log are, and none continues a
        # section.
        if action == _AUTOTUNING:
            assert isinstance(event, AutotuningEvent)
            section = None
            where.building()
            place = tuning.place = where.value()
            tuning.link(event)
        else:
            assert isinstance(event, Event)
            if not continues_section:
                section = None
            if action == _LAYER_COUNT and isinstance(event, LayerCount):
                where.layer_count(event.stage)
            elif action == _GRAPH:
                where.building()
            elif action == _STRATEGY and isinstance(event, BackendStrategy):
                where.backend_strategy(event)
            elif action == _RUN:
                where.new_run()
                legacy_metric = None
            elif action == _TIMING_CACHE and isinstance(event, TimingCache):
                # At INFO level the note is all a build prints before its end.
                if event.opens_builder_pass:
                    where.builder_pass()
            else:
                marker = build_marker(event)
                if marker is not None:
                    where.marker(*marker)
                elif type(event) is ProgressUpdate and event.phase == "Building engine":
                    # 10.x's progress monitor: its top bar is the build under way.
                    where.building()
            if action == _STRATEGY and isinstance(event, BackendStrategy):
                # The strategy a decision names is its own.
                place = (where.run, where.build, event.strategy)
            else:
                place = where.place(event.family)
            if field == _OPTION:
                if section:
                    _set_field(event, "section", section)
            elif field == _SECTION and isinstance(event, SectionHeader):
                section = event.title
            elif field == _LEGACY_HEADER and isinstance(event, LegacyPerfHeader):
                legacy_metric = event.metric
            elif field == _LEGACY_STATISTIC:
                _set_field(event, "metric", legacy_metric)
        run, build, strategy = place
        _set_run(event, run)
        if build is not None:
            _set_build(event, build)
            if strategy is not None:
                _set_strategy(event, strategy)
        yield event
    return where.last()
