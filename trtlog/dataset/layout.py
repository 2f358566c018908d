"""Where a dataset keeps its files, and how a run's files are published.

``DATASET/<table>/log_date=<YYYY-MM-DD>/<run>.parquet``: each ingest run writes at most one file
per table and partition (``compact`` merges those of earlier runs). A run writes its files
under hidden temporary names, then publishes them: it writes a journal naming every rename (and,
for ``compact``, every file it replaces), then does what the journal says and removes it. A run
cut short before its journal leaves only hidden files, which the next run removes; one cut short
after it is finished by the next run, so a log is either wholly in the dataset or not at all.
Every run holds the dataset's lock from start to end, so two runs into one dataset take turns
and the second sees what the first added.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

BUILDS = "builds"
PARTITION = "log_date"
# Table names are SQL identifiers of our own making; a folder named otherwise is not a table.
TABLE_NAME = re.compile(r"[a-z][a-z0-9_]*")
_LOCK = "_lock"
_JOURNALS = "_journal"
_TEMPORARY_SUFFIX = ".tmp"


class DatasetError(Exception):
    """The dataset folder cannot be used (one-line message)."""


def new_run_name(kind: str = "run") -> str:
    """A file stem no other run has: the time it started, then a random part."""
    started = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
    return f"{kind}-{started}-{uuid.uuid4().hex[:12]}"


def temporary_path(final: Path) -> Path:
    """Where a file is written before it is published: hidden from every reader (pyarrow,
    Spark and the views skip names that start with a dot, and it does not end in .parquet)."""
    return final.with_name(f".{final.name}{_TEMPORARY_SUFFIX}")


class Dataset:
    """A folder of Parquet files, one folder per table, Hive-partitioned by the log's date."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def partition(self, table: str, log_date: str) -> Path:
        return self.root / table / f"{PARTITION}={log_date}"

    def files(self, table: str) -> list[Path]:
        """The published files of ``table``."""
        return sorted((self.root / table).glob(f"{PARTITION}=*/*.parquet"))

    def known_ids(self) -> set[str]:
        """The build ids already in the dataset."""
        import pyarrow.parquet as pq

        known: set[str] = set()
        for path in self.files(BUILDS):
            column = pq.read_table(path, columns=["build_id"]).column("build_id")
            known.update(value for value in column.to_pylist() if value is not None)
        return known

    def tables(self) -> list[str]:
        """The tables that have at least one file."""
        if not self.root.is_dir():
            return []
        return sorted(
            folder.name
            for folder in self.root.iterdir()
            if folder.is_dir() and TABLE_NAME.fullmatch(folder.name) and self.files(folder.name)
        )

    @contextmanager
    def locked(self, waiting: Callable[[], None] | None = None) -> Iterator[None]:
        """Hold the dataset's lock, finishing or clearing what a run cut short left behind.
        While another run holds it, wait for it to end, calling ``waiting`` first."""
        from filelock import FileLock, Timeout

        self.check_writable()
        lock = FileLock(self.root / _LOCK)
        try:
            lock.acquire(blocking=False)
        except Timeout:
            if waiting is not None:
                waiting()
            lock.acquire()
        try:
            self._recover()
            yield
        finally:
            lock.release()

    def publish(self, renames: list[tuple[Path, Path]], removals: list[Path]) -> None:
        """Move each written temporary file to its place and remove ``removals``, as one step
        that a crash cannot leave half done. Called with the lock held."""
        if not renames and not removals:
            return
        journals = self.root / _JOURNALS
        journals.mkdir(exist_ok=True)
        journal = journals / f"{uuid.uuid4().hex}.json"
        entry = {
            "renames": [[self._relative(old), self._relative(new)] for old, new in renames],
            "removals": [self._relative(path) for path in removals],
        }
        staged = temporary_path(journal)
        staged.write_text(json.dumps(entry), encoding="utf-8")
        _sync(staged)
        staged.replace(journal)
        _sync(journals)
        self._replay(journal)

    def _replay(self, journal: Path) -> None:
        entry = json.loads(journal.read_text(encoding="utf-8"))
        for source, target in entry["renames"]:
            if (self.root / source).exists():
                (self.root / source).replace(self.root / target)
        for path in entry["removals"]:
            (self.root / path).unlink(missing_ok=True)
        journal.unlink()

    def _relative(self, path: Path) -> str:
        # Relative, so that a dataset moved after a crash is still finished correctly.
        return path.relative_to(self.root).as_posix()

    def _recover(self) -> None:
        for journal in sorted((self.root / _JOURNALS).glob("*.json")):
            self._replay(journal)
        for stale in self.root.glob(f"*/{PARTITION}=*/.*{_TEMPORARY_SUFFIX}"):
            stale.unlink(missing_ok=True)
        for stale in (self.root / _JOURNALS).glob(f".*{_TEMPORARY_SUFFIX}"):
            stale.unlink(missing_ok=True)

    def check_writable(self) -> None:
        if self.root.exists() and not self.root.is_dir():
            raise DatasetError(f"{self.root}: exists and is not a folder")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatasetError(f"{self.root}: cannot be created ({error.strerror})") from error

    def check_readable(self) -> None:
        if not self.root.is_dir():
            raise DatasetError(f"{self.root}: no such dataset folder")
        if not self.tables():
            raise DatasetError(f"{self.root}: holds no tables (run `trtlog ingest` first)")


def _sync(path: Path) -> None:
    """Flush a file (or a folder's entries) to disk before the step that relies on it."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) if path.is_dir() else os.O_RDONLY
    try:
        descriptor = os.open(path, flags)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


__all__ = [
    "BUILDS",
    "PARTITION",
    "TABLE_NAME",
    "Dataset",
    "DatasetError",
    "new_run_name",
    "temporary_path",
]
