"""Render a parse summary with rich."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from trtlog.parse.summary import Summary
from trtlog.render.facts import summary_facts

# Written to a file or a pipe, the summary is as wide as its longest line, up to this: every
# fact is kept whole, one line each.
_FILE_MAX_WIDTH = 4000


def render_summary(summary: Summary, stream: TextIO) -> None:
    """The summary; a terminal's width folds long facts (a path, the first error), never
    cropping them; a file or a pipe gets each fact on one line."""
    console = Console(file=stream, highlight=False, soft_wrap=True)
    known = summary_facts(summary)
    if not console.is_terminal:
        labels = max(len(label) for label, _ in known)
        widest = max(
            [labels + 2 + len(text) for _, text in known]
            + [len(form) + 12 for form, _ in summary.commonest_unrecognized]
        )
        console.width = min(_FILE_MAX_WIDTH, max(console.width, widest))
        # Lines as long as their text: the grid pads each to the widest fact, which a reader
        # of the file (or diff, or grep) would only see as trailing spaces.
        with console.capture() as captured:
            _print_summary(console, summary, known)
        stream.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
        return
    _print_summary(console, summary, known)


def _print_summary(console: Console, summary: Summary, known: list[tuple[str, str]]) -> None:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column(overflow="fold")
    for label, text in known:
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
        forms.add_column("form", overflow="fold")
        for form, count in summary.commonest_unrecognized:
            forms.add_row(str(count), Text(form))
        console.print(forms)
