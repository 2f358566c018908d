"""Inference performance: the summary of each run and the per-layer profile.

``perf`` has one row per trtexec run that reports performance (a second performance summary
within one run counts as a run of its own): ``run`` (from 0), ``throughput_qps``,
``total_host_walltime_s``, ``total_gpu_compute_time_s``, ``trace_averages`` (number of
"Average on N runs" lines), and for each metric printed (``latency``, ``end_to_end_host_latency``,
``enqueue_time``, ``h2d_latency``, ``gpu_compute_time``, ``d2h_latency``) the columns
``<metric>_min_ms``, ``_max_ms``, ``_mean_ms``, ``_median_ms`` and ``_p<N>_ms`` per percentile.
7.1's per-metric blocks map onto the same columns ("Host Latency" is ``latency``, its "end to end"
figures ``end_to_end_host_latency``, "GPU Compute" ``gpu_compute_time``).

``profile`` columns: ``run`` (a second profile within one run, from an export file, counts as
a run of its own), ``iterations``, ``layer``, ``total_ms``, ``average_ms``,
``median_ms`` (missing before 8.4), ``percent``, ``line``; the "Total" row is left out.

``times`` has one row per iteration of ``--exportTimes`` (milliseconds from the start of the
timing run): ``iteration``, ``start_enqueue_ms``, ``end_enqueue_ms``, ``start_h2d_ms``,
``end_h2d_ms``, ``start_compute_ms``, ``end_compute_ms``, ``start_d2h_ms``, ``end_d2h_ms``,
``h2d_ms``, ``compute_ms``, ``d2h_ms``, ``latency_ms``, ``end_to_end_ms`` (7.1 only).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.columns import with_types
from trtlog.events import (
    Event,
    IterationTiming,
    LegacyPerfStatistic,
    PerfStatistic,
    PerfValue,
    ProfileHeader,
    ProfileRow,
    RunHeader,
    SectionHeader,
    TraceAverage,
)
from trtlog.events.index import indexed

PROFILE_COLUMNS = [
    "run",
    "iterations",
    "layer",
    "total_ms",
    "average_ms",
    "median_ms",
    "percent",
    "line",
]
_VALUE_COLUMNS = {
    "Throughput": "throughput_qps",
    "Total Host Walltime": "total_host_walltime_s",
    "Total GPU Compute Time": "total_gpu_compute_time_s",
    "throughput": "throughput_qps",
    "walltime": "total_host_walltime_s",
    "total compute time": "total_gpu_compute_time_s",
}
_LEADING = [
    "run",
    "throughput_qps",
    "total_host_walltime_s",
    "total_gpu_compute_time_s",
    "trace_averages",
]
_LEGACY_METRICS = {
    "Host Latency": "latency",
    "GPU Compute": "gpu_compute_time",
    "Enqueue Time": "enqueue_time",
}


def _metric_column(metric: str) -> str:
    return metric.lower().replace("-", "_").replace(" ", "_")


def _percentile(value: float) -> str:
    return f"p{value:g}"


def perf_table(events: Sequence[Event]) -> pd.DataFrame:
    runs: dict[int, dict[str, object]] = {}
    run = 0
    seen_header = False
    summarised = False  # whether this run already has a performance summary
    kinds = (RunHeader, SectionHeader, PerfStatistic, PerfValue, TraceAverage, LegacyPerfStatistic)
    for event in indexed(events).of(*kinds):
        if isinstance(event, RunHeader):
            run += 1 if seen_header else 0
            seen_header = True
            summarised = False
            continue
        if isinstance(event, SectionHeader):
            if event.title == "Performance summary":
                # trtexec prints one summary per run: a second one is another run's, pasted
                # without its "&&&& RUNNING" line.
                run += 1 if summarised else 0
                summarised = True
            continue
        if isinstance(event, TraceAverage) and summarised:
            # That run's trace averages come before its summary.
            run += 1
            summarised = False
        row = runs.setdefault(run, {"run": run, "trace_averages": 0})
        averages = row["trace_averages"]
        assert isinstance(averages, int)
        if isinstance(event, PerfStatistic):
            prefix = _metric_column(event.metric)
            for stat in ("min", "max", "mean", "median"):
                row[f"{prefix}_{stat}_ms"] = getattr(event, stat)
            for percentile, value in event.percentiles:
                row[f"{prefix}_{_percentile(percentile)}_ms"] = value
        elif isinstance(event, PerfValue):
            row[_VALUE_COLUMNS[event.metric]] = event.value
        elif isinstance(event, TraceAverage):
            row["trace_averages"] = averages + 1
        elif isinstance(event, LegacyPerfStatistic):
            _legacy(row, event)
    rows = [row for row in runs.values() if len(row) > 2 or row["trace_averages"]]
    frame = pd.DataFrame(rows, columns=None if rows else _LEADING)
    ordered = [column for column in _LEADING if column in frame.columns]
    return frame[ordered + [column for column in frame.columns if column not in ordered]]


def _legacy(row: dict[str, object], event: LegacyPerfStatistic) -> None:
    if event.stat in _VALUE_COLUMNS:
        row[_VALUE_COLUMNS[event.stat]] = event.value
        return
    prefix = _LEGACY_METRICS.get(event.metric or "", _metric_column(event.metric or "unknown"))
    stat = _percentile(event.percentile) if event.percentile is not None else event.stat
    row[f"{prefix}_{stat}_ms"] = event.value
    if event.end_to_end is not None:
        row[f"end_to_end_host_latency_{stat}_ms"] = event.end_to_end


def profile_table(events: Sequence[Event]) -> pd.DataFrame:
    rows: list[dict[str, object]] = []
    run = 0
    seen_header = False
    profiled = False  # whether this run already has a profile
    iterations: int | None = None
    for event in indexed(events).of(RunHeader, ProfileHeader, ProfileRow):
        if isinstance(event, RunHeader):
            run += 1 if seen_header else 0
            seen_header = True
            profiled = False
        elif isinstance(event, ProfileHeader):
            # A second profile in one run is a run of its own: trtexec 7.1 appends every run's
            # --exportProfile to one file, and an exported profile follows the log's.
            run += 1 if profiled else 0
            profiled = True
            iterations = event.iterations
        elif isinstance(event, ProfileRow) and event.layer != "Total":
            rows.append(
                {
                    "run": run,
                    "iterations": iterations,
                    "layer": event.layer,
                    "total_ms": event.total_ms,
                    "average_ms": event.average_ms,
                    "median_ms": event.median_ms,
                    "percent": event.percent,
                    "line": event.line,
                }
            )
    frame = pd.DataFrame(rows, columns=PROFILE_COLUMNS)
    return with_types(frame, {"iterations": "Int64", "median_ms": "float64"})


TIMES_COLUMNS = [
    "iteration",
    "start_enqueue_ms",
    "end_enqueue_ms",
    "start_h2d_ms",
    "end_h2d_ms",
    "start_compute_ms",
    "end_compute_ms",
    "start_d2h_ms",
    "end_d2h_ms",
    "h2d_ms",
    "compute_ms",
    "d2h_ms",
    "latency_ms",
    "end_to_end_ms",
]


def times_table(events: Sequence[Event]) -> pd.DataFrame:
    rows = [
        {column: getattr(event, column) for column in TIMES_COLUMNS}
        for event in indexed(events).of(IterationTiming)
    ]
    frame = pd.DataFrame(rows, columns=TIMES_COLUMNS)
    return with_types(frame, {"iteration": "int64", **dict.fromkeys(TIMES_COLUMNS[1:], "float64")})
