"""The tables of one stored log: Parquet files, and for the large ones an index of layers.

A 1 GB verbose log holds millions of tactic timings; a query for one layer needs a few hundred
of them. Tables of more than ``ROW_GROUP_ROWS`` rows with a ``layer`` column are written in
row groups of that many rows, and beside them ``<table>.layers.json`` lists, per layer, the row
groups that hold it (layers are tuned one after another, so one or two groups each): a query
reads those groups alone, and the layer names from the index instead of from the column.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trtlog.analysis.columns import distinct_names

if TYPE_CHECKING:
    import pandas as pd

# Smaller groups make a query read less and the file larger: every group repeats the
# dictionaries of its text columns (a large build's tens of thousands of layer names).
ROW_GROUP_ROWS = 1 << 17
INDEXED_COLUMN = "layer"


def index_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.{INDEXED_COLUMN}s.json")


def write_table(table: pd.DataFrame, path: Path) -> None:
    """``table`` as ``path`` (Parquet), indexed by layer when it is large."""
    frame = _storable(table)
    if len(frame) <= ROW_GROUP_ROWS or INDEXED_COLUMN not in frame.columns:
        frame.to_parquet(path, index=False)
        # An index left by an earlier store format would name row groups this file lacks.
        index_path(path).unlink(missing_ok=True)
        return
    _write_in_groups(frame, path)
    _write_index(row_groups_by_value(frame[INDEXED_COLUMN], ROW_GROUP_ROWS), path)


def write_frames(frames: Iterable[pd.DataFrame], path: Path) -> None:
    """The table that ``frames`` make one after another as ``path``, read back as
    ``write_table`` writes it whole: for a table too large to be held whole. Each frame is one
    row group (at most ``ROW_GROUP_ROWS`` rows); all have the same columns, and the same
    categories in their categorical columns, the indexed one among them. A list of one frame
    is written as ``write_table`` writes it. Frames made one by one are each let go before the
    next is made; where they make one row group, no index is written (as for a small table)."""
    import pyarrow as arrow
    import pyarrow.parquet as parquet

    if isinstance(frames, Sequence) and len(frames) == 1:
        write_table(frames[0], path)
        return
    pending = iter(frames)
    first = next(pending, None)
    if first is None:
        raise ValueError(f"{path.name}: no frames to write")
    categories = first[INDEXED_COLUMN].cat.categories
    layers = categories.tolist()
    # Per layer (by its code), the row groups that hold it.
    held: dict[int, list[int]] = {}
    writer: Any = None
    groups_written = 0
    frames_in_turn = _first_then(first, pending)
    del first
    try:
        for frame in frames_in_turn:
            if len(frame) > ROW_GROUP_ROWS:
                raise ValueError(f"a frame of {len(frame)} rows: at most {ROW_GROUP_ROWS}")
            if not frame[INDEXED_COLUMN].cat.categories.equals(categories):
                raise ValueError(f"a frame whose {INDEXED_COLUMN} categories are not the first's")
            table = arrow.Table.from_pandas(_storable(frame), preserve_index=False)
            if writer is None:
                writer = parquet.ParquetWriter(path, table.schema, **_group_options(table.schema))
            elif not table.schema.equals(writer.schema):
                table = table.cast(writer.schema)
            writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
            for code in _codes_held(frame[INDEXED_COLUMN].cat.codes.to_numpy(), len(layers)):
                held.setdefault(code, []).append(groups_written)
            groups_written += 1
            del frame, table
    finally:
        if writer is not None:
            writer.close()
    if groups_written == 1:
        index_path(path).unlink(missing_ok=True)
        return
    index = {layers[code]: held[code] for code in sorted(held) if isinstance(layers[code], str)}
    _write_index(index, path)


def _first_then(first: pd.DataFrame, rest: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """``first``, then ``rest``: ``first`` let go before ``rest`` makes its first frame."""
    yield first
    del first
    yield from rest


def _codes_held(codes: Any, count: int) -> list[int]:
    """The codes (0..``count``-1) that ``codes`` holds, in order; missing values (-1) left out."""
    import numpy as np

    # Counted shifted by one: a missing value counts in the first bin.
    counts = np.bincount(codes.astype(np.intp) + 1, minlength=count + 1)
    held: list[int] = np.flatnonzero(counts[1:]).tolist()
    return held


def _storable(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with a type Parquet can store for each column."""
    import pandas as pd

    # Columns that hold nothing but missing values have no type Parquet can infer. The table
    # is not copied otherwise: a large log's tactics table has millions of rows.
    dtypes = table.dtypes
    untyped: dict[str, Any] = {
        column: "string"
        for column, dtype in dtypes.items()
        if pd.api.types.is_object_dtype(dtype) and table[column].isna().all()
    }
    # A categorical column without categories (every value missing) is written with text
    # categories, so that it reads back as the categorical it was.
    for column, dtype in dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype) and len(dtype.categories) == 0:
            untyped[column] = pd.CategoricalDtype(pd.Index([], dtype="str"))
    return table.astype(untyped) if untyped else table


def _write_index(index: dict[str, list[int]], path: Path) -> None:
    """``index`` (layer -> its row groups) beside ``path``."""
    # Flat lists, not one list per layer: JSON reads a few long lists faster than many short.
    document = {
        "layers": list(index),
        "group_counts": [len(groups) for groups in index.values()],
        "groups": [group for groups in index.values() for group in groups],
    }
    index_path(path).write_text(json.dumps(document))


def _write_in_groups(frame: pd.DataFrame, path: Path) -> None:
    """``frame.to_parquet`` in row groups of ``ROW_GROUP_ROWS``.

    The frame is made into Arrow once (its columns are shared, not copied, but for the flags)
    and written in one call, which leaves the interpreter lock to other threads. Made into
    Arrow a group at a time, each group would make its categories again (a large build's tens
    of thousands of layer names per group) and hold the lock at each step.
    """
    import pyarrow as arrow
    import pyarrow.parquet as parquet

    table = arrow.Table.from_pandas(frame, preserve_index=False)
    parquet.write_table(table, path, row_group_size=ROW_GROUP_ROWS, **_group_options(table.schema))


def _group_options(schema: Any) -> dict[str, Any]:
    """Dictionaries for the text columns alone, and no minimum and maximum of the text columns
    but the layer's: Parquet's defaults (both for every column) cost writing time for a file
    no smaller."""
    import pyarrow as arrow

    kinds = arrow.types
    text = [
        column.name
        for column in schema
        if kinds.is_dictionary(column.type)
        or kinds.is_string(column.type)
        or kinds.is_large_string(column.type)
    ]
    return {
        "use_dictionary": text,
        "write_statistics": [
            column.name
            for column in schema
            if column.name == INDEXED_COLUMN or column.name not in text
        ],
    }


def row_groups_by_value(column: pd.Series, group_rows: int) -> dict[str, list[int]]:
    """For each distinct text value of ``column``, in ``distinct_names`` order, the numbers of
    the row groups of ``group_rows`` rows that hold it."""
    import pandas as pd

    # Counted on integer codes, group by group: the text of millions of rows is never made.
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes, names = column.cat.codes.to_numpy(), column.cat.categories
    else:
        codes, names = pd.factorize(column)
    held: list[list[int]] = [[] for _ in names]
    for group, start in enumerate(range(0, len(codes), group_rows)):
        for code in _codes_held(codes[start : start + group_rows], len(names)):
            held[code].append(group)
    return {
        name: groups
        for name, groups in zip(names, held, strict=True)
        if groups and isinstance(name, str)
    }


class ParquetTables:
    """Reads the tables kept in one folder of the store."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._indexes: dict[str, LayerIndex | None] = {}

    def read(
        self,
        name: str,
        columns: list[str] | None = None,
        where: tuple[str, list[str]] | None = None,
    ) -> pd.DataFrame:
        """A table: whole, some of its columns, or the rows whose ``column`` holds one of
        ``values`` (``where``)."""
        import pandas as pd

        path = self.folder / f"{name}.parquet"
        if where is None:
            return pd.read_parquet(path, columns=columns)
        column, values = where
        index = self._index(name) if column == INDEXED_COLUMN else None
        groups = [] if index is None else index.groups_holding(values)
        if not groups:
            return pd.read_parquet(path, columns=columns, filters=[(column, "in", values)])
        import pyarrow as arrow
        import pyarrow.compute as compute
        import pyarrow.parquet as parquet

        # Group by group, each filtered before the next is read: a layer found in every group
        # (a name repeated through the log) costs one group's memory, not the table's.
        stored = parquet.ParquetFile(path)
        wanted = arrow.array(values, type=arrow.string())
        read = None if columns is None else list(dict.fromkeys([*columns, column]))
        parts = []
        for group in groups:
            part = stored.read_row_group(group, columns=read, use_pandas_metadata=True)
            parts.append(part.filter(compute.is_in(part[column], value_set=wanted)))
        frame = arrow.concat_tables(parts).to_pandas()
        return (frame if columns is None else frame[columns]).reset_index(drop=True)

    def distinct(self, name: str, column: str) -> list[str]:
        """The distinct text values of a column (``distinct_names``)."""
        index = self._index(name) if column == INDEXED_COLUMN else None
        if index is not None:
            return list(index.layers)
        return distinct_names(self.read(name, columns=[column])[column])

    def _index(self, name: str) -> LayerIndex | None:
        if name not in self._indexes:
            try:
                document = json.loads(index_path(self.folder / f"{name}.parquet").read_text())
            except (OSError, ValueError):
                document = None
            self._indexes[name] = LayerIndex.of(document)
        return self._indexes[name]


class LayerIndex:
    """The row groups holding each layer of a stored table (``<table>.layers.json``)."""

    def __init__(self, layers: list[str], group_counts: list[int], groups: list[int]) -> None:
        self.layers = layers
        self._group_counts = group_counts
        self._groups = groups
        # Layer -> its position, and where each layer's groups end in ``groups``: made when
        # first asked for, with C-level calls (a Python loop over every layer is slow).
        self._positions: dict[str, int] | None = None
        self._ends: list[int] = []

    @classmethod
    def of(cls, document: object) -> LayerIndex | None:
        """The index a ``layers.json`` document holds; None when it is not one."""
        if not isinstance(document, dict):
            return None
        layers, counts, groups = (document.get(key) for key in _INDEX_KEYS)
        if not (isinstance(layers, list) and isinstance(counts, list) and isinstance(groups, list)):
            return None
        if len(layers) != len(counts) or sum(counts) != len(groups):
            return None
        return cls(layers, counts, groups)

    def groups_holding(self, values: list[str]) -> list[int]:
        """The row groups holding any of ``values``, in order."""
        if self._positions is None:
            self._positions = dict(zip(self.layers, range(len(self.layers)), strict=True))
            self._ends = list(itertools.accumulate(self._group_counts))
        found: set[int] = set()
        for value in values:
            position = self._positions.get(value)
            if position is not None:
                end = self._ends[position]
                found.update(self._groups[end - self._group_counts[position] : end])
        return sorted(found)


_INDEX_KEYS = ("layers", "group_counts", "groups")


__all__ = [
    "ROW_GROUP_ROWS",
    "LayerIndex",
    "ParquetTables",
    "index_path",
    "row_groups_by_value",
    "write_table",
]
