"""Commands that draw: ``trtlog timeline``, ``trtlog plot`` and ``trtlog report``."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trtlog.cli.common import EXIT_BAD_INPUT, OutOption, app, fail
from trtlog.cli.queries import FormatOption, LogOption, WideOption, load_build_log, show
from trtlog.render import OutputFormat

if TYPE_CHECKING:
    from trtlog.analysis import BuildLog


class PlotKind(str, Enum):
    """The plots of ``trtlog.plots.PLOTS`` (kept equal by a test)."""

    timeline = "timeline"
    stages = "stages"
    tactics = "tactics"
    profile = "profile"
    memory = "memory"
    precision = "precision"


TopOption = Annotated[
    int, typer.Option("--top", help="How many layers to show where a view lists the most.")
]


def draw(kind: str, build_log: BuildLog, path: Path, top: int) -> None:
    """Draw one plot to ``path`` (PNG or SVG); what cannot be drawn is a one-line error."""
    from trtlog import plots

    if path.suffix.lower() not in plots.FORMATS:
        raise fail(f"{path}: plots are written as .png or .svg")
    try:
        figure = plots.figure(kind, build_log, top=top)
        plots.save(figure, path)
    except plots.EmptyPlot as error:
        raise fail(f"cannot draw {kind}: {error}") from None
    except OSError as error:
        raise fail(f"{path}: cannot write ({error.strerror})", EXIT_BAD_INPUT) from None
    typer.echo(f"wrote {path}", err=True)


@app.command()
def timeline(
    top: TopOption = 10,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Also draw the Gantt chart to FILE.png or .svg.")
    ] = None,
    log: LogOption = None,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    wide: WideOption = False,
) -> None:
    """Where the build's time went.

    The phases in order, the share spent autotuning, and the layers that took longest to
    tune.

    \b
    Example: trtlog timeline --top 20 --plot timeline.svg
    """
    build_log = show(
        log, output_format, out, ("timeline", "tuning_share", "tuning"), wide=wide, top=top
    )
    if plot is not None:
        draw("timeline", build_log, plot, top)


@app.command()
def plot(
    kind: Annotated[
        PlotKind,
        typer.Argument(
            metavar="KIND",
            help="What to draw: timeline, stages, tactics, profile, memory or precision.",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="FILE.png or FILE.svg; by default the log's name and the plot's, in the working"
            " folder.",
            show_default="LOG.KIND.png",
        ),
    ] = None,
    top: TopOption = 20,
    log: LogOption = None,
) -> None:
    """Draw a plot: timeline, stages, tactics, memory and more.

    KIND is timeline, stages, tactics, profile, memory or precision.

    \b
    Example: trtlog plot tactics --out tactics.svg
    """
    build_log = load_build_log(log)
    path = out or Path(f"{Path(build_log.source).stem}.{kind.value}.png")
    draw(kind.value, build_log, path, top)


@app.command()
def report(
    out: Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write.")],
    top: TopOption = 20,
    log: LogOption = None,
) -> None:
    """One self-contained HTML report, with the plots inlined.

    Summary, stages, timeline, tactics, fusions, reformats, memory, performance and
    warnings.

    \b
    Example: trtlog report --log build.log -o report.html
    """
    from trtlog.report import write_report

    build_log = load_build_log(log)
    try:
        write_report(build_log, out, top=top)
    except OSError as error:
        raise fail(f"{out}: cannot write ({error.strerror})", EXIT_BAD_INPUT) from None
    typer.echo(f"wrote {out}", err=True)


@app.command()
def graph(
    out: Annotated[Path, typer.Option("--out", "-o", help="graph.dot, graph.svg or graph.png.")],
    around: Annotated[
        str | None,
        typer.Option("--around", help="Only the layers near this one (name, substring or regex)."),
    ] = None,
    radius: Annotated[int, typer.Option("--radius", help="How many tensors away.")] = 3,
    log: LogOption = None,
) -> None:
    """The engine's layers and tensors, coloured by precision.

    SVG and PNG need Graphviz's dot; the dot text needs nothing.

    \b
    Example: trtlog graph -o engine.svg --around Conv_0 --radius 2
    """
    from trtlog.analysis.queries import NoMatch, match_layers
    from trtlog.plots.engine_graph import (
        GraphError,
        edges_of,
        engine_dot,
        neighbourhood,
        render_graph,
    )

    build_log = load_build_log(log)
    layers = build_log.layers
    try:
        keep = None
        if around is not None:
            centres = match_layers(list(layers["name"]), around, "engine layers")
            keep = neighbourhood(layers, edges_of(layers), centres, radius)
        dot = engine_dot(layers, keep, title=Path(build_log.source).name)
        render_graph(dot, out)
    except (NoMatch, GraphError) as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{out}: cannot write ({error.strerror})", EXIT_BAD_INPUT) from None
    typer.echo(f"wrote {out}", err=True)
