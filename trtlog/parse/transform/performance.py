"""Inference performance, per-layer profile, output dumps."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

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
from trtlog.parse.transform.context import RecordTransformer


def _float(token: Token | None) -> float | None:
    return None if token is None else float(token)


def profile_row_fields(name: str, numbers: str) -> dict[str, Any]:
    """A profile row's fields from its layer's name and its three or four numbers as printed
    (total, average, [median,] percent), in either layout."""
    values = [float(value) for value in numbers.split()]
    return {
        "layer": str(name).strip(),
        "total_ms": values[0],
        "average_ms": values[1],
        "median_ms": values[2] if len(values) == 4 else None,
        "percent": values[-1],
    }


@v_args(inline=True)
class PerformanceRules(RecordTransformer):
    def perf_statistic(
        self, metric: Token, low: Token, high: Token, mean: Token, median: Token, *percentiles: Any
    ) -> PerfStatistic:
        pairs = tuple(
            (float(percentiles[i]), float(percentiles[i + 1]))
            for i in range(0, len(percentiles), 2)
        )
        return PerfStatistic(
            **self.fields(),
            metric=str(metric),
            min=float(low),
            max=float(high),
            mean=float(mean),
            median=float(median),
            percentiles=pairs,
        )

    def perf_value(self, metric: Token, value: Token, unit: Token) -> PerfValue:
        return PerfValue(**self.fields(), metric=str(metric), value=float(value), unit=str(unit))

    def trace_average(
        self, runs: Token, gpu: Token, host: Token, end_to_end: Token | None, enqueue: Token
    ) -> TraceAverage:
        return TraceAverage(
            **self.fields(),
            runs=int(runs),
            gpu_latency_ms=float(gpu),
            host_latency_ms=float(host),
            end_to_end_ms=_float(end_to_end),
            enqueue_ms=float(enqueue),
        )

    def legacy_perf_header(self, metric: Token) -> LegacyPerfHeader:
        return LegacyPerfHeader(**self.fields(), metric=str(metric))

    def legacy_perf_statistic(
        self, stat: Token, value: Token, end_to_end: Token | None
    ) -> LegacyPerfStatistic:
        return LegacyPerfStatistic(
            **self.fields(), stat=str(stat), value=float(value), end_to_end=_float(end_to_end)
        )

    def legacy_perf_percentile(
        self,
        value: Token,
        percentile: Token,
        end_to_end: Token | None,
        _e2e_percentile: Token | None,
    ) -> LegacyPerfStatistic:
        return LegacyPerfStatistic(
            **self.fields(),
            stat="percentile",
            value=float(value),
            percentile=float(percentile),
            end_to_end=_float(end_to_end),
        )

    def legacy_perf_value(self, stat: Token, value: Token, unit: Token) -> LegacyPerfStatistic:
        return LegacyPerfStatistic(
            **self.fields(), stat=str(stat), value=float(value), unit=str(unit)
        )

    def inference_progress(self, queries: Token, ms: Token) -> InferenceProgress:
        return InferenceProgress(
            **self.fields(), what="warmup", count=int(queries), value=float(ms) / 1000
        )

    def timing_trace(self, queries: Token, seconds: Token) -> InferenceProgress:
        return InferenceProgress(
            **self.fields(), what="timing trace", count=int(queries), value=float(seconds)
        )

    def trace_averages_header(self, runs: Token) -> InferenceProgress:
        return InferenceProgress(**self.fields(), what="trace averages", count=int(runs))

    def inference_binding(self, note: Token, detail: Token) -> InferenceProgress:
        return InferenceProgress(**self.fields(), what=str(note).strip(), detail=str(detail))

    def perf_advice(self, advice: Token) -> PerfAdvice:
        return PerfAdvice(**self.fields(), text=str(advice).strip())

    def perf_advice_detail(self, detail: Token) -> PerfAdviceDetail:
        return PerfAdviceDetail(**self.fields(), text=str(detail).strip())

    def profile_header(self, iterations: Token) -> ProfileHeader:
        return ProfileHeader(**self.fields(), iterations=int(iterations))

    def profile_columns(self, columns: Token) -> ProfileColumns:
        header = str(columns).strip()
        if header.startswith("Time(ms)"):
            layout = "numbers-first"
        elif "Median" in header:
            layout = "name-first-median"
        else:
            layout = "name-first"
        return ProfileColumns(**self.fields(), layout=layout)

    def profile_row(self, name: Token, numbers: Token) -> ProfileRow:
        return ProfileRow(**self.fields(), **profile_row_fields(name, numbers))

    def profile_row_numbers_first(self, numbers: Token, name: Token) -> ProfileRow:
        return ProfileRow(**self.fields(), **profile_row_fields(name, numbers))

    def output_dump(self) -> OutputDump:
        return OutputDump(**self.fields(), what="title")

    def output_tensor(self, name: Token, shape: Token) -> OutputDump:
        return OutputDump(**self.fields(), what="tensor", tensor=str(name), shape=str(shape))

    def output_values(self, values: Token) -> OutputDump:
        return OutputDump(**self.fields(), what="values", value_count=len(values.split()))

    def trace_lines_omitted(self, count: Token) -> InferenceProgress:
        return InferenceProgress(**self.fields(), what="omitted trace lines", count=int(count))
