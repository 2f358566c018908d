"""Plots of a BuildLog, each a function returning a matplotlib Figure (no display needed).

``PLOTS`` names them without importing matplotlib, so that the command line can list them
cheaply; ``figure(kind, log)`` draws one and ``save(figure, path)`` writes PNG or SVG by the
file's suffix.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from trtlog.analysis import BuildLog

# kind -> (module in trtlog.plots, function, what it shows)
PLOTS: dict[str, tuple[str, str, str]] = {
    "timeline": ("timeline", "timeline_figure", "Gantt chart of the build phases and layer tuning"),
    "stages": ("build", "stages_figure", "layer count per optimisation stage"),
    "tactics": ("build", "tactics_figure", "every tactic's time for the slowest layers"),
    "profile": ("engine", "profile_figure", "time share per engine layer and layer type"),
    "memory": ("engine", "memory_figure", "memory per engine layer"),
    "precision": ("engine", "precision_figure", "precision per layer type"),
}
FORMATS = (".png", ".svg")


class EmptyPlot(Exception):
    """The log holds nothing this plot could show."""


def figure(kind: str, log: BuildLog, top: int = 20) -> Figure:
    module, function, _ = PLOTS[kind]
    draw = getattr(import_module(f"trtlog.plots.{module}"), function)
    result: Figure = draw(log, top=top)
    return result


def save(figure: Figure, path: str | Path) -> None:
    """Write ``figure`` as PNG or SVG, by the suffix of ``path``."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"{path}: plots are written as .png or .svg")
    figure.savefig(path, format=suffix[1:], bbox_inches="tight", dpi=120)


__all__ = ["FORMATS", "PLOTS", "EmptyPlot", "figure", "save"]
