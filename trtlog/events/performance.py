"""Inference performance: summary, trace averages, advice, per-layer profile, output dumps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class PerfStatistic(Event):
    """``Latency: min = ..., max = ..., mean = ..., median = ..., percentile(99%) = ... ms``.
    ``percentiles`` pairs each percentile with its value, in print order. Milliseconds."""

    family: ClassVar[str] = "performance"
    metric: str
    min: float
    max: float
    mean: float
    median: float
    percentiles: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PerfValue(Event):
    """``Throughput: 3406.14 qps``, ``Total Host Walltime: 3.00046 s``,
    ``Total GPU Compute Time: 2.98676 s``."""

    family: ClassVar[str] = "performance"
    metric: str
    value: float
    unit: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TraceAverage(Event):
    """``Average on 10 runs - GPU latency: 2.21 ms - Host latency: 3.39 ms (enqueue 0.93 ms)``."""

    family: ClassVar[str] = "performance"
    runs: int
    gpu_latency_ms: float
    host_latency_ms: float
    enqueue_ms: float
    end_to_end_ms: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LegacyPerfHeader(Event):
    """7.1's per-metric block title: ``Host Latency``, ``Enqueue Time`` or ``GPU Compute``."""

    family: ClassVar[str] = "performance"
    metric: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LegacyPerfStatistic(Event):
    """A 7.1 statistic line: ``min: 1.99 ms (end to end 2.00 ms)``, ``percentile: 2.53 ms at 99%
    (end to end ...)``, ``throughput: 479.452 qps``. ``metric`` is the block it belongs to
    (set when folded); ``percentile`` is set for percentile lines."""

    family: ClassVar[str] = "performance"
    stat: str
    value: float
    unit: str = "ms"
    end_to_end: float | None = None
    percentile: float | None = None
    metric: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class InferenceProgress(Event):
    """Bookkeeping of trtexec's inference run: warm-up, timing trace, trace-average header,
    bindings. ``what`` names the message; ``count`` and ``value`` hold its figures."""

    family: ClassVar[str] = "performance"
    what: str
    count: int | None = None
    value: float | None = None
    detail: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PerfAdvice(Event):
    """``* GPU compute time is unstable, with coefficient of variance = 76.9519%.``"""

    family: ClassVar[str] = "performance"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PerfAdviceDetail(Event):
    """The indented line under a piece of advice: ``  If not already in use, locking GPU ...``."""

    family: ClassVar[str] = "performance"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileHeader(Event):
    """``=== Profile (1941 iterations ) ===``."""

    family: ClassVar[str] = "performance"
    iterations: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileColumns(Event):
    """The profile's column header; ``layout`` is "name-first" (8.2 and earlier),
    "name-first-median" (8.4-8.5) or "numbers-first" (8.6 and later)."""

    family: ClassVar[str] = "performance"
    layout: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileRow(Event):
    """One row of the per-layer profile (``layer`` "Total" for the footer). Milliseconds and
    percent; ``median_ms`` is ``None`` in the 8.2-and-earlier layout."""

    family: ClassVar[str] = "performance"
    layer: str
    total_ms: float
    average_ms: float
    median_ms: float | None
    percent: float


@dataclass(frozen=True, slots=True, kw_only=True)
class IterationTiming(Event):
    """One inference iteration from ``trtexec --exportTimes`` (milliseconds from the start of
    the timing run). 8.x-10.x name the copies ``h2d``/``d2h``; 7.1 named them ``in``/``out``
    and added ``end_to_end_ms`` (enqueue start to output end)."""

    family: ClassVar[str] = "performance"
    iteration: int
    start_enqueue_ms: float | None = None
    end_enqueue_ms: float | None = None
    start_h2d_ms: float | None = None
    end_h2d_ms: float | None = None
    start_compute_ms: float | None = None
    end_compute_ms: float | None = None
    start_d2h_ms: float | None = None
    end_d2h_ms: float | None = None
    h2d_ms: float | None = None
    compute_ms: float | None = None
    d2h_ms: float | None = None
    latency_ms: float | None = None
    end_to_end_ms: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OutputDump(Event):
    """``--dumpOutput``: the ``Output Tensors:`` title, ``output0: (1x1000)``, or a row of values
    (``value_count`` of them)."""

    family: ClassVar[str] = "performance"
    what: str
    tensor: str | None = None
    shape: str | None = None
    value_count: int = 0


# The lines of trtexec's reports: its performance summary (7.x's and later ones), its trace
# averages and its per-layer profile.
REPORT_EVENTS = frozenset(
    {
        PerfStatistic,
        PerfValue,
        TraceAverage,
        LegacyPerfHeader,
        LegacyPerfStatistic,
        ProfileHeader,
        ProfileColumns,
        ProfileRow,
    }
)
