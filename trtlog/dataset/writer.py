"""One file per table and partition for a whole run, written as the logs' rows arrive.

Rows are gathered per table and partition and written in row groups of ``ROW_GROUP_ROWS`` (about
DuckDB's own row group: large enough that a scan reads few groups, small enough that a filter
skips most of them by their statistics), so a table of many small logs is a few large groups and
a large log's table is split into several. A file is opened only once its first group is
full; the rest of the rows are written when the run finishes. A run holds at most one group of
rows per table and partition in memory, and no more than ``PENDING_BYTES`` in all: past that,
the part holding most is written as a smaller group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from trtlog.dataset.layout import BUILDS, Dataset, temporary_path

ROW_GROUP_ROWS = 128 * 1024
PENDING_BYTES = 512 * 1024 * 1024
COMPRESSION = "zstd"


@dataclass
class PartFile:
    """One file being written (under its temporary name), and the rows waiting for it."""

    final: Path
    schema: pa.Schema
    pending: list[pa.Table] = field(default_factory=list)
    pending_rows: int = 0
    pending_bytes: int = 0
    writer: pq.ParquetWriter | None = None

    def add(self, table: pa.Table) -> None:
        rows = conform(table, self.schema)
        self.pending.append(rows)
        self.pending_rows += rows.num_rows
        self.pending_bytes += rows.nbytes
        if self.pending_rows >= ROW_GROUP_ROWS:
            self._flush(whole_groups_only=True)

    def flush(self) -> None:
        """Write what is waiting, a group smaller than ``ROW_GROUP_ROWS`` if need be."""
        if self.pending_rows:
            self._flush(whole_groups_only=False)

    def close(self) -> None:
        if self.pending_rows or self.writer is None:
            self._flush(whole_groups_only=False)
        if self.writer is not None:
            self.writer.close()

    def _flush(self, whole_groups_only: bool) -> None:
        rows = pa.concat_tables(self.pending) if self.pending else self.schema.empty_table()
        keep = rows.num_rows % ROW_GROUP_ROWS if whole_groups_only else 0
        if self.writer is None:
            self.writer = pq.ParquetWriter(
                temporary_path(self.final), self.schema, compression=COMPRESSION
            )
        self.writer.write_table(rows.slice(0, rows.num_rows - keep), row_group_size=ROW_GROUP_ROWS)
        self.pending = [rows.slice(rows.num_rows - keep)] if keep else []
        self.pending_rows = keep
        self.pending_bytes = sum(table.nbytes for table in self.pending)


class RunWriter:
    """The files one run adds to a dataset; nothing is visible until ``publish``."""

    def __init__(self, dataset: Dataset, stem: str) -> None:
        self.dataset = dataset
        self.stem = stem
        # (table, partition) -> its files, the first with the first schema seen; a log whose
        # table has columns the others lack (a percentile asked for) starts another file.
        self._parts: dict[tuple[str, str], list[PartFile]] = {}

    def add(self, log_date: str, tables: dict[str, pa.Table]) -> None:
        for name, table in tables.items():
            parts = self._parts.setdefault((name, log_date), [])
            part = next((part for part in parts if fits(table.schema, part.schema)), None)
            if part is None:
                suffix = f"-{len(parts)}" if parts else ""
                final = self.dataset.partition(name, log_date) / f"{self.stem}{suffix}.parquet"
                final.parent.mkdir(parents=True, exist_ok=True)
                part = PartFile(final, table.schema)
                parts.append(part)
            part.add(table)
        self._bound_memory()

    def _bound_memory(self) -> None:
        parts = [part for parts in self._parts.values() for part in parts]
        waiting = sum(part.pending_bytes for part in parts)
        for part in sorted(parts, key=lambda part: part.pending_bytes, reverse=True):
            if waiting <= PENDING_BYTES:
                break
            waiting -= part.pending_bytes
            part.flush()

    def publish(self) -> list[Path]:
        """Close every file and publish them together, ``builds`` last. The files written."""
        parts = [part for key in sorted(self._parts, key=_builds_last) for part in self._parts[key]]
        for part in parts:
            part.close()
        # From here the files are the journal's: a failure while publishing leaves them for the
        # next run to finish publishing, never to be discarded.
        self._parts.clear()
        self.dataset.publish([(temporary_path(part.final), part.final) for part in parts], [])
        return [part.final for part in parts]

    def discard(self) -> None:
        """Remove what was written (the run failed before publishing)."""
        for parts in self._parts.values():
            for part in parts:
                if part.writer is not None:
                    part.writer.close()
                temporary_path(part.final).unlink(missing_ok=True)
        self._parts.clear()


def fits(schema: pa.Schema, target: pa.Schema) -> bool:
    """Whether rows of ``schema`` can go into a file of ``target``: the same columns, or fewer
    (those missing are written as nulls), each of the same type."""
    return all(
        target.get_field_index(column.name) >= 0 and target.field(column.name).type == column.type
        for column in schema
    )


def conform(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table`` with ``schema``'s columns in its order, nulls where it has none."""
    if table.schema == schema:
        return table
    columns = [
        table.column(column.name).cast(column.type)
        if column.name in table.column_names
        else pa.nulls(table.num_rows, type=column.type)
        for column in schema
    ]
    return pa.Table.from_arrays(columns, schema=schema)


def _builds_last(key: tuple[str, str]) -> tuple[bool, str, str]:
    return (key[0] == BUILDS, *key)


__all__ = ["PENDING_BYTES", "ROW_GROUP_ROWS", "PartFile", "RunWriter", "conform", "fits"]
