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


MEMORY_PARTS = {
    "device_persistent": "#9467bd",
    "host_persistent": "#8c564b",
    "scratch": "#e377c2",
}


def memory_figure(log: BuildLog, top: int = 20) -> Figure:
    """Device persistent, host persistent and scratch memory of the layers that hold most, side
    by side on a logarithmic axis: memory per layer spans several orders of magnitude, and on
    a linear axis the small layers' bars would be too thin to see."""
    from matplotlib.ticker import EngFormatter

    memory = log.memory
    if memory.empty:
        raise EmptyPlot("this log has no memory per layer (a VERBOSE build prints it)")
    last = memory[memory["build"] == memory["build"].max()].copy()
    parts = list(MEMORY_PARTS)
    last["total"] = last[parts].fillna(0).sum(axis=1)
    shown = last[last["total"] > 0].sort_values("total", ascending=False).head(top)
    if shown.empty:
        raise EmptyPlot("no layer of this log's last build holds memory")
    figure = new_figure(10, bar_height(len(shown), per_bar=0.4))
    axes = figure.subplots(1, 1)
    positions = list(range(len(shown) - 1, -1, -1))
    height = 0.8 / len(parts)
    for index, (part, colour) in enumerate(MEMORY_PARTS.items()):
        values = shown[part].fillna(0).astype(float)
        held = values > 0
        if not held.any():
            continue  # no bar, and no legend entry without one
        places = [place + 0.4 - height * (index + 0.5) for place in positions]
        axes.barh(
            [place for place, keep in zip(places, held, strict=True) if keep],
            values[held],
            height=height,
            color=colour,
            label=part.replace("_", " "),
        )
    smallest = float(shown[parts].where(shown[parts] > 0).min().min())
    axes.set_xscale("log")
    axes.set_xlim(left=smallest / 2, right=float(shown["total"].max()) * 4)
    axes.xaxis.set_major_formatter(EngFormatter(unit="B", places=0))
    for place, total in zip(positions, shown["total"], strict=True):
        axes.text(float(total) * 1.1, place, _bytes(float(total)), va="center", fontsize=7)
    axes.set_yticks(positions, [shorten(str(name), 55) for name in shown["layer"]], fontsize=7)
    axes.set_xlabel("bytes (log scale); at the right of each layer: its total")
    axes.set_title(f"Memory of the {len(shown)} layers that hold most", fontsize=10)
    axes.legend(fontsize=8, loc="lower right")
    axes.grid(axis="x", alpha=0.3, which="both")
    return figure


def _bytes(size: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size:.0f} B"


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
