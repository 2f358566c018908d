"""``trtlog report``: one self-contained HTML file about a build log.

Plots are inlined as SVG and the little script that sorts and filters the tables is inlined
too; nothing is fetched, so the file reads the same offline, attached to a ticket or opened
years later.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from trtlog.analysis import queries
from trtlog.render.facts import summary_facts
from trtlog.report.findings import findings_section
from trtlog.report.page import facts, page, svg, table

if TYPE_CHECKING:
    from trtlog.analysis import BuildLog

# Section headings, in order; a test looks for each of them in the rendered page.
SECTIONS = {
    "summary": "Summary",
    "findings": "Findings",
    "stages": "Layer count per stage",
    "timeline": "Timeline",
    "tactics": "Tactic decisions",
    "fusions": "Fusions",
    "reformats": "Reformat layers",
    "memory": "Memory",
    "performance": "Performance",
    "layers": "Engine layers and precision",
    "warnings": "Warnings and errors",
}


def write_report(log: BuildLog, path: str | Path, top: int = 20) -> None:
    Path(path).write_text(render_report(log, top), encoding="utf-8")


def render_report(log: BuildLog, top: int = 20) -> str:
    bodies = {
        "summary": facts(summary_facts(log.summary)),
        "findings": findings_section(log),
        "stages": _plot("stages", log, top) + table(queries.stages_view(log)),
        "timeline": _plot("timeline", log, top)
        + table(queries.tuning_share_view(log), "Share of each build spent autotuning")
        + table(queries.timeline_view(log), "Phases", "trtlog timeline")
        + table(queries.tuning_view(log, top), "Layers that took longest to tune"),
        "tactics": _plot("tactics", log, top)
        + table(
            queries.choices_view(log, sort="gap", top=top),
            "Closest calls: where another tactic nearly won",
        )
        + table(queries.choices_view(log), "Chosen tactic per layer", "trtlog tactics"),
        "fusions": table(queries.fusions_view(log), "Network layers in each engine layer"),
        "reformats": table(queries.reformats_view(log), None, "trtlog reformats"),
        "memory": _plot("memory", log, top)
        + table(queries.totals_view(log), "Totals and peaks (bytes)")
        + table(queries.memory_view(log), "Per layer (bytes)", "trtlog memory"),
        "performance": table(queries.perf_view(log), "Performance summary (ms)")
        + _plot("profile", log, top)
        + table(queries.profile_view(log), "Per-layer profile", "trtlog perf"),
        "layers": _plot("precision", log, top)
        + table(queries.layers_view(log), "Engine layers", "trtlog layers"),
        "warnings": table(queries.warnings_view(log), "Warnings and errors", "trtlog warnings"),
    }
    name = Path(log.source).name
    sections = [(anchor, heading, bodies[anchor]) for anchor, heading in SECTIONS.items()]
    return page(f"TensorRT build report — {name}", sections)


def _plot(kind: str, log: BuildLog, top: int) -> str:
    from trtlog import plots

    try:
        return svg(plots.figure(kind, log, top=top))
    except plots.EmptyPlot as error:
        return f'<p class="note">No {kind} plot: {error}.</p>'


__all__ = ["SECTIONS", "render_report", "write_report"]
