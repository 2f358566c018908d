"""Which build phase each event belongs to, and which phase each reported duration measures."""

from __future__ import annotations

from trtlog.events import (
    BackendStrategy,
    BuilderNote,
    EngineLayerInformation,
    Event,
    ForeignNodeMetadata,
    GeneratedKernelCount,
    InferenceProgress,
    KernelSelected,
    LayerCount,
    LayerPlacement,
    LayersRunningOn,
    MemoryAllocation,
    MemoryTotal,
    MemUsageChange,
    MemUsageSnapshot,
    NonConformingImplementation,
    OptimizationProfile,
    PhaseDuration,
    PhaseMarker,
    ProfileColumns,
    ProfileHeader,
    ProfileRow,
    ProgressUpdate,
    QuantizationParams,
    ReformatLayerAdded,
    RunFooter,
    RunHeader,
    TacticSource,
    TimingCache,
)

PHASES = [
    "initialisation",
    "model parsing",
    "network construction",
    "build steps not logged",
    "graph optimisation",
    "calibration",
    "autotuning",
    "reformat selection",
    "memory planning",
    "engine generation and serialisation",
    "engine load",
    "inference warm-up and timing",
    "profiling",
]
# A build under way whose steps the log does not show: INFO-level 8.x and 10.x logs say that a
# build starts (its timing cache) and then nothing until its memory is planned, minutes later.
UNLOGGED_BUILD = "build steps not logged"
# Phases of the run rather than of one build.
RUN_PHASES = {"model parsing", "engine load", "inference warm-up and timing", "profiling"}
# Phases that happen inside a build: all the others but the first.
BUILD_PHASES = set(PHASES[1:]) - RUN_PHASES

# Reported durations that measure a whole build ("build") or the whole trtexec build step of a
# run ("run"): TensorRT's "Engine generation completed in" covers graph optimisation to the
# serialised engine; trtexec's "Engine built in" adds library set-up; Polygraphy and
# TensorRT-LLM print their own totals.
BUILD_TOTALS = {
    "Engine generation": "build",
    "Engine built": "run",
    "Engine building": "run",
    "Building all engines": "run",
}

_REPORTED_PHASES = {
    "Parse": "model parsing",
    "Graph construction": "network construction",
    "Graph optimization": "graph optimisation",
    "Graph construction and optimization": "graph optimisation",
    "Configuring builder for Int8 Mode": "calibration",
    "Calibration": "calibration",
    "Formats and tactics selection": "autotuning",
    "Subgraph compilation": "autotuning",
    "Multi stream splitting": "engine generation and serialisation",
    "Engine serialization": "engine generation and serialisation",
    "Deserialization": "engine load",
    "Engine deserialized": "engine load",
    "Engine loaded": "engine load",
}

_MARKER_PHASES = (
    ("Start parsing", "model parsing"),
    ("Finish parsing", "model parsing"),
    ("Starting Calibration", "calibration"),
    ("Start building", "graph optimisation"),
    ("Building engine", "graph optimisation"),
    ("Start serializing", "engine generation and serialisation"),
    ("Starting inference", "inference warm-up and timing"),
)

# Notes that INFO-level logs print while building, where nothing else tells the phase.
_NOTE_PHASES = (("Some tactics do not have sufficient workspace memory", "autotuning"),)

# The steps of 10.x's IProgressMonitor bars (Python API logs, no timestamps). Their sub-steps
# ("Evaluating tactic times", "Measuring tactic time") serve several steps and say nothing.
_PROGRESS_PHASES = {
    "Cloning network graph": "network construction",
    "Preparing graph for optimization": "graph optimisation",
    "Optimizing graph": "graph optimisation",
    "Computing profile costs": "autotuning",
    "Timing tactics": "autotuning",
    "Timing graph nodes": "autotuning",
    "Timing tensor reformats": "reformat selection",
    "Determining refit engines": "engine generation and serialisation",
}

_FAMILY_PHASES = {
    "run": "initialisation",
    "options": "initialisation",
    "device": "initialisation",
    "onnx": "model parsing",
    "graph": "graph optimisation",
    "autotuning": "autotuning",
    "memory": "memory planning",
    "performance": "inference warm-up and timing",
}


def reported_phase(name: str) -> str | None:
    """The phase a reported duration measures ("Formats and tactics selection" -> autotuning);
    None for totals and unknown names. Torch-TensorRT prefixes some names with "- "."""
    name = name.removeprefix("- ").removeprefix("VERBOSE: ")
    if name.startswith("Building ") and name != "Building all engines":
        return None
    return _REPORTED_PHASES.get(name)


def total_kind(name: str) -> str | None:
    """ "build" or "run" for a reported total ("Engine generation", "Engine built", ...)."""
    name = name.removeprefix("- ").removeprefix("VERBOSE: ")
    if name.startswith("Building ") and name != "Building all engines":
        return "build"
    return BUILD_TOTALS.get(name)


# Events that say nothing of the phase: durations are reported after the fact, backend
# strategies and optimisation profiles frame a build, 10.x prints Myelin regions' metadata
# while tuning them, INT8 builds set quantisation parameters both when optimising the graph
# and before each tactic is timed.
_SILENT = (
    PhaseDuration,
    RunHeader,
    RunFooter,
    BackendStrategy,
    OptimizationProfile,
    ForeignNodeMetadata,
    QuantizationParams,
)


# Events whose phase depends on what they say, not only on their class.
_SAYS_WHICH = (
    MemUsageChange,
    MemoryAllocation,
    BuilderNote,
    TacticSource,
    ProgressUpdate,
    PhaseMarker,
    InferenceProgress,
    MemoryTotal,
    LayerCount,
    TimingCache,
)
_PHASE_BY_CLASS: dict[tuple[type[Event], bool], str | None] = {}


def phase_of(event: Event, run_builds: bool) -> str | None:
    """The phase ``event`` shows the builder in, or None where it says nothing about that
    (notes, warnings, memory-usage reports, reported durations, unknown lines)."""
    if type(event) is ProgressUpdate:
        # A progress monitor redraws its bars tens of thousands of times (10.x): first.
        return _bar_phase(event)
    # A large log holds hundreds of thousands of autotuning events: their phase is looked up.
    key = (type(event), run_builds)
    if key in _PHASE_BY_CLASS:
        return _PHASE_BY_CLASS[key]
    phase = _phase_of(event, run_builds)
    if not isinstance(event, _SAYS_WHICH):
        _PHASE_BY_CLASS[key] = phase
    return phase


def says_nothing_by_class(event: Event, run_builds: bool) -> bool:
    """Whether no event of ``event``'s class shows a phase (``phase_of`` is None by class)."""
    return phase_of(event, run_builds) is None and (type(event), run_builds) in _PHASE_BY_CLASS


def _phase_of(event: Event, run_builds: bool) -> str | None:
    if isinstance(event, _SILENT):
        return None
    if _initialises(event):
        return "initialisation"
    if isinstance(event, (KernelSelected, GeneratedKernelCount)):
        # "Finalize: <layer> Set kernel index" and the kernel list come with the engine.
        return "engine generation and serialisation"
    if isinstance(event, (LayersRunningOn, LayerPlacement)):
        # Devices are assigned once the graph is optimised, before tactics are timed.
        return "graph optimisation"
    if isinstance(event, BuilderNote):
        return next((phase for text, phase in _NOTE_PHASES if event.text.startswith(text)), None)
    if isinstance(event, ProgressUpdate):
        return _bar_phase(event)
    if isinstance(event, PhaseMarker):
        return next((phase for text, phase in _MARKER_PHASES if event.text.startswith(text)), None)
    if isinstance(event, InferenceProgress) and event.what.startswith("Set shape"):
        # trtexec sets the optimisation profile's shapes before building.
        return None
    if isinstance(event, MemoryAllocation) and event.what == "Loaded engine size":
        # The runtime's first line as it deserializes an engine.
        return "engine load"
    if isinstance(event, (MemUsageChange, MemoryAllocation, MemUsageSnapshot, TacticSource)):
        # Allocations happen at every step: reserving activations when tuning starts, loading
        # an engine, creating an execution context.
        return None
    if isinstance(event, MemoryTotal) and event.what.startswith("per-runner"):
        return None
    if isinstance(event, (ReformatLayerAdded, NonConformingImplementation)) or (
        isinstance(event, LayerCount) and event.stage == "reformat layers"
    ):
        # Once the tactics are chosen the builder settles the formats: it inserts reformat
        # layers and says where it could not honour a requested precision.
        return "reformat selection"
    if isinstance(event, TimingCache):
        # "Local timing cache in use" (or 8.6's "Timing cache disabled") starts each build:
        # before graph optimisation in 8.6 and later, before autotuning in 8.0 to 8.5. It tells
        # the phase only where nothing else in the log has (``placement``).
        return UNLOGGED_BUILD if event.opens_builder_pass else None
    if isinstance(event, (ProfileHeader, ProfileColumns, ProfileRow)):
        return "profiling"
    if event.family in ("engine", "memory") and not run_builds:
        # A loaded engine's layers and memory are listed whenever trtexec is asked to.
        return None
    if event.family == "engine" or isinstance(event, EngineLayerInformation):
        return "engine generation and serialisation"
    return _FAMILY_PHASES.get(event.family)


def _bar_phase(event: ProgressUpdate) -> str | None:
    """A bar that starts marks its step; redraws of the bars around it say nothing new."""
    return _PROGRESS_PHASES.get(event.phase) if event.done == 0 else None


def _initialises(event: Event) -> bool:
    """Library set-up, which comes back inside a build (cuBLAS and cuDNN are loaded after graph
    optimisation in 8.x): "[MemUsageChange] Init cuDNN", "Trying to load shared library ...",
    "Using cublasLt as core library tactic source"."""
    if isinstance(event, MemUsageChange):
        return event.what.startswith("Init ")
    if isinstance(event, BuilderNote):
        return event.text.startswith(("Trying to load shared library", "Loaded shared library"))
    return isinstance(event, TacticSource) and event.enabled
