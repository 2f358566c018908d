"""Render a parse summary with rich."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table

from trtlog.parse.summary import Summary


def render_summary(summary: Summary, stream: TextIO) -> None:
    console = Console(file=stream, highlight=False, soft_wrap=True)
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row("Log", summary.source)
    facts.add_row("Style", summary.log_style)
    version = summary.tensorrt_version or "unknown"
    if summary.tensorrt_version and summary.tensorrt_version_source != "stated":
        version += f" (inferred from the {summary.tensorrt_version_source})"
    facts.add_row("TensorRT", version)
    facts.add_row("GPU", summary.gpu or "unknown")
    facts.add_row("Precision", ", ".join(summary.precision) or "not stated")
    facts.add_row("Runs / builds", f"{summary.runs} / {summary.builds}")
    build = "not reported" if summary.build_seconds is None else f"{summary.build_seconds:g} s"
    facts.add_row("Build time", build)
    facts.add_row(
        "Lines",
        f"{summary.lines} ({summary.recognized} recognised, {summary.unrecognized} unrecognised, "
        f"{summary.foreign} foreign, {summary.blank} blank; "
        f"{summary.recognized_percent:g}% of TensorRT's lines recognised)",
    )
    console.print(facts)

    families = Table(title="Events per family", title_justify="left")
    families.add_column("family")
    families.add_column("events", justify="right")
    for family, count in summary.families.items():
        families.add_row(family, str(count))
    console.print(families)

    if summary.commonest_unrecognized:
        forms = Table(title="Commonest unrecognised lines", title_justify="left")
        forms.add_column("count", justify="right")
        forms.add_column("form")
        for form, count in summary.commonest_unrecognized:
            forms.add_row(str(count), form)
        console.print(forms)
