"""The ``trtlog`` command line. Commands stay thin: they call the library and a renderer.

Heavy modules (lark, pandas, matplotlib) are imported inside the commands that use them, so
``trtlog --help`` stays instant.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="trtlog",
    help="Read TensorRT and trtexec VERBOSE logs: typed events, tactics, fusions, timings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Exit codes: 0 success, 1 unexpected failure, 2 the input cannot be used.
EXIT_BAD_INPUT = 2


class ParseFormat(str, Enum):
    summary = "summary"
    json = "json"
    jsonl = "jsonl"


def _show_version(value: bool) -> None:
    if value:
        from trtlog import __version__

        typer.echo(f"trtlog {__version__}")
        raise typer.Exit()


@app.callback()
def trtlog(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Read TensorRT and trtexec VERBOSE logs: typed events, tactics, fusions, timings."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    typer.echo(f"trtlog: {message}", err=True)
    return typer.Exit(code)


LogArgument = Annotated[
    str, typer.Argument(help="Log file, '-' for standard input, or a .gz file.")
]
OutOption = Annotated[
    Path | None, typer.Option("--out", "-o", help="Write to FILE instead of standard output.")
]


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


def main() -> None:
    # The query commands register themselves on `app` when imported.
    import trtlog.cli.queries  # noqa: F401

    app()


if __name__ == "__main__":
    main()
