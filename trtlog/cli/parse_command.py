"""``trtlog parse``: events and a summary of one log, kept in the store for the queries."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from trtlog.cli.common import LogArgument, OutOption, app, fail


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
        bool, typer.Option("--store/--no-store", help="Keep the tables in .trtlog/ for queries.")
    ] = True,
) -> None:
    """Parse a TensorRT log into typed events and summarise it; it becomes the current log for
    the query commands (stages, tactics, fusions, ...).

    Example: trtlog parse build.log --format jsonl --out events.jsonl
    """
    from trtlog.cli.parse_output import write_parse_output
    from trtlog.parse import LogSourceError

    try:
        write_parse_output(log, output_format.value, out, store)
    except LogSourceError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{out}: cannot write ({error.strerror})") from None
