"""The views the query commands show, built from a BuildLog's tables."""

from __future__ import annotations

import difflib
import re

import pandas as pd

from trtlog.analysis.buildlog import BuildLog
from trtlog.analysis.names import original_layers


class NoMatch(Exception):
    """A ``--layer`` pattern matched no layer; the message names the closest ones."""


def match_layers(names: list[str], pattern: str, holding: str = "layers") -> list[str]:
    """Layers named exactly ``pattern``; else containing it; else matching it as a regex; else
    the same two ignoring case. ``holding`` says what the names come from, for the error when
    there are none."""
    known = dict.fromkeys(names)
    unique = [name for name in known if isinstance(name, str)]
    if not unique:
        raise NoMatch(f"no layer matches {pattern!r}: this log has no {holding}")
    if pattern in known:
        return [pattern]
    contained = [name for name in unique if pattern in name]
    if contained:
        return contained
    matched = _matching(unique, pattern, 0)
    if matched:
        return matched
    folded = pattern.casefold()
    contained = [name for name in unique if folded in name.casefold()]
    if contained:
        return contained
    matched = _matching(unique, pattern, re.IGNORECASE)
    if matched:
        return matched
    closest = closest_names(pattern, unique)
    hint = f"; closest: {', '.join(closest)}" if closest else ""
    raise NoMatch(f"no layer matches {pattern!r}{hint}")


def _matching(names: list[str], pattern: str, flags: int) -> list[str]:
    """The names that ``pattern``, as a regular expression, finds in; none if it is not one."""
    try:
        expression = re.compile(pattern, flags)
    except re.error:
        return []
    return [name for name in names if expression.search(name)]


# Above this many names, they are first compared by their shape (``closest_names``).
_COMPARED_ONE_BY_ONE = 2000
_NUMBERS = re.compile(r"\d+")
_LEAST_LIKENESS = 0.3


def closest_names(pattern: str, names: list[str], count: int = 5) -> list[str]:
    """Up to ``count`` of the distinct ``names`` most like ``pattern`` (difflib's ratio, at
    least 0.3), the closest first.

    A large build names tens of thousands of layers that differ only in their numbers
    ("/model/layers.17/mlp/MatMul"), and difflib compares them one by one in Python, seconds
    for such a build. So many names are compared by their shape
    first (numbers left out), and then only the names of the closest shapes by themselves.
    """
    if len(names) <= _COMPARED_ONE_BY_ONE:
        return difflib.get_close_matches(pattern, names, n=count, cutoff=_LEAST_LIKENESS)
    by_shape: dict[str, list[str]] = {}
    for name in names:
        by_shape.setdefault(_NUMBERS.sub("#", name), []).append(name)
    shapes = difflib.get_close_matches(
        _NUMBERS.sub("#", pattern), list(by_shape), n=count, cutoff=_LEAST_LIKENESS
    )
    candidates = [name for shape in shapes for name in by_shape[shape]]
    return difflib.get_close_matches(
        pattern, candidates[:_COMPARED_ONE_BY_ONE], n=count, cutoff=_LEAST_LIKENESS
    )


# What identifies an implementation: the layer, its formats, the runner, the tactic, its kernel.
_IMPLEMENTATION = ["layer", "formats", "runner", "tactic", "kernel"]


def tactics_of_layers(log: BuildLog, pattern: str) -> pd.DataFrame:
    """Every tactic timed for the matching layers, per format combination and fastest first,
    with how far each is behind the combination's best, the chosen ones marked, and the one
    the engine runs."""
    matched = match_layers(log.distinct("tactics", "layer"), pattern, "tactic timings")
    rows = log.rows_where("tactics", "layer", matched).copy()
    best = rows.groupby("combination")["time_ms"].transform("min")
    rows["behind_best_percent"] = (rows["time_ms"] - best) / best * 100
    rows = rows.sort_values(["combination", "time_ms"], na_position="last")
    columns = [
        "build",
        *_IMPLEMENTATION,
        "time_ms",
        "behind_best_percent",
        "chosen",
        "in_engine",
        "line",
    ]
    return rows[columns].reset_index(drop=True)


def layer_choices(log: BuildLog, pattern: str) -> pd.DataFrame:
    """For the matching layers, the tactic chosen in each format combination and how close
    the runner-up came."""
    names = log.distinct("tactics", "layer") + log.distinct("choices", "layer")
    matched = match_layers(names, pattern, "tactic timings")
    rows = log.rows_where("choices", "layer", matched)
    columns = [
        "build",
        *_IMPLEMENTATION,
        "best_ms",
        "runner_up_tactic",
        "runner_up_ms",
        "gap_percent",
        "tactics_tried",
        "in_engine",
    ]
    return rows[columns].reset_index(drop=True)


_CHOICE_ORDER = {
    # slowest chosen tactic first: the layers that cost most
    "time": ("best_ms", False),
    # closest call first: where another tactic nearly won
    "gap": ("gap_percent", True),
    # most tactics timed first: where tuning time went
    "tried": ("tactics_tried", False),
}


def choices_view(log: BuildLog, sort: str = "time", top: int | None = None) -> pd.DataFrame:
    column, ascending = _CHOICE_ORDER[sort]
    view = log.choices.sort_values(column, ascending=ascending, na_position="last")
    columns = [
        "build",
        *_IMPLEMENTATION,
        "best_ms",
        "runner_up_ms",
        "gap_percent",
        "tactics_tried",
        "runners_tried",
        "runners_skipped",
        "tuning_seconds",
        "in_engine",
    ]
    view = view[columns]
    return (view.head(top) if top else view).reset_index(drop=True)


def fusions_view(log: BuildLog, pattern: str | None = None) -> pd.DataFrame:
    """Each engine layer of each build with the network layers it holds (and how that was
    found); with ``pattern``, the whole engine layers that hold a matching layer or are named
    by it, with every layer fused with it."""
    provenance = log.provenance
    reported = _unlisted_fusions(log, provenance)
    if len(reported):
        both = [provenance, reported] if len(provenance) else [reported]
        provenance = pd.concat(both, ignore_index=True)
    if pattern:
        names = list(provenance["engine_layer"]) + list(provenance["original_layer"])
        matched = set(match_layers(names, pattern, "engine layers"))
        holding = provenance["engine_layer"].isin(matched) | provenance["original_layer"].isin(
            matched
        )
        holders = provenance.loc[holding, ["build", "engine_layer"]].drop_duplicates()
        provenance = provenance.merge(holders, on=["build", "engine_layer"])
    grouped = provenance.groupby(["build", "engine_layer"], sort=False, dropna=False).agg(
        original_layers=("original_layer", lambda parts: ", ".join(parts.dropna())),
        count=("original_layer", "count"),
        via=("via", lambda ways: ", ".join(dict.fromkeys(ways))),
        line=("line", "first"),
    )
    return grouped.reset_index()


def _unlisted_fusions(log: BuildLog, provenance: pd.DataFrame) -> pd.DataFrame:
    """Provenance rows for the layers the builder's fusion passes made ("Fusing conv1 with
    relu1") in a build whose engine layers the log does not list, each as its last fusion left
    it (via "fusion pass"): all that such a log (5.x-7.x, an excerpt) says of what fused."""
    fusions = log.fusions
    if fusions.empty:
        return provenance.iloc[0:0]
    # A build whose engine layers the log lists: what its passes made and no engine layer
    # holds was folded or removed later ("constant1024 + (Unnamed Layer* 11) [Shuffle]").
    listed = set(provenance.loc[provenance["via"] != "tuning", "build"].tolist())
    fusions = fusions[~fusions["build"].isin(listed)]
    builds = fusions["build"].tolist()
    named = set(zip(provenance["build"].tolist(), provenance["engine_layer"].tolist(), strict=True))
    consumed = set(zip(builds, fusions["first"].tolist(), strict=True))
    consumed |= set(zip(builds, fusions["second"].tolist(), strict=True))
    rows: list[dict[str, object]] = []
    for fusion in fusions[fusions["engine_layer"].isna()].itertuples(index=False):
        build = None if pd.isna(fusion.build) else fusion.build
        key = (fusion.build, fusion.result)
        if key in named or key in consumed or fusion.relation == "weights":
            continue
        named.add(key)
        where = {"run": fusion.run, "build": build, "engine_layer": fusion.result}
        rows.extend(
            {**where, "original_layer": part.name, "via": "fusion pass", "line": fusion.line}
            for part in original_layers(fusion.result)
        )
    frame = pd.DataFrame(rows, columns=provenance.columns)
    return frame.astype({"run": "Int64", "build": "Int64", "line": "Int64"})


def layers_view(log: BuildLog, precision: str | None = None) -> pd.DataFrame:
    layers = log.layers
    if precision:
        layers = layers[layers["precision"].str.lower() == precision.lower()]
    columns = [
        "build",
        "name",
        "layer_type",
        "precision",
        "input_formats",
        "output_formats",
        "kernel",
        "tactic",
        "tactic_ms",
        "time_ms",
        "percent",
    ]
    return layers[columns].reset_index(drop=True)


def memory_view(log: BuildLog) -> pd.DataFrame:
    return log.memory.drop(columns=["line"])


def totals_view(log: BuildLog) -> pd.DataFrame:
    totals = log.memory_totals
    return totals[totals["kind"].isin(["total", "peak"])].drop(columns=["line"])


# Columns of the perf table that count lines of the log rather than measure the engine.
_PERF_BOOKKEEPING = frozenset({"run", "trace_averages"})
_PERF_UNITS = (("_qps", "qps"), ("_s", "s"), ("_ms", "ms"))


def perf_view(log: BuildLog) -> pd.DataFrame:
    """The performance summary, one row per metric with its unit: single figures (throughput
    in qps, walltimes in s) in ``value``, timed metrics (latency, GPU compute time, ...) in ms
    as min, max, mean, median and percentiles."""
    perf = log.perf
    rows = []
    for _, run in perf.iterrows():
        number = int(run["run"])
        metrics: dict[str, dict[str, object]] = {}
        for column, value in run.items():
            name = str(column)
            if name in _PERF_BOOKKEEPING or pd.isna(value):
                continue
            if name.endswith("_ms"):
                metric, _, statistic = name[: -len("_ms")].rpartition("_")
                row = metrics.setdefault(metric, {"run": number, "metric": metric, "unit": "ms"})
                row[statistic] = value
                continue
            unit = next((unit for suffix, unit in _PERF_UNITS if name.endswith(suffix)), "")
            metric = name.removesuffix(f"_{unit}") if unit else name
            rows.append({"run": number, "metric": metric, "unit": unit, "value": value})
        rows.extend(metrics.values())
    return pd.DataFrame(rows)


def stages_view(log: BuildLog) -> pd.DataFrame:
    return log.stages.drop(columns=["line"])


def reformats_view(log: BuildLog) -> pd.DataFrame:
    return log.reformats.drop(columns=["line"])


def warnings_view(log: BuildLog) -> pd.DataFrame:
    return log.warnings.sort_values(["severity", "count"], ascending=[True, False]).reset_index(
        drop=True
    )


def profile_view(log: BuildLog) -> pd.DataFrame:
    return log.profile.drop(columns=["line"])


def timeline_view(log: BuildLog) -> pd.DataFrame:
    """The phases of each run and build in order, then the totals."""
    timeline = log.timeline
    rows = timeline[timeline["level"] != "layer"].copy()
    named = rows["reported_as"].notna()
    rows.loc[named, "source"] = rows["source"].fillna("") + ": " + rows["reported_as"]
    rows["lines"] = rows["first_line"].astype(str) + "-" + rows["last_line"].astype(str)
    columns = ["run", "build", "phase", "start_s", "end_s", "seconds", "source", "lines"]
    return rows[columns].reset_index(drop=True)


def tuning_view(log: BuildLog, top: int | None = 10) -> pd.DataFrame:
    """The layers that took longest to tune."""
    timeline = log.timeline
    layers = timeline[timeline["level"] == "layer"].sort_values(
        "seconds", ascending=False, na_position="last", kind="stable"
    )
    columns = ["build", "layer", "start_s", "end_s", "seconds", "source", "tactics"]
    return (layers.head(top) if top else layers)[columns].reset_index(drop=True)


def tuning_share_view(log: BuildLog) -> pd.DataFrame:
    """Per build: its time, the time spent autotuning and the share that is."""
    timeline = log.timeline
    rows = []
    totals = timeline[(timeline["level"] == "total") & (timeline["phase"] == "build")]
    for total in totals.itertuples():
        phases = timeline[
            (timeline["level"] == "phase")
            & (timeline["run"] == total.run)
            & (timeline["build"] == total.build)
        ]
        tuning = phases[phases["phase"] == "autotuning"]["seconds"]
        tuned = float(tuning.sum()) if tuning.notna().any() else None
        seconds = float(total.seconds) if pd.notna(total.seconds) else None
        share = 100 * tuned / seconds if tuned is not None and seconds else None
        rows.append(
            {
                "run": total.run,
                "build": total.build,
                "build_seconds": seconds,
                "autotuning_seconds": tuned,
                "autotuning_percent": share,
                "tactics_timed": int(phases["tactics"].sum()),
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "run",
            "build",
            "build_seconds",
            "autotuning_seconds",
            "autotuning_percent",
            "tactics_timed",
        ],
    )


def times_view(log: BuildLog) -> pd.DataFrame:
    """Per-iteration times from --exportTimes, summarised: count, mean, percentiles, max."""
    times = log.times
    rows = []
    for column in ("latency_ms", "end_to_end_ms", "enqueue_ms", "h2d_ms", "compute_ms", "d2h_ms"):
        if column == "enqueue_ms":
            values = times["end_enqueue_ms"] - times["start_enqueue_ms"]
        else:
            values = times[column]
        values = values.dropna()
        if values.empty:
            continue
        rows.append(
            {
                "metric": column.removesuffix("_ms"),
                "iterations": len(values),
                "mean_ms": values.mean(),
                "median_ms": values.median(),
                "p90_ms": values.quantile(0.9),
                "p99_ms": values.quantile(0.99),
                "max_ms": values.max(),
            }
        )
    columns = ["metric", "iterations", "mean_ms", "median_ms", "p90_ms", "p99_ms", "max_ms"]
    return pd.DataFrame(rows, columns=columns)
