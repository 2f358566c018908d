"""``trtlog watch``: follow a log another program is writing and say what its build is doing."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from trtlog.cli.common import app, fail

# The log said "&&&& FAILED": the build (or the run) failed, as ``trtlog build`` says it.
_EXIT_FAILED = 4
_EXIT_INTERRUPTED = 130


@app.command()
def watch(
    log: Annotated[Path, typer.Argument(help="The log being written (it may not exist yet).")],
    timeout: Annotated[
        float | None, typer.Option("--timeout", help="Stop after this many seconds.")
    ] = None,
    once: Annotated[
        bool, typer.Option("--once", help="Print the state of the log as it is now, and exit.")
    ] = False,
    engine: Annotated[
        Path | None,
        typer.Option(
            "--engine",
            help="The engine file the build writes: the watch ends once it is written (for "
            "scripts that print no verdict).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No live display.")] = False,
) -> None:
    """Follow a log as it is written, like tail -f.

    Shows the phase, the layer being tuned, the layers tuned out of the total, the tactics
    timed, the slowest layers, warnings and errors, and the time left.

    It ends when the build ends (&&&& PASSED or FAILED, Polygraphy's verdict, TensorRT-LLM's
    total build time, or the --engine file written), on Ctrl-C or after --timeout; then the log
    is parsed and becomes the current log. It waits for a file that does not exist yet and
    starts over when the file is truncated or replaced. --once prints the state and exits.

    \b
    Example: trtexec --onnx=model.onnx --verbose > build.log & trtlog watch build.log
    """
    from trtlog.build.watch import watch as follow
    from trtlog.cli.watch_display import WatchDisplay

    if log.is_dir():
        raise fail(f"{log}: is a directory")
    with WatchDisplay(quiet=quiet or once) as display:
        result = follow(
            log,
            timeout=timeout,
            once=once,
            engine=engine,
            on_line=display.diagnostic,
            on_poll=display.update,
        )
    if result.reason == "missing":
        raise fail(f"{log}: no such file")
    print(f"watch ended: {_ending(result.reason)}")
    for line in result.state.describe():
        print(line)
    if not once and log.exists():
        _make_current(log)
    if result.reason == "failed":
        raise typer.Exit(_EXIT_FAILED)
    if result.reason == "interrupted":
        raise typer.Exit(_EXIT_INTERRUPTED)


def _ending(reason: str) -> str:
    return {
        "passed": "the run passed",
        "failed": "the run failed",
        "built": "the build finished",
        "timeout": "timeout",
        "interrupted": "interrupted",
        "once": "state printed",
    }.get(reason, reason)


def _make_current(log: Path) -> None:
    """Parse the log as ``trtlog parse`` does: its tables are kept and it becomes current."""
    from trtlog.parse import LogSourceError
    from trtlog.store import Store
    from trtlog.store.sources import resolve

    try:
        Store(jobs=None).load(resolve(log))
    except LogSourceError as error:
        print(f"trtlog: the log could not be parsed: {error}", file=sys.stderr)
