"""Plots of the build: the stage waterfall and the tactic spread."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trtlog.plots import EmptyPlot
from trtlog.plots.common import bar_height, new_figure, shorten_middle

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from trtlog.analysis import BuildLog

# Characters of a tactic-spread label line: at 8 points a label this long takes about a third
# of the figure's width, and the ends of a name (its block and its operation) stay in it.
LABEL_WIDTH = 48


def stages_figure(log: BuildLog, top: int = 20) -> Figure:
    """Layer count after each optimisation stage, one line of steps per build (10.x: per
    backend strategy), each stage at its name's place: builds that skip a stage or repeat one
    stay lined up."""
    import pandas as pd

    stages = log.stages
    if stages.empty:
        raise EmptyPlot("this log has no layer counts per stage (a VERBOSE build prints them)")
    passes = list(stages.groupby(["build", "strategy"], sort=False, dropna=False))
    places = _stage_places([list(rows["stage"]) for _, rows in passes])
    figure = new_figure(max(7.0, 0.55 * len(places) + 2), 4.5)
    axes = figure.subplots(1, 1)
    for (build, strategy), rows in passes:
        label = f"build {build}" + ("" if pd.isna(strategy) else f" (strategy {strategy})")
        steps = [places[key] for key in _occurrences(list(rows["stage"]))]
        axes.step(steps, rows["layers"], where="mid", marker="o", label=label)
        for step, count, change in zip(steps, rows["layers"], rows["change"], strict=True):
            if change:
                axes.annotate(
                    f"{change:+d}",
                    (step, count),
                    textcoords="offset points",
                    xytext=(0, 6),
                    ha="center",
                    fontsize=7,
                )
    labels = [stage for stage, _ in places]
    axes.set_xticks(range(len(labels)), labels, rotation=40, ha="right", fontsize=8)
    axes.set_ylabel("layers")
    axes.set_title("Layer count per optimisation stage", fontsize=10)
    axes.grid(axis="y", alpha=0.3)
    axes.legend(fontsize=8)
    return figure


def _occurrences(stages: list[str]) -> list[tuple[str, int]]:
    """Each stage with how many times it came before in its pass ("dupe layer removal" runs
    twice)."""
    seen: dict[str, int] = {}
    keys = []
    for stage in stages:
        keys.append((stage, seen.get(stage, 0)))
        seen[stage] = seen.get(stage, 0) + 1
    return keys


def _stage_places(passes: list[list[str]]) -> dict[tuple[str, int], int]:
    """An x position per stage (and occurrence) of all passes, in the order they run: a stage
    one pass has and another lacks goes after the stage it follows."""
    order: list[tuple[str, int]] = []
    for stages in passes:
        previous = -1
        for key in _occurrences(stages):
            if key in order:
                previous = order.index(key)
            else:
                previous += 1
                order.insert(previous, key)
    return {key: place for place, key in enumerate(order)}


def tactic_label(layer: object, formats: object) -> str:
    """A row's label in the tactic spread: the layer, and under it its format combination,
    each cut in the middle to a readable width."""
    label = shorten_middle(str(layer), LABEL_WIDTH)
    if isinstance(formats, str) and formats:
        label += "\n" + shorten_middle(formats, LABEL_WIDTH)
    return label


def tactics_figure(log: BuildLog, top: int = 20) -> Figure:
    """Every tactic timed for the layers whose chosen tactic is slowest, the chosen one marked."""
    tactics = log.tactics[log.tactics["time_ms"].notna()]
    choices = log.choices[log.choices["best_ms"].notna()]
    if tactics.empty or choices.empty:
        raise EmptyPlot("this log has no timed tactics (a VERBOSE build prints them)")
    slowest = choices.sort_values("best_ms", ascending=False).head(top)
    # Two lines per label (the layer, then its formats) need the room.
    figure = new_figure(11, bar_height(len(slowest), per_bar=0.5))
    axes = figure.subplots(1, 1)
    positions = list(range(len(slowest) - 1, -1, -1))
    for position, choice in zip(positions, slowest.itertuples(), strict=True):
        timed = tactics[tactics["combination"] == choice.combination]
        others = timed[~timed["chosen"]]
        axes.scatter(others["time_ms"], [position] * len(others), s=12, color="#7f7f7f", alpha=0.6)
        axes.scatter([choice.best_ms], [position], s=40, color="#d62728", marker="D", zorder=3)
    axes.set_yticks(
        positions, [tactic_label(row.layer, row.formats) for row in slowest.itertuples()]
    )
    axes.tick_params(axis="y", labelsize=8)
    axes.set_xscale("log")
    axes.set_xlabel("tactic time (ms, log scale); red: the tactic chosen")
    axes.set_title(f"Tactic spread for the {len(slowest)} slowest layers", fontsize=10)
    axes.grid(axis="x", alpha=0.3, which="both")
    return figure
