"""Ingest logs into a dataset: find them, parse each one somewhere, write what comes back.

The per-log work (``extract_log``) runs in this process (``jobs=1``), in worker processes on
this machine, or on a Dask cluster (``dask.distributed``, whose workers must see the same log
paths); this process writes every result, so the dataset is the same whichever ran the work.
"""

from __future__ import annotations

import glob
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from trtlog.dataset.extract import LogResult, content_id, extract_log
from trtlog.dataset.layout import Dataset, new_run_name
from trtlog.dataset.writer import RunWriter
from trtlog.parse import LogSourceError
from trtlog.processes import die_with_parent, prepare

# What a directory is searched for (recursively).
LOG_SUFFIXES = (".log", ".txt", ".out", ".log.gz", ".txt.gz", ".gz")
_GLOB_CHARACTERS = frozenset("*?[")


@dataclass
class IngestReport:
    """What one ingest did."""

    added: list[str] = field(default_factory=list)
    # Logs whose content is already in the dataset (ingested before, or twice in one run).
    skipped: list[str] = field(default_factory=list)
    # (path, one-line reason) of each log that could not be parsed.
    failed: list[tuple[str, str]] = field(default_factory=list)
    # The files the run published.
    files: list[Path] = field(default_factory=list)


def find_logs(paths: Iterable[str]) -> list[Path]:
    """The log files named by ``paths``: files, folders (searched recursively) and glob
    patterns. Raises ``LogSourceError`` for a path that names nothing."""
    found: dict[Path, None] = {}
    for given in paths:
        if _GLOB_CHARACTERS & set(given):
            matches = [Path(match) for match in sorted(glob.glob(given, recursive=True))]
            files = [match for match in matches if match.is_file()]
            if not files:
                raise LogSourceError(f"{given}: no file matches")
        elif Path(given).is_dir():
            files = sorted(
                path
                for path in Path(given).rglob("*")
                if path.is_file() and path.name.lower().endswith(LOG_SUFFIXES)
            )
        elif Path(given).is_file():
            files = [Path(given)]
        else:
            raise LogSourceError(f"{given}: no such file or folder")
        found.update(dict.fromkeys(path.resolve() for path in files))
    return list(found)


def ingest(
    paths: Iterable[str],
    dataset: Dataset,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    progress: Callable[[LogResult], None] | None = None,
    started: Callable[[int], None] | None = None,
    waiting: Callable[[], None] | None = None,
) -> IngestReport:
    """Parse the logs in ``paths`` and add those not yet in ``dataset``, as one run: at most one
    new file per table and partition, published together at the end. ``started`` is told how
    many logs are to be parsed, then ``progress`` gets each one's result. Runs into one dataset
    take turns; ``waiting`` is called when this one has to wait for another."""
    logs = find_logs(paths)
    report = IngestReport()
    with dataset.locked(waiting):
        known = dataset.known_ids()
        pending: dict[str, str] = {}  # path -> build id
        for path in logs:
            try:
                build_id = content_id(str(path))
            except LogSourceError as error:
                report.failed.append((str(path), str(error)))
                continue
            if build_id in known:
                report.skipped.append(str(path))
                continue
            known.add(build_id)
            pending[str(path)] = build_id
        writer = RunWriter(dataset, new_run_name())
        try:
            if started is not None:
                started(len(pending))
            for result in _run(pending, jobs, dask_scheduler):
                if result.error is not None or result.build_id is None or result.log_date is None:
                    report.failed.append((result.source_path, result.error or "no result"))
                else:
                    writer.add(result.log_date.isoformat(), result.tables)
                    report.added.append(result.source_path)
                if progress is not None:
                    progress(result)
            report.files = writer.publish()
        except BaseException:
            writer.discard()
            raise
    return report


def _run(paths: dict[str, str], jobs: int, dask_scheduler: str | None) -> Iterator[LogResult]:
    if dask_scheduler is not None:
        yield from _on_dask(paths, dask_scheduler)
    elif jobs > 1 and len(paths) > 1:
        yield from _in_processes(paths, jobs)
    else:
        for path, build_id in paths.items():
            yield extract_log(path, build_id)


def _in_processes(paths: dict[str, str], jobs: int) -> Iterator[LogResult]:
    """Parse in worker processes. A worker that dies (killed, out of memory, a crash in native
    code) takes the pool down with every log it had not finished: those are tried again, and a
    log whose worker died twice is tried alone, so that only the log that kills its worker is
    reported, and the run goes on."""
    prepare()
    tries = dict.fromkeys(paths, 0)
    while tries:
        alone = [path for path, count in tries.items() if count >= 2]
        together = [path for path in tries if path not in alone]
        batches = [(together, jobs)] if together else [([path], 1) for path in alone]
        for batch, workers in batches:
            for path, result in _pool_results({path: paths[path] for path in batch}, workers):
                if result is not None:
                    del tries[path]
                    yield result
                elif tries[path] >= 2:
                    del tries[path]
                    yield LogResult(
                        str(Path(path).resolve()),
                        error=f"{path}: the process parsing it ended abruptly (a crash, or "
                        "killed for memory)",
                    )
                else:
                    tries[path] += 1


def _pool_results(paths: dict[str, str], workers: int) -> Iterator[tuple[str, LogResult | None]]:
    """Each log's result, or None where its worker process died."""
    # Forked: their parent is this process (a forkserver or spawn would put another process in
    # between).
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with ProcessPoolExecutor(
        max_workers=min(workers, len(paths)),
        mp_context=context,
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        futures = {pool.submit(extract_log, path, paths[path]): path for path in paths}
        for future in as_completed(futures):
            died = isinstance(future.exception(), BrokenProcessPool)
            yield futures[future], None if died else future.result()


def _on_dask(paths: dict[str, str], scheduler: str) -> Iterator[LogResult]:
    try:
        from dask.distributed import Client
        from dask.distributed import as_completed as dask_completed
    except ImportError as error:
        raise LogSourceError("--dask needs dask.distributed: pip install 'trtlog[dask]'") from error
    try:
        client = Client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise LogSourceError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from error
    with client:
        # pure=False: a log changed on disk under the same path is parsed again.
        futures = client.map(extract_log, list(paths), list(paths.values()), pure=False)
        named = dict(zip((future.key for future in futures), paths, strict=True))
        # A task that failed on the cluster (its workers died, KilledWorker) is one failed log.
        for future in dask_completed(futures):
            if future.status == "error":
                path, failure = named[future.key], future.exception()
                reason = f"{path}: failed on the cluster ({type(failure).__name__}: {failure})"
                yield LogResult(path, error=" ".join(reason.split()))
            else:
                yield future.result()


__all__ = ["LOG_SUFFIXES", "IngestReport", "find_logs", "ingest"]
