"""``trtlog parse``: events and a summary of one log, kept in the store for the queries."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from trtlog.cli.common import LogArgument, OutOption, app, fail

LayersOption = Annotated[
    Path | None, typer.Option("--layers", help="--exportLayerInfo (engine inspector) JSON.")
]
ProfileOption = Annotated[
    Path | None, typer.Option("--profile", help="--exportProfile JSON: per-layer times.")
]
TimesOption = Annotated[
    Path | None, typer.Option("--times", help="--exportTimes JSON: per-iteration times.")
]


class ParseFormat(str, Enum):
    summary = "summary"
    json = "json"
    jsonl = "jsonl"


@app.command()
def parse(
    log: LogArgument,
    output_format: Annotated[
        ParseFormat, typer.Option("--format", "-f", help="summary (default), json or jsonl.")
    ] = ParseFormat.summary,
    out: OutOption = None,
    store: Annotated[
        bool, typer.Option("--store/--no-store", help="Keep the tables in the store for queries.")
    ] = True,
    layers: LayersOption = None,
    profile: ProfileOption = None,
    times: TimesOption = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help=(
                "Processes that build a large log's stored tables, this one included (1 or 2;"
                " default: 1)."
            ),
        ),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar while a large log is parsed.")
    ] = False,
) -> None:
    """Parse a TensorRT log into typed events and summarise it.

    The log becomes the current one for the query commands (stages, tactics, fusions, ...).
    LOG may also be a trtexec JSON export or a run folder of trtlog build.

    \b
    Example: trtlog parse build.log --layers layers.json --profile profile.json
    """
    from trtlog.cli.parse_output import write_parse_output
    from trtlog.parse import LogSourceError
    from trtlog.store.sources import resolve
    from trtlog.store.table_writing import default_table_jobs

    try:
        sources = resolve(log, layers, profile, times)
        write_parse_output(
            sources, output_format.value, out, store, jobs or default_table_jobs(), quiet
        )
    except LogSourceError as error:
        raise fail(str(error)) from None
    except BrokenPipeError:
        # The reader stopped early (``trtlog parse LOG -f jsonl | head -1``): click ends
        # quietly, as for the other commands.
        raise
    except OSError as error:
        reason = error.strerror or error
        if out is not None and str(error.filename or out) == str(out):
            raise fail(f"{out}: cannot write ({reason})") from None
        # A file that went away or became unreadable while it was read.
        raise fail(f"{error.filename or log}: cannot be read ({reason})") from None
