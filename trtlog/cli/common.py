"""What every command shares: the Typer app, the error exit, the common options."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="trtlog",
    help="Read TensorRT and trtexec VERBOSE logs: typed events, tactics, fusions, timings.",
    no_args_is_help=True,
    # `trtlog --install-completion` adds tab completion to bash, zsh, fish or PowerShell.
    add_completion=True,
    # Help as wide as the terminal, up to 100 columns.
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    pretty_exceptions_enable=False,
    # Plain help (click's): rich's panels cost more to import and draw than `--help` may take.
    # Each command's first sentence is its line in the command list, so it is kept short.
    rich_markup_mode=None,
)

# Exit codes: 0 success, 1 unexpected failure, 2 the input cannot be used, 3 a gate failed:
# `trtlog check` found a problem at or above --fail-level, `trtlog diff` met a --fail-on.
EXIT_BAD_INPUT = 2
EXIT_GATE = 3


def _show_version(value: bool) -> None:
    if value:
        from trtlog.version import __version__

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
