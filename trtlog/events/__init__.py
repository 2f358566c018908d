"""Typed events, one module per family of TensorRT messages.

This package imports neither pandas nor matplotlib: events are plain frozen dataclasses.
"""

from __future__ import annotations

from trtlog.events.autotuning import (
    AutotuningEvent,
    BackendStrategy,
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    GeneratedKernelCount,
    KernelSelected,
    MissingQuantizationScale,
    NonConformingImplementation,
    OptimizationProfile,
    ReformatLayerAdded,
    RunnerSkipped,
    SetTacticName,
    TacticPruning,
    TacticSkipped,
    TacticSource,
    TacticTiming,
    TimingCache,
    TimingCacheHit,
    TimingRunner,
)
from trtlog.events.base import Event, TacticId, Tensor
from trtlog.events.diagnostics import AffectedWeights, Diagnostic
from trtlog.events.engine import (
    EngineBinding,
    EngineLayer,
    EngineLayerInformation,
    LayerInformation,
    LayerPlacement,
    LayersRunningOn,
)
from trtlog.events.graph import (
    ForeignNodeMetadata,
    FusionPassRunning,
    GraphRewrite,
    LayersSwapped,
    LayerCount,
    LayerEliminated,
    LayerRemoved,
    LayersFused,
    LayersMerged,
    LayerTypeConverted,
    SymbolicShape,
    TensorRetargeted,
)
from trtlog.events.memory import (
    BlockAssignment,
    BlockSize,
    LayerMemory,
    MemoryAllocation,
    MemoryTotal,
    MemUsageChange,
    MemUsageSnapshot,
    MemUsageStats,
)
from trtlog.events.notes import (
    BuilderNote,
    EmptyMessage,
    MyelinTrace,
    PluginRegistration,
    ProgressUpdate,
)
from trtlog.events.onnx import (
    NetworkInput,
    NetworkOutput,
    OnnxImporterTrace,
    OnnxModelBanner,
    OnnxModelInfo,
)
from trtlog.events.options import DeviceProperty, OptionLine, SectionHeader
from trtlog.events.performance import (
    InferenceProgress,
    LegacyPerfHeader,
    LegacyPerfStatistic,
    OutputDump,
    PerfAdvice,
    PerfAdviceDetail,
    PerfStatistic,
    PerfValue,
    ProfileColumns,
    ProfileHeader,
    ProfileRow,
    TraceAverage,
)
from trtlog.events.phases import PhaseDuration, PhaseMarker
from trtlog.events.records import Foreign, Unrecognized
from trtlog.events.run import LoadedModule, RunFooter, RunHeader, TensorrtVersion

EVENT_CLASSES: tuple[type[Event], ...] = (
    RunHeader, RunFooter, TensorrtVersion, LoadedModule,
    SectionHeader, OptionLine, DeviceProperty,
    OnnxModelBanner, OnnxModelInfo, NetworkInput, NetworkOutput, OnnxImporterTrace,
    LayerCount, FusionPassRunning, LayersFused, LayerRemoved, LayerTypeConverted,
    LayerEliminated, LayersMerged, GraphRewrite, LayersSwapped, TensorRetargeted,
    ForeignNodeMetadata, SymbolicShape,
    OptimizationProfile, ComputingCosts, FormatCombination, TimingRunner, TacticTiming,
    TacticSkipped, SetTacticName, FastestTactic, RunnerSkipped, ChoseRunner,
    ReformatLayerAdded, KernelSelected, GeneratedKernelCount, TacticSource, TimingCache,
    TimingCacheHit, TacticPruning, NonConformingImplementation, MissingQuantizationScale,
    BackendStrategy,
    LayerMemory, MemoryTotal, MemoryAllocation, BlockSize, MemUsageChange, MemUsageSnapshot,
    MemUsageStats, BlockAssignment,
    EngineLayerInformation, EngineLayer, LayerInformation, EngineBinding, LayersRunningOn,
    LayerPlacement,
    PhaseDuration, PhaseMarker,
    PerfStatistic, PerfValue, TraceAverage, LegacyPerfHeader, LegacyPerfStatistic,
    InferenceProgress, PerfAdvice, PerfAdviceDetail, ProfileHeader, ProfileColumns,
    ProfileRow, OutputDump,
    PluginRegistration, ProgressUpdate, MyelinTrace, EmptyMessage, BuilderNote,
    Diagnostic, AffectedWeights,
    Unrecognized, Foreign,
)  # fmt: skip

EVENTS_BY_KIND: dict[str, type[Event]] = {cls.kind(): cls for cls in EVENT_CLASSES}

__all__ = [cls.__name__ for cls in EVENT_CLASSES] + [
    "EVENTS_BY_KIND",
    "EVENT_CLASSES",
    "AutotuningEvent",
    "Event",
    "TacticId",
    "Tensor",
]
