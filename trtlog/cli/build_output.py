"""What ``trtlog build`` prints when the build ends: how it ended, then the log's summary."""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

from trtlog.build import BuildResult
from trtlog.parse import LogSourceError
from trtlog.store.sources import RUN_FOLDER_EXPORTS, resolve

if TYPE_CHECKING:
    from trtlog.parse.summary import Summary

_OUTCOME_STYLES = {"succeeded": "bold green", "interrupted": "bold yellow"}


def report_build(result: BuildResult, keep: bool) -> None:
    """Print the run's facts and the parsed log's summary; with ``keep`` the run becomes the
    current log, otherwise its log and exports are removed once read."""
    from trtlog.cli.render_summary import render_summary

    _render_run(result)
    try:
        summary = _parse_run(result, keep)
    except KeyboardInterrupt:
        # The build is over and its folder whole; only the parse was cut short.
        result.run["parse"] = "interrupted"
        result.folder.write_run(result.run)
        print(
            f"trtlog: interrupted while parsing the log; the run folder is kept: "
            f"trtlog parse {result.folder.path}",
            file=sys.stderr,
        )
        raise SystemExit(128 + signal.SIGINT) from None
    if summary is None:
        return
    render_summary(summary, sys.stdout)
    if not keep:
        folder = result.folder
        for path in (folder.log, folder.capture, *map(folder.export, RUN_FOLDER_EXPORTS)):
            path.unlink(missing_ok=True)


def _parse_run(result: BuildResult, keep: bool) -> Summary | None:
    """The summary of the run's log, parsed as ``trtlog parse`` parses it; None (and a line on
    standard error where the build succeeded) when it cannot be read."""
    try:
        sources = resolve(result.folder.path)
        # Parsed as ``trtlog parse`` parses: without keeping the bulk of the events (a large
        # model's build logs gigabytes).
        if keep:
            from trtlog.store import Store

            summary = Store(jobs=None).load(sources).summary
        else:
            from trtlog.store.sources import stream_build_log

            summary = stream_build_log(sources).summary
    except LogSourceError as error:
        # A build that failed before TensorRT said anything has its reason said already.
        if result.exit_code == 0:
            print(f"trtlog: the log could not be read: {error}", file=sys.stderr)
        return None
    result.run["parse"] = "parsed"
    result.folder.write_run(result.run)
    return summary


def _render_run(result: BuildResult) -> None:
    run = result.run
    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    outcome = run["outcome"] + (f": {run['reason']}" if run.get("reason") else "")
    rows = [
        ("Build", outcome),
        ("Run folder", run["folder"]),
        ("Backend", f"{run['backend']} (TensorRT {run.get('tensorrt_version') or '?'})"),
        ("Duration", f"{run['duration_s']:g} s, {run['lines']} lines captured"),
        ("Reached", result.progress.describe().rsplit("  ", 1)[0]),
    ]
    if "engine" in run.get("files", {}):
        rows.append(("Engine", str(result.folder.engine)))
    for label, text in rows:
        # Log lines hold brackets ("[network.cpp::validate]") that are not rich markup.
        facts.add_row(label, Text(text))
    facts.rows[0].style = _OUTCOME_STYLES.get(run["outcome"], "bold red")
    console.print(facts)
