"""Commands over many logs: ``ingest`` into a Parquet dataset, ``query`` it with SQL, and the
named reports ``trends`` and ``regressions``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trtlog.cli.common import EXIT_BAD_INPUT, OutOption, app, fail
from trtlog.render import OutputFormat

if TYPE_CHECKING:
    import pandas as pd

DatasetArgument = Annotated[Path, typer.Argument(help="The dataset folder (see trtlog ingest).")]
AllowFilesOption = Annotated[
    bool,
    typer.Option(
        "--allow-files",
        help="Let the SQL read and write any file and load extensions (by default it reads "
        "the dataset's files only).",
    ),
]
FormatOption = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="table (default), json, csv or markdown.")
]


@app.command()
def ingest(
    paths: Annotated[
        list[str], typer.Argument(help="Log files, folders (searched recursively), globs, .gz.")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="The dataset folder to add to.")],
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Worker processes (default: the cores)."),
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            help="Run the parsing on this Dask scheduler (tcp://host:8786); its workers must "
            "see the log paths.",
        ),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No line per log and no progress bar.")
    ] = False,
) -> None:
    """Parse many logs into one Parquet dataset.

    The dataset has a folder per table, partitioned by the log's date, and one file per table
    and partition for each run; logs already in it are skipped. A log that cannot be parsed is
    reported and skipped; the exit status is 2 if any was.

    \b
    Example: trtlog ingest nightly/ --out builds.parquet --jobs 8
    """
    from trtlog.cli.progress import IngestProgress
    from trtlog.dataset import Dataset
    from trtlog.dataset import ingest as ingest_logs
    from trtlog.dataset.layout import DatasetError
    from trtlog.parse import LogSourceError
    from trtlog.processes import default_jobs

    def waiting() -> None:
        typer.echo(f"waiting for another run on {out} to end", err=True)

    with IngestProgress(quiet) as shown:
        try:
            report = ingest_logs(
                paths,
                Dataset(out),
                jobs or default_jobs(),
                dask,
                progress=shown.done,
                started=shown.start,
                waiting=waiting,
            )
        except (LogSourceError, DatasetError) as error:
            raise fail(str(error)) from None
    typer.echo(
        f"{len(report.added)} added, {len(report.skipped)} already in {out}, "
        f"{len(report.failed)} failed"
    )
    for path, reason in report.failed:
        typer.echo(f"trtlog: skipped {path}: {reason}", err=True)
    if report.failed:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command()
def query(
    dataset: DatasetArgument,
    sql: Annotated[str, typer.Argument(help="SQL over the tables (builds, tactics, ...).")],
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    allow_files: AllowFilesOption = False,
) -> None:
    """Run SQL (DuckDB) over a dataset.

    Every table is a view of the same name, with the columns build_id, source_path,
    tensorrt_version, gpu, model, precision_flags and log_date on every row. The SQL reads the
    dataset's files and no others unless --allow-files.

    \b
    Example: trtlog query nightly "SELECT model, avg(build_seconds) FROM builds GROUP BY model"
    """
    from trtlog.dataset import Dataset
    from trtlog.dataset.sql import query as run_query

    _show(
        lambda: run_query(Dataset(dataset), sql, allow_files=allow_files),
        output_format,
        out,
        "query",
    )


@app.command()
def trends(
    dataset: DatasetArgument,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    allow_files: AllowFilesOption = False,
) -> None:
    """Build time, engine latency and FP32 fallbacks, day by day.

    Per model, TensorRT version and GPU.
    """
    from trtlog.dataset import Dataset
    from trtlog.dataset.sql import trends as trends_table

    _show(lambda: trends_table(Dataset(dataset), allow_files), output_format, out, "Trends")


@app.command()
def regressions(
    dataset: DatasetArgument,
    baseline: Annotated[
        str, typer.Option("--baseline", help="The TensorRT version to compare to.")
    ],
    top: Annotated[int, typer.Option("--top", min=1, help="How many rows.")] = 20,
    output_format: FormatOption = OutputFormat.table,
    out: OutOption = None,
    allow_files: AllowFilesOption = False,
) -> None:
    """The layers whose time grew most between TensorRT versions.

    The chosen-tactic time or profiled time, from the --baseline TensorRT version to another,
    for the same model and GPU.

    \b
    Example: trtlog regressions builds.parquet --baseline 10.3.0
    """
    from trtlog.dataset import Dataset
    from trtlog.dataset.sql import regressions as regressions_table

    title = f"Regressions from TensorRT {baseline}"
    _show(
        lambda: regressions_table(Dataset(dataset), baseline, top, allow_files),
        output_format,
        out,
        title,
    )


@app.command()
def compact(dataset: DatasetArgument) -> None:
    """Merge the small files of earlier ingest runs.

    The files earlier ingest runs left in each partition become one per table and partition,
    in one step that a crash cannot leave half done.

    \b
    Example: trtlog compact builds.parquet
    """
    from trtlog.dataset import Dataset
    from trtlog.dataset.compact import compact as compact_dataset
    from trtlog.dataset.layout import DatasetError

    def waiting() -> None:
        typer.echo(f"waiting for another run on {dataset} to end", err=True)

    try:
        report = compact_dataset(Dataset(dataset), waiting)
    except DatasetError as error:
        raise fail(str(error)) from None
    typer.echo(f"{len(report.merged)} files merged into {len(report.written)}")


def _show(
    make: Callable[[], pd.DataFrame], output_format: OutputFormat, out: Path | None, title: str
) -> None:
    from trtlog.dataset.layout import DatasetError
    from trtlog.render.frames import render

    try:
        frame = make()
    except DatasetError as error:
        raise fail(str(error)) from None
    try:
        if out is None:
            render(frame, output_format, sys.stdout, title)
        else:
            with out.open("w", encoding="utf-8") as stream:
                render(frame, output_format, stream, title)
    except OSError as error:
        raise fail(f"{out}: cannot write ({error.strerror})") from None
