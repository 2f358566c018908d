"""Commands that judge builds: ``trtlog diff`` and ``trtlog check``."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from trtlog.cli.common import EXIT_BAD_INPUT, EXIT_GATE, OutOption, app, fail
from trtlog.cli.queries import LogOption, WideOption, load_build_log
from trtlog.render import OutputFormat

if TYPE_CHECKING:
    import pandas as pd

    from trtlog.analysis import BuildLog


def _load(source: str) -> BuildLog:
    from trtlog.parse import LogSourceError
    from trtlog.store import Store
    from trtlog.store.sources import resolve

    try:
        # Each log parsed by the cores, as ``trtlog parse`` parses it.
        return Store(jobs=None).load(resolve(source), make_current=False)
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


class DiffFormat(str, Enum):
    """The table formats, and a self-contained HTML page."""

    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    html = "html"


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
    build: Annotated[
        str,
        typer.Option(
            "--build",
            "-b",
            metavar="N|last|all|N:M",
            help="Which builds to pair: the same on both sides, or A's N with B's M "
            "(default: the last build of each).",
        ),
    ] = "last",
    noise: Annotated[
        float,
        typer.Option(
            "--noise",
            metavar="PCT",
            min=0,
            help="Performance changes smaller than PCT percent are within noise, not worse.",
        ),
    ] = 1.0,
    diff_format: Annotated[
        DiffFormat,
        typer.Option("--format", "-f", help="table (default), json, csv, markdown or html."),
    ] = DiffFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """What changed from one build to another.

    Versions and options, stage counts, fusions, engine layers (paired by name, by the
    network layers they hold, then by type and shapes), reformats, memory, build phases,
    performance and per-layer times.

    \b
    Example: trtlog diff fp16.log int8.log --fail-on latency=5
    """
    from trtlog.cli.queries import select_builds
    from trtlog.compare import FailOnError, diff_logs
    from trtlog.render.frames import render_views

    build_a, _, build_b = build.partition(":")
    a = select_builds(_load(first), build_a)
    b = select_builds(_load(second), build_b or build_a)
    result = diff_logs(a, b, noise_percent=noise)
    try:
        failures = result.failures(fail_on or [])
    except FailOnError as error:
        raise fail(str(error)) from None
    titles = f"{Path(a.source).name} → {Path(b.source).name}"
    html = diff_format is DiffFormat.html
    output_format = OutputFormat.table if html else OutputFormat(diff_format.value)
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
        if html:
            from trtlog.report.comparison import render_comparison

            shown_views = [(name, table) for name, _, table in views]
            names = Path(a.source).name, Path(b.source).name
            stream.write(render_comparison(*names, shown_views, result.differs()))
        else:
            render_views(views, output_format, stream, wide=wide, family="diff")
        if not result.differs() and output_format is not OutputFormat.json and not html:
            stream.write("No differences.\n")
    finally:
        if out is not None:
            stream.close()
    if failures:
        for failure in failures:
            typer.echo(f"trtlog: --fail-on: {failure}", err=True)
        raise typer.Exit(EXIT_GATE)


class CheckFormat(str, Enum):
    """The query commands' formats, and SARIF for code-scanning tools."""

    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    sarif = "sarif"


@app.command()
def check(
    log: LogOption = None,
    fail_level: Annotated[
        str | None,
        typer.Option(
            "--fail-level",
            help="Exit 3 when a finding is at or above: note, warning, error (default) or never.",
        ),
    ] = None,
    threshold: Annotated[
        list[str] | None,
        typer.Option("--set", help="A threshold: NAME=VALUE (see --list). Repeatable."),
    ] = None,
    disable: Annotated[
        list[str] | None, typer.Option("--disable", help="Skip a rule by id. Repeatable.")
    ] = None,
    list_rules: Annotated[
        bool, typer.Option("--list", help="Print the rules, what they find and why, and exit.")
    ] = False,
    output_format: Annotated[
        CheckFormat,
        typer.Option("--format", "-f", help="table (default), json, csv, markdown or sarif."),
    ] = CheckFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Lint a build for problems a CI gate can fail on.

    Layers wider than the requested precision, unfused Q/DQ, costly reformats, kernels
    without tensor cores, workspace-starved tactics, unstable timing, ... Settings come from
    [tool.trtlog.check] in pyproject.toml and from --set and --disable.

    \b
    Example: trtlog check --log build.log --fail-level warning --format sarif -o trtlog.sarif
    """
    import json

    from trtlog import check as checks
    from trtlog.check.sarif import sarif_document
    from trtlog.parse import LogSourceError
    from trtlog.render.frames import render_views

    try:
        config = checks.load_config()
        overrides = dict(_pair(item) for item in threshold or [])
        settings, disabled = checks.resolve_settings(config, overrides, disable or [])
        level = fail_level or str(config.get("fail-level", "error"))
        if level not in checks.FAIL_LEVELS:
            raise checks.CheckSettingError(
                f"--fail-level {level!r}: expected {', '.join(checks.FAIL_LEVELS)}"
            )
    except checks.CheckSettingError as error:
        raise fail(str(error)) from None
    stream = _open_output(out)
    try:
        if list_rules:
            render_views(
                [("rules", "Rules", checks.rules_table())],
                _table_format(output_format),
                stream,
                wide=wide,
            )
            return
        build_log = load_build_log(log)
        try:
            findings = checks.run_checks(build_log, settings, disabled)
        except LogSourceError as error:
            raise fail(str(error)) from None
        if output_format is CheckFormat.sarif:
            json.dump(sarif_document(findings, checks.RULES, build_log.source), stream, indent=1)
            stream.write("\n")
        else:
            title = f"trtlog check — {Path(build_log.source).name}"
            render_views(
                [("findings", title, findings)], _table_format(output_format), stream, wide=wide
            )
    finally:
        if out is not None:
            stream.close()
    if checks.fails(findings, level):
        typer.echo(f"trtlog: findings at or above {level}", err=True)
        raise typer.Exit(EXIT_GATE)


def _pair(item: str) -> tuple[str, float]:
    from trtlog.check import CheckSettingError

    name, _, value = item.partition("=")
    try:
        return name.strip(), float(value)
    except ValueError:
        raise CheckSettingError(f"--set {item!r}: expected NAME=NUMBER") from None


def _table_format(output_format: CheckFormat) -> OutputFormat:
    return (
        OutputFormat(output_format.value)
        if output_format is not CheckFormat.sarif
        else OutputFormat.json
    )


def _open_output(out: Path | None) -> TextIO:
    try:
        return sys.stdout if out is None else out.open("w", encoding="utf-8")
    except OSError as error:
        raise fail(f"{out}: cannot write ({error.strerror})", EXIT_BAD_INPUT) from None
