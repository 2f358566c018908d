"""Commands that judge builds: ``trtlog diff`` and ``trtlog check``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trtlog.cli.common import EXIT_BAD_INPUT, EXIT_GATE, OutOption, app, fail
from trtlog.cli.queries import FormatOption
from trtlog.render import OutputFormat

if TYPE_CHECKING:
    import pandas as pd

    from trtlog.analysis import BuildLog


def _load(source: str) -> BuildLog:
    from trtlog.parse import LogSourceError
    from trtlog.sources import resolve
    from trtlog.store import Store

    try:
        return Store().load(resolve(source), make_current=False)
    except LogSourceError as error:
        raise fail(str(error)) from None


# What each section shows in a table: the rows that changed.
_CHANGED_ONLY = {
    "layers": lambda table: table[table["status"] != "same"],
    "reformats": lambda table: table[table["status"] != "same"],
    "profile": lambda table: table[table["delta_ms"].fillna(0) != 0],
}


def _shown(name: str, table: pd.DataFrame, everything: bool) -> pd.DataFrame:
    if everything or name == "overview":
        return table
    if name in _CHANGED_ONLY:
        return _CHANGED_ONLY[name](table)
    if "changed" in table.columns:
        return table[table["changed"]]
    return table


@app.command()
def diff(
    first: Annotated[
        str, typer.Argument(help="The first build: a log, JSON export or run folder.")
    ],
    second: Annotated[str, typer.Argument(help="The second build, compared against the first.")],
    fail_on: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-on",
            help="Exit 3 when: layers, precision, tactics, latency=PCT, throughput=PCT, "
            "build-time=PCT. Repeatable.",
        ),
    ] = None,
    everything: Annotated[
        bool, typer.Option("--all", help="Tables list unchanged rows too.")
    ] = False,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
) -> None:
    """What changed from one build to another: versions and options, stage counts, fusions,
    engine layers (paired by name, by the network layers they hold, then by type and shapes),
    reformats, memory, build phases, performance and per-layer times.

    Example: trtlog diff fp16.log int8.log --fail-on latency=5
    """
    from trtlog.compare import FailOnError, diff_logs
    from trtlog.render.frames import render_views

    a, b = _load(first), _load(second)
    result = diff_logs(a, b)
    try:
        failures = result.failures(fail_on or [])
    except FailOnError as error:
        raise fail(str(error)) from None
    titles = f"{Path(a.source).name} → {Path(b.source).name}"
    if output_format is OutputFormat.json:
        views = [(name, name, table) for name, table in result.sections.items()]
    else:
        # Tables show what changed; sections where nothing did are left out.
        shown = [(name, _shown(name, table, everything)) for name, table in result.sections.items()]
        views = [(name, f"{name}: {titles}", table) for name, table in shown if len(table)]
    try:
        stream = sys.stdout if out is None else out.open("w", encoding="utf-8")
    except OSError as error:
        raise fail(f"{out}: cannot write ({error.strerror})", EXIT_BAD_INPUT) from None
    try:
        render_views(views, output_format, stream)
        if not result.differs() and output_format is not OutputFormat.json:
            stream.write("No differences.\n")
    finally:
        if out is not None:
            stream.close()
    if failures:
        for failure in failures:
            typer.echo(f"trtlog: --fail-on: {failure}", err=True)
        raise typer.Exit(EXIT_GATE)
