"""Plots of the built engine: the per-layer profile, memory per layer, precision per type."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from trtlog.plots import EmptyPlot
from trtlog.plots.common import OTHER, PRECISION_COLOURS, bar_height, new_figure, shorten

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from trtlog.analysis import BuildLog


def profile_figure(log: BuildLog, top: int = 20) -> Figure:
    """Share of the profiled time per engine layer (the top N) and per layer type."""
    profile = log.profile
    if profile.empty:
        raise EmptyPlot("this log has no per-layer profile (trtexec --dumpProfile prints one)")
    run = profile[profile["run"] == profile["run"].max()]
    layers = run.sort_values("percent", ascending=False).head(top)
    types = _layer_types(log, run)
    figure = new_figure(11, bar_height(max(len(layers), len(types))))
    by_layer, by_type = figure.subplots(1, 2, width_ratios=[3, 2])
    positions = list(range(len(layers) - 1, -1, -1))
    by_layer.barh(positions, layers["percent"], color="#1f77b4")
    by_layer.set_yticks(positions, [shorten(str(name), 50) for name in layers["layer"]], fontsize=7)
    by_layer.set_xlabel("% of profiled time")
    by_layer.set_title(f"The {len(layers)} slowest engine layers", fontsize=10)
    type_positions = list(range(len(types) - 1, -1, -1))
    by_type.barh(type_positions, types.values, color="#ff7f0e")
    by_type.set_yticks(type_positions, list(types.index), fontsize=8)
    by_type.set_xlabel("% of profiled time")
    by_type.set_title("By layer type", fontsize=10)
    for axes in (by_layer, by_type):
        axes.grid(axis="x", alpha=0.3)
    return figure


def _layer_types(log: BuildLog, run: pd.DataFrame) -> pd.Series:
    kinds = dict(zip(log.layers["name"], log.layers["layer_type"], strict=True))
    kind = run["layer"].map(lambda name: kinds.get(name) or "unknown type")
    return run.groupby(kind)["percent"].sum().sort_values(ascending=False)


def memory_figure(log: BuildLog, top: int = 20) -> Figure:
    """Host persistent, device persistent and scratch memory of the layers that hold most."""
    memory = log.memory
    if memory.empty:
        raise EmptyPlot("this log has no memory per layer (a VERBOSE build prints it)")
    last = memory[memory["build"] == memory["build"].max()].copy()
    parts = ["device_persistent", "host_persistent", "scratch"]
    last["total"] = last[parts].fillna(0).sum(axis=1)
    shown = last.sort_values("total", ascending=False).head(top)
    figure = new_figure(10, bar_height(len(shown)))
    axes = figure.subplots(1, 1)
    positions = list(range(len(shown) - 1, -1, -1))
    left = pd.Series(0.0, index=shown.index)
    for part, colour in zip(parts, ("#9467bd", "#8c564b", "#e377c2"), strict=True):
        values = shown[part].fillna(0).astype(float) / 1024
        axes.barh(positions, values, left=list(left), color=colour, label=part.replace("_", " "))
        left += values
    axes.set_yticks(positions, [shorten(str(name), 55) for name in shown["layer"]], fontsize=7)
    axes.set_xlabel("KiB")
    axes.set_title(f"Memory of the {len(shown)} layers that hold most", fontsize=10)
    axes.legend(fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    return figure


def precision_figure(log: BuildLog, top: int = 20) -> Figure:
    """How many engine layers of each type run in each precision."""
    layers = log.layers[log.layers["precision"].notna()]
    if layers.empty:
        raise EmptyPlot("this log lists no engine layers with data types")
    counts = pd.crosstab(layers["layer_type"].fillna("unknown type"), layers["precision"])
    counts = counts.loc[counts.sum(axis=1).sort_values(ascending=False).index[:top]]
    figure = new_figure(10, bar_height(len(counts)))
    axes = figure.subplots(1, 1)
    positions = list(range(len(counts) - 1, -1, -1))
    left = pd.Series(0.0, index=counts.index)
    for precision in counts.columns:
        colour = PRECISION_COLOURS.get(str(precision), OTHER)
        axes.barh(positions, counts[precision], left=list(left), color=colour, label=precision)
        left += counts[precision]
    axes.set_yticks(positions, [shorten(str(kind), 40) for kind in counts.index], fontsize=8)
    axes.set_xlabel("engine layers")
    axes.set_title("Precision per layer type", fontsize=10)
    axes.legend(fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    return figure
