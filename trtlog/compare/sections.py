"""The sections of a comparison of two builds, each a table with the first build's value, the
second's and what changed."""

from __future__ import annotations

import math

import pandas as pd

from trtlog.analysis.buildlog import BuildLog
from trtlog.analysis.names import reformat_target
from trtlog.compare.match import pair_layers

# The per-layer facts whose change a comparison reports.
LAYER_FACTS = (
    "layer_type",
    "precision",
    "tactic",
    "kernel",
    "input_formats_short",
    "output_formats_short",
)
# trtexec sections whose options describe how the engine was built and run.
OPTION_SECTIONS = ("Model Options", "Build Options", "Inference Options", "System Options")
# Performance metrics where a larger value is better; for all others (times) smaller is.
LARGER_IS_BETTER = ("throughput_qps",)
# trtexec's totals over its measuring window (--duration, 3 s by default): not a cost.
WINDOW_TOTALS = ("total_host_walltime_s", "total_gpu_compute_time_s")
# The inference options that set how much work one query is: the batch (implicit batch) and the
# input shapes ("Input inference shape: x=4x3x224x224", per input).
_WORKLOAD_KEYS = ("Batch", "Input inference shape")
# Two runs of one engine differ by about a percent in their timings (clocks, other work on the
# GPU): a performance figure that moved by less than this many percent is called "within
# noise", neither worse nor better (``trtlog diff --noise``).
NOISE_PERCENT = 1.0


def _value(value: object) -> object:
    """A cell as a plain Python value, missing values as None."""
    if hasattr(value, "item"):  # numpy and pandas scalars
        value = value.item()
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def _delta_row(name: str, a: object, b: object) -> dict[str, object]:
    a, b = _value(a), _value(b)
    row: dict[str, object] = {"item": name, "a": a, "b": b, "changed": a != b}
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if isinstance(a, float) or isinstance(b, float):
            # Sums of the same durations added in another order differ in their last bits:
            # no change, not a change of 1e-16.
            if math.isclose(a, b, rel_tol=_FLOAT_NOISE, abs_tol=_FLOAT_NOISE):
                b = a
                row["changed"] = False
        row["delta"] = b - a
        row["percent"] = 100 * (b - a) / a if a else None
    return row


# Below this relative difference two figures computed from the same log lines are equal.
_FLOAT_NOISE = 1e-9


def overview(a: BuildLog, b: BuildLog) -> pd.DataFrame:
    summary_a, summary_b = a.summary, b.summary
    rows = [
        _delta_row("source", a.source, b.source),
        _delta_row("TensorRT", summary_a.tensorrt_version, summary_b.tensorrt_version),
        _delta_row("GPU", summary_a.gpu, summary_b.gpu),
        _delta_row("precision", summary_a.precision_text(), summary_b.precision_text()),
        _delta_row("builds", summary_a.builds, summary_b.builds),
        _delta_row("build seconds", summary_a.build_seconds, summary_b.build_seconds),
        _delta_row("engine layers", len(a.layers), len(b.layers)),
        _delta_row("tactics timed", len(a.tactics), len(b.tactics)),
    ]
    rows[0]["changed"] = False  # two builds come from two files
    columns = ["item", "a", "b", "changed", "delta", "percent"]
    return pd.DataFrame(rows, columns=columns)


def options(a: BuildLog, b: BuildLog) -> pd.DataFrame:
    """The build, model, inference and system options whose values differ."""

    def keyed(log: BuildLog) -> dict[tuple[str, str], str]:
        table = log.options[log.options["section"].isin(OPTION_SECTIONS)]
        return {(row.section, row.key): row.value for row in table.itertuples(index=False)}

    values_a, values_b = keyed(a), keyed(b)
    rows = [
        {"section": key[0], "key": key[1], "a": values_a.get(key), "b": values_b.get(key)}
        for key in dict.fromkeys([*values_a, *values_b])
        if values_a.get(key) != values_b.get(key)
    ]
    return pd.DataFrame(rows, columns=["section", "key", "a", "b"])


def stages(a: BuildLog, b: BuildLog) -> pd.DataFrame:
    """The layer count stage by stage, lined up by backend strategy and stage name (a stage
    run several times, such as "dupe layer removal", by its first, second... run), never by
    step number: a build that adds or skips a stage shifts every step after it."""
    key = ["strategy", "stage", "occurrence"]

    def keyed(log: BuildLog) -> pd.DataFrame:
        table = log.stages[["build", "strategy", "step", "stage", "layers"]].copy()
        grouped = table.groupby(["build", "strategy", "stage"], dropna=False, sort=False)
        table["occurrence"] = grouped.cumcount() + 1
        return table.drop(columns=["build"])

    merged = pd.merge(keyed(a), keyed(b), on=key, how="outer", suffixes=("_a", "_b"))
    merged["change"] = merged["layers_b"] - merged["layers_a"]
    merged["changed"] = merged["change"].fillna(1) != 0
    merged["order"] = merged["step_a"].fillna(merged["step_b"])
    merged = merged.sort_values(["strategy", "order", "step_b"], na_position="first")
    columns = ["strategy", "stage", "occurrence", "layers_a", "layers_b", "change", "changed"]
    return merged[columns].reset_index(drop=True)


def fusions(a: BuildLog, b: BuildLog) -> pd.DataFrame:
    """Fusions one build made and the other did not."""
    keys = ["pass_name", "first", "second"]

    def fused(log: BuildLog) -> set[tuple[object, ...]]:
        return {
            tuple(_value(value) for value in row)
            for row in log.fusions[keys].itertuples(index=False)
        }

    only_a, only_b = fused(a) - fused(b), fused(b) - fused(a)
    rows = [dict(zip(keys, key, strict=True), only_in="a") for key in sorted(only_a, key=str)]
    rows += [dict(zip(keys, key, strict=True), only_in="b") for key in sorted(only_b, key=str)]
    return pd.DataFrame(rows, columns=["only_in", *keys])


def layers(a: BuildLog, b: BuildLog) -> pd.DataFrame:
    """Every engine layer of either build: paired, added, removed, changed or the same."""
    first, second = a.layers.reset_index(drop=True), b.layers.reset_index(drop=True)
    rows = []
    for pair in pair_layers(first, second):
        left = first.iloc[pair.a] if pair.a is not None else None
        right = second.iloc[pair.b] if pair.b is not None else None
        changes = [] if left is None or right is None else _changes(left, right)
        status = (
            "removed"
            if right is None
            else "added"
            if left is None
            else "changed"
            if changes
            else "same"
        )
        rows.append(
            {
                "status": status,
                "name_a": None if left is None else left["name"],
                "name_b": None if right is None else right["name"],
                "matched_by": pair.by,
                "changes": "; ".join(changes) or None,
                "time_a": None if left is None else _value(left["time_ms"]),
                "time_b": None if right is None else _value(right["time_ms"]),
            }
        )
    frame = pd.DataFrame(
        rows, columns=["status", "name_a", "name_b", "matched_by", "changes", "time_a", "time_b"]
    )
    frame["delta_ms"] = frame["time_b"].astype("float64") - frame["time_a"].astype("float64")
    return frame


def _changes(left: pd.Series, right: pd.Series) -> list[str]:
    changes = []
    for fact in LAYER_FACTS:
        before, after = _value(left[fact]), _value(right[fact])
        if before is not None and after is not None and before != after:
            changes.append(f"{fact}: {before} -> {after}")
    return changes


def reformats(layer_changes: pd.DataFrame) -> pd.DataFrame:
    """The reformat layers of either build, paired where they can be, with their cost."""
    is_reformat = [
        _is_reformat(first) or _is_reformat(second)
        for first, second in zip(layer_changes["name_a"], layer_changes["name_b"], strict=True)
    ]
    return layer_changes.loc[is_reformat].reset_index(drop=True)


def _is_reformat(name: object) -> bool:
    return isinstance(name, str) and reformat_target(name) is not None


def memory(a: BuildLog, b: BuildLog) -> pd.DataFrame:
    """Memory totals of each build's last pass (host, device, scratch, activation, weights)."""

    def totals(log: BuildLog) -> dict[str, object]:
        table = log.memory_totals[log.memory_totals["kind"] == "total"]
        return {row.item: row.bytes for row in table.itertuples(index=False)}

    values_a, values_b = totals(a), totals(b)
    rows = [
        _delta_row(item, values_a.get(item), values_b.get(item))
        for item in dict.fromkeys([*values_a, *values_b])
    ]
    return pd.DataFrame(rows, columns=["item", "a", "b", "changed", "delta", "percent"])


def timeline(a: BuildLog, b: BuildLog) -> pd.DataFrame:
    """Seconds per phase (all builds and runs together) and per build total."""

    def seconds(log: BuildLog) -> dict[str, float]:
        table = log.timeline
        phases = (
            table[table["level"] == "phase"]
            .groupby("phase", sort=False)["seconds"]
            .sum(min_count=1)
        )
        totals = (
            table[table["level"] == "total"]
            .groupby("phase", sort=False)["seconds"]
            .sum(min_count=1)
        )
        return {**phases.to_dict(), **{f"total: {name}": value for name, value in totals.items()}}

    values_a, values_b = seconds(a), seconds(b)
    rows = [
        _delta_row(item, values_a.get(item), values_b.get(item))
        for item in dict.fromkeys([*values_a, *values_b])
    ]
    return pd.DataFrame(rows, columns=["item", "a", "b", "changed", "delta", "percent"])


def perf(a: BuildLog, b: BuildLog, noise_percent: float = NOISE_PERCENT) -> pd.DataFrame:
    """The performance summary of each log's last run, metric by metric; ``verdict`` says
    "worse" (lower throughput, longer times), "better" or "within noise" (a change of less
    than ``noise_percent`` percent), or "not comparable" (runs with another batch or other input
    shapes), none for the totals over trtexec's measuring window; ``worse`` marks a regression
    beyond the noise."""

    def last_run(log: BuildLog) -> dict[str, object]:
        table = log.perf
        if table.empty:
            return {}
        row = table.iloc[-1]
        return {str(key): row[key] for key in table.columns if key not in ("run", "trace_averages")}

    values_a, values_b = last_run(a), last_run(b)
    # A query of another batch or shape is another amount of work: its times and its rate
    # (trtexec counts queries, not samples) compare with nothing. Options printed by both logs
    # are compared: 10.x's "Input inference shapes: model" names no shape.
    workload_a, workload_b = _workload(a), _workload(b)
    comparable = all(workload_a[key] == workload_b[key] for key in workload_a.keys() & workload_b)
    rows = []
    for metric in dict.fromkeys([*values_a, *values_b]):
        row = _delta_row(metric, values_a.get(metric), values_b.get(metric))
        verdict = _verdict(metric, row.get("delta"), row.get("percent"), noise_percent)
        if metric in WINDOW_TOTALS:
            verdict = None
        elif verdict is not None and not comparable:
            verdict = "not comparable"
        row["verdict"] = verdict
        if verdict is not None:
            row["worse"] = verdict == "worse"
        rows.append(row)
    columns = ["item", "a", "b", "changed", "delta", "percent", "verdict", "worse"]
    return pd.DataFrame(rows, columns=columns)


def _workload(log: BuildLog) -> dict[str, str]:
    """The batch and input shapes the log's runs inferred with (trtexec's Inference Options)."""
    options = log.options
    if options.empty:
        return {}
    inference = options[options["section"] == "Inference Options"]
    return {
        str(key): str(value)
        for key, value in zip(inference["key"], inference["value"], strict=True)
        if str(key).startswith(_WORKLOAD_KEYS)
    }


def _verdict(metric: str, delta: object, percent: object, noise_percent: float) -> str | None:
    if not isinstance(delta, (int, float)):
        return None
    if delta == 0 or (isinstance(percent, (int, float)) and abs(percent) < noise_percent):
        return "within noise"
    larger = delta > 0
    return "better" if larger == (metric in LARGER_IS_BETTER) else "worse"


def profile(layer_changes: pd.DataFrame) -> pd.DataFrame:
    """Profiled time of the paired layers, the largest regressions first."""
    timed = layer_changes[layer_changes["time_a"].notna() & layer_changes["time_b"].notna()].copy()
    timed["percent"] = (
        100 * timed["delta_ms"] / timed["time_a"].astype("float64").where(timed["time_a"] != 0)
    )
    columns = ["name_a", "name_b", "time_a", "time_b", "delta_ms", "percent"]
    return timed.sort_values("delta_ms", ascending=False)[columns].reset_index(drop=True)
