"""Autotuning: format combinations, timing runners, tactic timings and choices, timing cache.

Events of this family that belong to one layer's tuning carry the context the fold links them
to: ``layer`` (the layer being tuned), ``formats`` (the format combination, "in -> out"),
``runner`` and ``runner_id`` (the timing runner), besides the run, build and strategy
every event carries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event, TacticId


@dataclass(frozen=True, slots=True, kw_only=True)
class AutotuningEvent(Event):
    family: ClassVar[str] = "autotuning"
    layer: str | None = None
    formats: str | None = None
    runner: str | None = None
    runner_id: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OptimizationProfile(Event):
    """``Constructing optimization profile number 0 [1/1].``"""

    family: ClassVar[str] = "autotuning"
    profile: int
    index: int
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ComputingCosts(AutotuningEvent):
    """``=============== Computing costs for <layer>`` (the layer is empty in 8.0-8.5) or, with
    ``reformatting`` set, ``=============== Computing reformatting costs[: | for ...]``."""

    reformatting: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class FormatCombination(AutotuningEvent):
    """``*************** Autotuning format combination: Float(...) -> Half(...) ***************``;
    ``reformat`` marks ``Autotuning Reformat:`` lines. ``inputs``/``outputs`` hold one
    ``Type(strides)`` string per tensor and may be empty (Myelin, plugins, shape nodes)."""

    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    reformat: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TimingRunner(AutotuningEvent):
    """``--------------- Timing Runner: <layer> (<runner>[<runner id>])``; 5.x prints
    ``--------------- Timing <layer>(<runner code>)``, kept in ``runner_id``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TacticTiming(AutotuningEvent):
    """One timed tactic; ``time_ms`` is ``None`` when TensorRT printed inf or FLT_MAX.
    ``kernel`` comes from the same line (8.6+) or, once folded, from the ``Set Tactic Name``
    line that preceded it (7.x-8.5)."""

    tactic: TacticId
    time_ms: float | None
    kernel: str | None = None
    kernel_parameters: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TacticSkipped(AutotuningEvent):
    """A tactic that was not timed; ``reason`` is "scratch" (not enough workspace: requested and
    available scratch bytes are set), "only option", "insufficient memory" (8.x-10.x; the
    requested bytes are set where the log gives bytes, 9.x and later), or "time limit" (8.6: its
    pre-run exceeded the time limit, and the time printed for it is that of the pre-run)."""

    tactic: TacticId
    reason: str
    scratch_requested: int | None = None
    scratch_available: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TacticDeviceRequest(AutotuningEvent):
    """``Tactic Device request: 448MB Available: 425MB. Device memory is insufficient to use
    tactic.`` (7.x-8.x, a warning or an error): the device memory a tactic asked for and what
    was free, in bytes (TensorRT's MB are MiB)."""

    requested_bytes: int
    available_bytes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SetTacticName(AutotuningEvent):
    """7.x-8.5's separate kernel-name line: ``<layer> [(<variant>)] Set Tactic Name: <kernel>
    [Tactic: <id>]``. ``subject`` is the layer as printed there, ``variant`` 7.x's cuDNN
    variant in parentheses ("scudnn", "scudnn_winograd")."""

    subject: str | None
    kernel: str
    tactic: TacticId | None = None
    kernel_parameters: str | None = None
    variant: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FastestTactic(AutotuningEvent):
    """``Fastest Tactic: <id> Time: <t>``; 8.6+ fold it into ``<layer> (<runner>) profiling
    completed in <s> seconds. Fastest Tactic: ...``, which also sets ``profiling_seconds``."""

    tactic: TacticId
    time_ms: float | None
    profiling_seconds: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RunnerSkipped(AutotuningEvent):
    """A runner with nothing to time: ``CudaDepthwiseConvolution has no valid tactics for this
    config, skipping`` (8.x) or ``Skipping CaskFlattenConvolution: No valid tactics for <layer>``
    (8.6 and later)."""

    skipped_runner: str
    reason: str = "no valid tactics"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChoseRunner(AutotuningEvent):
    """``>>>>>>>>>>>>>>> Chose Runner Type: <runner> Tactic: <id>``: the choice for the current
    layer and format combination."""

    chosen_runner: str
    tactic: TacticId


@dataclass(frozen=True, slots=True, kw_only=True)
class SparseTactics(Event):
    """A build's layers with 2:4-sparse weights (``choice`` "eligible": "(Sparsity) Found N
    layer(s) eligible to use sparse tactics: a, b" in 10.x, "(Sparsity) Layers eligible for
    sparse math: a, b" in 8.x) or those that got a sparse tactic (``choice`` "chosen": "(Sparsity)
    Chose N layer(s) using sparse tactics: a", "(Sparsity) TRT inference plan picked sparse
    implementation for layers: a"). ``layers`` are engine layer names; ``count`` is the number
    10.x states (None in 8.x)."""

    family: ClassVar[str] = "autotuning"
    choice: str
    layers: tuple[str, ...]
    count: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReformatLayerAdded(Event):
    """``Adding reformat layer: <tensor> (<source>) from <format> to <format>`` (8.2 and later),
    printed once tactics are chosen."""

    family: ClassVar[str] = "autotuning"
    tensor: str
    source: str
    from_format: str
    to_format: str


@dataclass(frozen=True, slots=True, kw_only=True)
class KernelSelected(Event):
    """``Kernel: 0 CASK_STATIC`` (10.x): kernel ``index`` of the engine is of ``kernel_kind``;
    or ``Finalize: <layer> Set kernel index: 0`` (8.6 and later), which sets ``layer``."""

    family: ClassVar[str] = "autotuning"
    index: int
    kernel_kind: str | None = None
    layer: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratedKernelCount(Event):
    """``Total number of generated kernels selected for the engine: 5`` (10.x)."""

    family: ClassVar[str] = "autotuning"
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TacticSource(Event):
    """``Using cublas as a tactic source`` or, 10.x,
    ``Disabling unused tactic source: JIT_CONVOLUTIONS``."""

    family: ClassVar[str] = "autotuning"
    source: str
    role: str | None
    enabled: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class TimingCache(Event):
    """A timing-cache event; ``action`` is "in use", "created" (7.x: the builder's cache at the
    end of a build), "deleted", "unreadable", "invalid", "disabled", "serialized", "saved" or
    "loaded"."""

    family: ClassVar[str] = "autotuning"
    action: str
    scope: str | None = None
    entries: int | None = None
    hits: int | None = None
    size_bytes: int | None = None
    path: str | None = None

    @property
    def opens_builder_pass(self) -> bool:
        """Whether this is the note each builder pass (a build, a 10.x backend strategy) opens
        with: "Local timing cache in use." (8.0 and later), 8.6's "Timing cache disabled."."""
        return self.action in ("in use", "disabled")


@dataclass(frozen=True, slots=True, kw_only=True)
class TimingCacheHit(AutotuningEvent):
    """10.x: ``<layer> [<in> -> <out>] got cached result: <runner>, tactic 0x..., 0.0029 ms``."""

    subject: str
    cached_runner: str
    tactic: TacticId
    time_ms: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TacticPruning(Event):
    """``MatMul-9: 69 available tactics, 44 unparsable, 11 pruned, 14 remaining after tactic
    pruning.`` (8.6 and later)."""

    family: ClassVar[str] = "autotuning"
    layer: str
    available: int
    unparsable: int
    pruned: int
    remaining: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NonConformingImplementation(Event):
    """``For layer X a non-conforming implementation was chosen than was requested ...`` (or,
    under strict constraints, ``No implementation of layer X obeys the requested constraints in
    strict mode. ...``): the layer's requested precision was not honoured."""

    family: ClassVar[str] = "autotuning"
    layer: str
    detail: str | None = None
    strict: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class MissingQuantizationScale(Event):
    """``Missing scale and zero-point for tensor X, expect fall back to non-int8 implementation
    for any layer consuming or producing given tensor``."""

    family: ClassVar[str] = "autotuning"
    tensor: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BackendStrategy(Event):
    """10.x tries several backend strategies and keeps the fastest engine. ``action`` is
    "building", "initial", "chosen" or "skipped"; ``estimated_time`` is the builder's estimate of
    the engine's inference time and ``previous_time`` the estimate it was compared with."""

    family: ClassVar[str] = "autotuning"
    strategy: int
    action: str
    estimated_time: float | None = None
    previous_time: float | None = None
