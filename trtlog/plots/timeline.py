"""The timeline as a Gantt chart: the phases of each run and build, and the layers whose tuning
took longest."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from trtlog.analysis.queries import tuning_view
from trtlog.analysis.timeline.phases import PHASES
from trtlog.plots import EmptyPlot
from trtlog.plots.common import OTHER, PHASE_COLOURS, bar_height, new_figure, shorten

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from trtlog.analysis import BuildLog

# Bars shorter than this (1 s timestamps often give 0 s) are drawn this wide to stay visible.
_THINNEST = 0.004


def timeline_figure(log: BuildLog, top: int = 20) -> Figure:
    timeline = log.timeline
    phases = timeline[timeline["level"] == "phase"].copy()
    if phases.empty:
        raise EmptyPlot("this log has no build or run phases to draw")
    layers = tuning_view(log, top)
    layers = layers[layers["seconds"].notna()]
    timed = phases["start_s"].notna().any()
    _place(phases, timed)
    names = [name for name in PHASES if name in set(phases["phase"])]
    names += [name for name in dict.fromkeys(phases["phase"]) if name not in names]
    height = bar_height(len(names)) + (bar_height(len(layers)) if len(layers) else 0)
    figure = new_figure(11, height)
    if len(layers):
        phase_axes, layer_axes = figure.subplots(
            2, 1, height_ratios=[len(names) + 2, len(layers) + 2]
        )
        _draw_layers(layer_axes, layers, timed)
    else:
        phase_axes = figure.subplots(1, 1)
    _draw_phases(phase_axes, phases, names)
    how = (
        "from the log's timestamps, widths as reported where TensorRT reports them"
        if timed
        else "no timestamps: reported durations laid end to end"
    )
    phase_axes.set_title(f"Build timeline ({how})", fontsize=10)
    return figure


def _place(phases: pd.DataFrame, timed: bool) -> None:
    """Give every phase a left edge and a width in seconds, runs one after another."""
    if timed:
        # Offsets restart at every run: each run is drawn after the one before.
        shift = 0.0
        lefts = pd.Series(0.0, index=phases.index)
        for _, run in phases.groupby("run", sort=True):
            lefts[run.index] = run["start_s"].fillna(0.0) + shift
            shift += float(run["end_s"].max()) + 1.0
        phases["left"] = lefts
        spans = (phases["end_s"] - phases["start_s"]).fillna(0.0)
        reported = phases["seconds"].where(phases["source"].isin(["reported", "derived"]))
        phases["width"] = reported.fillna(spans).clip(lower=_THINNEST)
    else:
        widths = phases["seconds"].fillna(0.0)
        phases["left"] = widths.cumsum() - widths
        phases["width"] = widths.clip(lower=_THINNEST)


def _draw_phases(axes: Axes, phases: pd.DataFrame, names: list[str]) -> None:
    rows = {name: len(names) - 1 - index for index, name in enumerate(names)}
    for phase in names:
        chosen = phases[phases["phase"] == phase]
        axes.broken_barh(
            list(zip(chosen["left"], chosen["width"], strict=True)),
            (rows[phase] - 0.4, 0.8),
            facecolors=PHASE_COLOURS.get(phase, OTHER),
        )
    for build, rows_of_build in phases[phases["build"].notna()].groupby(["run", "build"]):
        left = rows_of_build["left"].min()
        axes.axvline(left, color="#444444", linewidth=0.6, linestyle=":")
        axes.text(left, len(names) - 0.4, f" build {build[1]}", fontsize=7, va="bottom")
    axes.set_yticks(list(rows.values()), [shorten(name, 40) for name in rows])
    axes.set_xlabel("seconds")
    axes.set_xlim(left=0)
    axes.grid(axis="x", alpha=0.3)


def _draw_layers(axes: Axes, layers: pd.DataFrame, timed: bool) -> None:
    count = len(layers)
    lefts = layers["start_s"].fillna(0.0) if timed else pd.Series([0.0] * count)
    widths = layers["seconds"].astype(float).clip(lower=_THINNEST)
    positions = list(range(count - 1, -1, -1))
    axes.barh(positions, widths, left=list(lefts), color=PHASE_COLOURS["autotuning"], height=0.7)
    labels = [
        f"{shorten(str(layer), 50)}  ({seconds:.3g} s, {tactics} tactics)"
        for layer, seconds, tactics in zip(
            layers["layer"], layers["seconds"], layers["tactics"].fillna(0), strict=True
        )
    ]
    axes.set_yticks(positions, labels, fontsize=7)
    axes.set_xlabel("seconds" if timed else "seconds spent tuning")
    axes.set_title(f"The {count} layers that took longest to tune", fontsize=10)
    axes.grid(axis="x", alpha=0.3)
