"""Query commands: each loads the log's tables (from the store when it can) and renders a view.

Views live in ``trtlog.analysis.queries``; this module only wires options to them.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from enum import Enum
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from trtlog.cli.common import EXIT_BAD_INPUT, OutOption, app, fail
from trtlog.render import OutputFormat

if TYPE_CHECKING:
    import pandas as pd

    from trtlog.analysis import BuildLog


class Precision(str, Enum):
    """The precisions of engine layers (``trtlog.events.formats.PRECISIONS``, kept equal by a
    test)."""

    fp32 = "fp32"
    fp16 = "fp16"
    bf16 = "bf16"
    fp8 = "fp8"
    fp4 = "fp4"
    int8 = "int8"
    int4 = "int4"
    int32 = "int32"
    int64 = "int64"
    uint8 = "uint8"
    bool = "bool"


class ChoiceOrder(str, Enum):
    time = "time"
    gap = "gap"
    tried = "tried"


LogOption = Annotated[
    str | None,
    typer.Option(
        "--log",
        "-l",
        help="The log, JSON export or run folder to query (default: the last one parsed).",
    ),
]
FormatOption = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="table (default), json, csv or markdown.")
]
BuildOption = Annotated[
    str,
    typer.Option(
        "--build",
        "-b",
        metavar="N|last|all",
        help="Which engine build of the log to show: its number, the last one, or all (default).",
    ),
]
WideOption = Annotated[
    bool,
    typer.Option(
        "--wide",
        "-w",
        help="Tables show every column and whole names, however wide (json and csv always do).",
    ),
]
LayerOption = Annotated[
    str | None,
    typer.Option("--layer", help="Layer name: exact, else a substring, else a regular expression."),
]


def load_build_log(log: str | None) -> BuildLog:
    """The log's tables from the store (parsed now if needed); errors become one line."""
    from trtlog.parse.reader import LogSourceError
    from trtlog.store import NoCurrentLog, Store
    from trtlog.store.sources import resolve

    try:
        return Store(jobs=None).load(
            None if log is None else resolve(log), make_current=log is not None
        )
    except (LogSourceError, NoCurrentLog) as error:
        raise fail(str(error)) from None


def select_builds(log: BuildLog, build: str) -> BuildLog:
    """``log`` with only the build ``build`` names ("all", "last" or a number)."""
    if build == "all":
        return log
    numbers = sorted({int(number) for number in log.engine_builds["build"].dropna()})
    if build == "last":
        return log.only(frozenset(numbers[-1:])) if numbers else log
    if not build.isdigit():
        raise fail(f"--build takes a build number, last or all, not {build!r}")
    if int(build) not in numbers:
        known = f"builds {', '.join(map(str, numbers))}" if numbers else "no builds"
        raise fail(f"no build {build} in this log; it has {known}")
    return log.only(frozenset({int(build)}))


def show(
    log: str | None,
    output_format: OutputFormat,
    out: Path | None,
    view_keys: tuple[str, ...],
    build: str = "all",
    wide: bool = False,
    **arguments: Any,
) -> BuildLog:
    """Load the log and render the named views in order, each given the arguments it takes;
    ``build`` chooses the builds shown (``select_builds``); ``wide`` tables show every
    column."""
    from trtlog.analysis import queries
    from trtlog.render.frames import render_views

    build_log = select_builds(load_build_log(log), build)
    name = Path(build_log.source).name
    views = []
    try:
        for key in view_keys:
            title, function = VIEWS[key]
            module, _, attribute = function.rpartition(".")
            home = import_module(f"trtlog.analysis.{module}") if module else queries
            view: Callable[..., pd.DataFrame] = getattr(home, attribute)
            accepted = inspect.signature(view).parameters
            given = {key: value for key, value in arguments.items() if key in accepted}
            views.append((key, f"{title} — {name}", view(build_log, **given)))
    except queries.NoMatch as error:
        raise fail(str(error)) from None
    try:
        stream = sys.stdout if out is None else out.open("w", encoding="utf-8")
    except OSError as error:
        raise fail(f"{out}: cannot write ({error.strerror})", EXIT_BAD_INPUT) from None
    try:
        render_views(views, output_format, stream, wide=wide)
    finally:
        if out is not None:
            stream.close()
    return build_log


# view key -> (title, function in trtlog.analysis.queries, or "module.function" of another
# trtlog.analysis module); the key names the view in JSON output.
VIEWS = {
    "stages": ("Layer count per stage", "stages_view"),
    "choices": ("Chosen tactic per layer and format combination", "choices_view"),
    "layer_choices": ("Chosen tactic per format combination", "layer_choices"),
    "tactics": ("Tactics timed, fastest first", "tactics_of_layers"),
    "fusions": ("Network layers in each engine layer", "fusions_view"),
    "reformats": ("Reformat layers", "reformats_view"),
    "memory": ("Memory per layer", "memory_view"),
    "totals": ("Memory totals and peaks", "totals_view"),
    "perf": ("Performance summary", "perf_view"),
    "profile": ("Per-layer profile", "profile_view"),
    "times": ("Per-iteration times (--exportTimes)", "times_view"),
    "layers": ("Engine layers", "layers_view"),
    "warnings": ("Warnings and errors", "warnings_view"),
    "timeline": ("Build timeline (seconds)", "timeline_view"),
    "tuning_share": ("Share of each build spent autotuning", "tuning_share_view"),
    "tuning": ("Layers that took longest to tune", "tuning_view"),
    "precision_layers": ("Precision per engine layer", "engine_views.precision_layers_view"),
    "precision_counts": ("Layers and time per precision", "engine_views.precision_counts_view"),
    "precision_types": ("Precision per layer type", "engine_views.precision_by_type_view"),
    "wider": ("Layers wider than the build asked for", "engine_views.wider_view"),
    "conversions": ("Reformat layers converting data types", "engine_views.conversions_view"),
    "kernels": ("Kernels by family, precision and tile", "kernel_views.kernels_view"),
}


@app.command()
def stages(
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Layer count per optimisation stage, build by build.

    10.x logs count them backend strategy by strategy.
    """
    show(log, output_format, out, wide=wide, build=build, view_keys=("stages",))


@app.command()
def tactics(
    layer: LayerOption = None,
    top: Annotated[int | None, typer.Option("--top", help="Show only the first N layers.")] = None,
    sort: Annotated[
        ChoiceOrder,
        typer.Option("--sort", help="time (slowest first), gap (closest call first) or tried."),
    ] = ChoiceOrder.time,
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """The chosen tactic of every layer, or one layer's timings.

    With --layer, every tactic timed for that layer.

    \b
    Example: trtlog tactics --layer Conv_0
    """
    if layer is None:
        show(
            log,
            output_format,
            out,
            wide=wide,
            build=build,
            view_keys=("choices",),
            sort=sort.value,
            top=top,
        )
    else:
        show(
            log,
            output_format,
            out,
            wide=wide,
            build=build,
            view_keys=("layer_choices", "tactics"),
            pattern=layer,
        )


@app.command()
def fusions(
    layer: LayerOption = None,
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """The network layers fused into each engine layer."""
    show(log, output_format, out, wide=wide, build=build, view_keys=("fusions",), pattern=layer)


@app.command()
def reformats(
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Reformat layers: where, which formats, at what cost.

    Where each was inserted, the formats it converts, and what it costs.
    """
    show(log, output_format, out, wide=wide, build=build, view_keys=("reformats",))


@app.command()
def memory(
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Memory per layer, then the totals and peaks."""
    show(log, output_format, out, wide=wide, build=build, view_keys=("memory", "totals"))


@app.command()
def perf(
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Performance summary, per-layer profile, per-iteration times.

    The per-iteration times come from trtexec's --exportTimes file.
    """
    show(log, output_format, out, wide=wide, build=build, view_keys=("perf", "profile", "times"))


@app.command()
def layers(
    precision: Annotated[
        Precision | None,
        typer.Option(
            "--precision", case_sensitive=False, help="Only the layers of this precision."
        ),
    ] = None,
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """The engine's layers: precision, formats, kernel, time.

    Each layer with its precision, formats, kernel and profiled time.
    """
    show(
        log, output_format, out, wide=wide, build=build, view_keys=("layers",), precision=precision
    )


@app.command()
def precision(
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Which layers run in which precision, and which run wider.

    Per layer, per precision and layer type, the layers running wider than the build asked
    for (FP32 in an INT8 or FP16 build) with TensorRT's reason where the log gives one, and
    the reformats that convert data types.

    \b
    Example: trtlog precision --log build.log
    """
    keys = ("precision_layers", "precision_counts", "precision_types", "wider", "conversions")
    show(log, output_format, out, wide=wide, build=build, view_keys=keys)


@app.command()
def kernels(
    build: BuildOption = "all",
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """The engine's kernels grouped by what their names say.

    Library, operation, precision, tile and tensor-core use, with layer counts and time. Each
    kernel's whole anatomy is in the kernel_* columns of the tactics, choices and layers
    tables.

    \b
    Example: trtlog kernels --log build.log
    """
    show(log, output_format, out, wide=wide, build=build, view_keys=("kernels",))


@app.command()
def warnings(
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Warnings and errors, counted per message form."""
    show(log, output_format, out, ("warnings",), wide=wide)
