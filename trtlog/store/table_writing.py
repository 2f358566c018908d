"""Build one log's tables and write them into its store folder.

Each table is built in turn and written by a thread while the next is built (writing Parquet
releases the interpreter lock). Where two jobs are asked for (``--jobs 2``; not the default,
``default_table_jobs``), for a large log a forked process builds and writes the tables that
need neither the tactics table nor one built from it, while this one builds the tactics, choices
and layers tables. The forked process gets the parsed log as it is, without copying; where it
fails, this one builds its tables after all.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from trtlog.processes import die_with_parent, prepare
from trtlog.store import parquet_tables
from trtlog.store.parquet_tables import write_frames

if TYPE_CHECKING:
    from trtlog.analysis.buildlog import BuildLog

# The tables a forked process builds for a large log: none of them is built from the tactics
# table, nor is the tactics, choices, layers or precision table built from them, so the two
# processes share the work about evenly.
SIDE_TABLES = frozenset(
    {
        "timeline",
        "stages",
        "fusions",
        "memory",
        "memory_totals",
        "perf",
        "profile",
        "times",
        "warnings",
        "options",
    }
)

# A log this large is worth a second process for its tables, where more than one job is allowed.
SPLIT_BYTES = 16 << 20


def default_table_jobs() -> int:
    """The processes that build a large log's tables unless told: this one alone. The side
    tables take a few seconds of a 1 GB log's minute, and a second process that builds them
    meanwhile holds copies of the pages both write: on two cores it saved no time in back-to-back
    runs and raised the peak by 50 to 100 MB."""
    return 1


# The writing thread makes each row group of a table into Arrow in many short steps, each one
# waiting for the interpreter lock while this thread builds the next table: with Python's
# default switch interval it would wait far longer than it works.
WRITING_SWITCH_INTERVAL = 0.0005


def write_tables(log: BuildLog, folder: Path, names: Sequence[str], split: bool) -> None:
    """Build the tables ``names`` of ``log`` and write each as ``folder/<name>.parquet``;
    ``split``: the side tables in a forked process, where this platform can fork."""
    side = [name for name in names if name in SIDE_TABLES] if split and can_fork() else []
    if side:
        load_table_modules()
    child = _forked(lambda: _build_and_write(log, side, folder)) if side else None
    try:
        _build_and_write(log, [name for name in names if name not in side], folder)
    except BaseException:
        if child is not None:
            child.stop()
        raise
    if child is not None and not child.succeeded():
        _build_and_write(log, side, folder)


def load_table_modules() -> None:
    """Import what building and writing the tables takes, here, before forking: a module first
    imported after the fork is loaded by each process, in memory of its own (pandas and pyarrow
    take about 100 MB), where one loaded before is shared."""
    import pandas  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    from trtlog.analysis import TABLES

    for module in sorted(set(TABLES.values())):
        import_module(f"trtlog.analysis.{module}")


def can_fork() -> bool:
    # Fork where the platform is POSIX (elsewhere a child would import everything again).
    return os.name == "posix" and hasattr(os, "fork")


def _build_and_write(log: BuildLog, names: Sequence[str], folder: Path) -> None:
    with quick_handoffs(), ThreadPoolExecutor(1) as writing:
        # Each table is built whole but the tactics table, made a row group at a time as it is
        # written, after the others: not while the tables built from it are being built, and
        # once those made here are written and let go (the choices of a large build take tens
        # of MB); those the log held before are kept.
        held = log.made()
        ordered = sorted(names, key=lambda name: name == "tactics")
        writes: list[Future[None]] = []
        for name in ordered:
            if name == "tactics":
                for write in writes:
                    write.result()
                log.forget(log.made() - held)
            frames = log.table_frames(name, parquet_tables.ROW_GROUP_ROWS)
            writes.append(writing.submit(write_frames, frames, folder / f"{name}.parquet"))
        for write in writes:
            write.result()


@contextmanager
def quick_handoffs() -> Iterator[None]:
    """A short switch interval inside the block; the previous one is restored after it."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(WRITING_SWITCH_INTERVAL)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


class _Child:
    """A forked process, waited for once."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def succeeded(self) -> bool:
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status) == 0

    def stop(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:  # pragma: no cover - already reaped
            pass


def _forked(work: Callable[[], None]) -> _Child:
    """``work`` run in a forked process, which ends with status 0 when it returns and 1 when it
    raises (anything: an interrupted build leaves no traceback from it)."""
    # Nothing is flushed first: the forked process writes no output and ends with ``os._exit``,
    # which leaves the buffers it inherited unwritten (flushing here would raise where the
    # reader of standard output has gone, as after ``trtlog parse LOG | head``).
    parent = os.getpid()
    prepare()
    pid = os.fork()
    if pid:
        return _Child(pid)
    status = 1  # pragma: no cover - the forked process; its results are checked by the tests
    try:  # pragma: no cover
        die_with_parent(parent)
        work()
        status = 0
    except BaseException:  # pragma: no cover
        pass
    finally:  # pragma: no cover
        # Neither exit handlers nor buffers of the process it was forked from.
        os._exit(status)


__all__ = [
    "SIDE_TABLES",
    "WRITING_SWITCH_INTERVAL",
    "can_fork",
    "load_table_modules",
    "quick_handoffs",
    "write_tables",
]
