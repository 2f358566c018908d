"""Render a parse summary with rich."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from trtlog.parse.summary import Summary
from trtlog.render.facts import summary_facts


def render_summary(summary: Summary, stream: TextIO) -> None:
    console = Console(file=stream, highlight=False, soft_wrap=True)
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    for label, text in summary_facts(summary):
        facts.add_row(label, Text(text))
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
            forms.add_row(str(count), Text(form))
        console.print(forms)
