"""``trtlog build``: run a TensorRT build with VERBOSE logging, show progress, keep it all."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from trtlog.cli.common import app, fail


class Backend(str, Enum):
    auto = "auto"
    trtexec = "trtexec"
    python = "python"


@app.command(context_settings={"allow_interspersed_args": True})
def build(
    model: Annotated[
        Path, typer.Argument(help="ONNX model; with trtexec also an engine (.engine/.plan/.trt).")
    ],
    trtexec_args: Annotated[
        list[str] | None,
        typer.Argument(help="trtexec's own options, after --.", show_default=False),
    ] = None,
    capture: Annotated[
        bool,
        typer.Option(
            "--capture/--no-capture",
            help="Keep the log and exports in the run folder and make it the current log "
            "(default); --no-capture keeps only the engine and timing cache.",
        ),
    ] = True,
    backend: Annotated[
        Backend, typer.Option("--backend", help="trtexec, python, or auto (trtexec if found).")
    ] = Backend.auto,
    trtexec: Annotated[
        str | None, typer.Option("--trtexec", help="The trtexec to run (default: on PATH).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Run folder (default: trtlog-runs/<model>-<UTC time>)."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No live progress.")] = False,
    tee: Annotated[bool, typer.Option("--tee", help="Echo the raw log as it comes.")] = False,
    fp16: Annotated[bool, typer.Option("--fp16", help="python backend: allow FP16.")] = False,
    int8: Annotated[bool, typer.Option("--int8", help="python backend: allow INT8.")] = False,
    shapes: Annotated[
        str | None,
        typer.Option("--shapes", help="python backend: input shapes, e.g. input:8x3x224x224."),
    ] = None,
    workspace: Annotated[
        int | None, typer.Option("--workspace", help="python backend: workspace limit in MiB.")
    ] = None,
    timing_cache: Annotated[
        Path | None,
        typer.Option("--timing-cache", help="Timing cache to read and update (default: new)."),
    ] = None,
    grace: Annotated[
        float,
        typer.Option("--grace", help="Seconds an interrupted build gets to stop before a kill."),
    ] = 10.0,
) -> None:
    """Build an engine with live progress, and keep its whole log.

    TensorRT logs at VERBOSE level, and every line it says is kept.

    The run folder holds build.log, capture.jsonl (each line's time to the millisecond),
    run.json (what ran and how it ended), the engine, layers.json, profile.json, times.json and
    the timing cache. The run is then parsed and becomes the current log for the queries.

    \b
    Example: trtlog build model.onnx -- --fp16 --shapes=input:8x3x224x224
    """
    from trtlog.build import BuildError, BuildRequest, ProgressState, run_build
    from trtlog.build.display import live_progress
    from trtlog.cli.build_output import report_build

    request = BuildRequest(
        model=model,
        backend=backend.value,
        trtexec=trtexec,
        folder=out,
        extra=list(trtexec_args or []),
        fp16=fp16,
        int8=int8,
        shapes=shapes,
        workspace_mib=workspace,
        timing_cache=timing_cache,
        grace_seconds=grace,
    )
    progress = ProgressState()
    try:
        with live_progress(progress, quiet=quiet, tee=tee) as echo:
            result = run_build(request, progress, echo)
    except BuildError as error:
        raise fail(str(error), error.code) from None
    report_build(result, keep=capture)
    if result.exit_code:
        raise fail(str(result.run.get("reason") or result.outcome), result.exit_code)
