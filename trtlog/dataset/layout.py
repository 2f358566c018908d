"""Where a dataset keeps its files, and how one log's tables are added.

``DATASET/<table>/log_date=<YYYY-MM-DD>/<build_id>.parquet``. Each file is written under a
temporary name and renamed into place, and the ``builds`` row last: a log whose ``builds`` file
exists is complete, and ingesting it again adds nothing. A log cut short by a crash has no
``builds`` file and is written again, over its own files, next time.
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

BUILDS = "builds"
PARTITION = "log_date"


class DatasetError(Exception):
    """The dataset folder cannot be used (one-line message)."""


class Dataset:
    """A folder of per-table Parquet files, one file per log and table."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def known_ids(self) -> set[str]:
        """The build ids already in the dataset."""
        return {path.stem for path in (self.root / BUILDS).glob(f"{PARTITION}=*/*.parquet")}

    def tables(self) -> list[str]:
        """The tables that have at least one file."""
        if not self.root.is_dir():
            return []
        return sorted(
            folder.name
            for folder in self.root.iterdir()
            if folder.is_dir() and any(folder.glob(f"{PARTITION}=*/*.parquet"))
        )

    def add(self, build_id: str, log_date: date, tables: dict[str, pa.Table]) -> None:
        """Write one log's tables, ``builds`` last."""
        for name in sorted(tables, key=lambda name: name == BUILDS):
            folder = self.root / name / f"{PARTITION}={log_date.isoformat()}"
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{build_id}.parquet"
            temporary = folder / f".{build_id}.parquet.tmp"
            pq.write_table(tables[name], temporary)
            temporary.replace(target)

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


__all__ = ["BUILDS", "PARTITION", "Dataset", "DatasetError"]
