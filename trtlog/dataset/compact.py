"""Merge the files earlier runs left in each partition into one.

Each ingest run adds a file per table and partition; a dataset fed every night gathers many
small files, which readers open one by one. ``compact`` rewrites each partition that has more
than one file as a single file of full row groups and publishes it in place of the old ones in
one journaled step (``Dataset.publish``): a crash leaves the old files or the new one, never
both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from trtlog.dataset.layout import Dataset, DatasetError, new_run_name, temporary_path
from trtlog.dataset.writer import ROW_GROUP_ROWS, PartFile


@dataclass
class CompactReport:
    """What one compaction did."""

    merged: list[Path] = field(default_factory=list)  # the files replaced
    written: list[Path] = field(default_factory=list)  # the files that replaced them


def compact(dataset: Dataset, waiting: Callable[[], None] | None = None) -> CompactReport:
    """Merge every partition's files into one, for every table of ``dataset``; ``waiting`` is
    called when an ingest run holds the dataset and this one has to wait for it."""
    dataset.check_readable()
    report = CompactReport()
    stem = new_run_name("compact")
    with dataset.locked(waiting):
        renames: list[tuple[Path, Path]] = []
        try:
            for table in dataset.tables():
                partitions: dict[Path, list[Path]] = {}
                for path in dataset.files(table):
                    partitions.setdefault(path.parent, []).append(path)
                for folder, files in sorted(partitions.items()):
                    if len(files) < 2:
                        continue
                    target = folder / f"{stem}.parquet"
                    _merge(files, target)
                    renames.append((temporary_path(target), target))
                    report.merged += files
                    report.written.append(target)
        except BaseException:
            for written, _ in renames:
                written.unlink(missing_ok=True)
            raise
        if renames:
            dataset.publish(renames, report.merged)
    return report


def _merge(files: list[Path], target: Path) -> None:
    """Write the rows of ``files`` to ``target``'s temporary name in full row groups, under one
    schema that holds every file's columns."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sources = [pq.ParquetFile(path) for path in files]
    try:
        schema = pa.unify_schemas([source.schema_arrow for source in sources])
    except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
        raise DatasetError(
            f"{files[0].parent}: files disagree on a column's type ({error})"
        ) from error
    merged = PartFile(target, schema)
    for source in sources:
        for batch in source.iter_batches(batch_size=ROW_GROUP_ROWS):
            merged.add(pa.Table.from_batches([batch]))
    merged.close()


__all__ = ["CompactReport", "compact"]
