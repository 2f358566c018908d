"""``trtlog diff --format html``: the comparison of two builds as one self-contained page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trtlog.report.page import page, table

if TYPE_CHECKING:
    import pandas as pd

# What each section of ``trtlog.compare`` compares, as a heading.
HEADINGS = {
    "overview": "Overview",
    "options": "Options",
    "stages": "Layer count per stage",
    "fusions": "Fusions",
    "layers": "Engine layers",
    "reformats": "Reformat layers",
    "memory": "Memory",
    "timeline": "Build phases",
    "perf": "Performance",
    "profile": "Per-layer profile",
}


def render_comparison(
    first: str, second: str, views: list[tuple[str, pd.DataFrame]], differs: bool = True
) -> str:
    """The page comparing build ``first`` to ``second``: one section per (name, table) of
    ``views`` (the rows to show, already chosen), and a note when nothing ``differs``."""
    sections = [
        (name, HEADINGS.get(name, name), table(frame, None, "trtlog diff --format csv"))
        for name, frame in views
    ]
    if not differs:
        sections += [("same", "No differences", '<p class="note">No differences.</p>')]
    return page(f"TensorRT build comparison — {first} → {second}", sections)


__all__ = ["HEADINGS", "render_comparison"]
