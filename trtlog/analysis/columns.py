"""Columns that grow one value at a time and become compact pandas columns.

A large log has millions of tactic timings; their text columns (layer, formats, runner,
kernel, tactic) repeat a few thousand distinct values. They are kept as integer codes and
become categorical columns with their categories in sorted order, so that sorting by them
sorts the text; numbers are kept in typed arrays.

The tactic builder fills them as the log is read: a layer, formats and runner per run of timings
and a kernel per timing.

pandas is imported by the functions that make pandas columns, here and in the table builders
that read a log, so that commands that read no log never load it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


class TextColumn:
    """Text values (or None) kept as codes into the distinct values seen."""

    __slots__ = ("_codes", "_values")

    def __init__(self) -> None:
        self._codes: dict[str, int] = {}
        self._values = array("i")

    def append(self, value: str | None) -> None:
        if value is None:
            self._values.append(-1)
            return
        code = self._codes.get(value)
        if code is None:
            code = self._codes[value] = len(self._codes)
        self._values.append(code)

    def repeat(self, value: str | None, count: int) -> None:
        """Append ``value`` ``count`` times."""
        if value is None:
            self._values.extend(array("i", [-1]) * count)
            return
        code = self._codes.get(value)
        if code is None:
            code = self._codes[value] = len(self._codes)
        self._values.extend(array("i", [code]) * count)

    def extend(self, values: list[str | None]) -> None:
        codes = self._codes
        for value in set(values).difference(codes):
            if value is not None:
                codes[value] = len(codes)
        if None not in values:
            self._values.extend(array("i", map(codes.__getitem__, values)))  # type: ignore[arg-type]
            return
        self._values.extend(array("i", [-1 if value is None else codes[value] for value in values]))

    def __len__(self) -> int:
        return len(self._values)

    def sorted_codes(self) -> tuple[np.ndarray, list[str]]:
        """Each value's code among the distinct values in sorted order (-1: missing), and
        those values."""
        kept, remap, categories = self.kept_codes()
        return remap[kept], categories

    def kept_codes(self) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """The codes as kept (in the order the values were first seen; -1: missing), what each
        becomes among the distinct values in sorted order (``remap[code]``), and those values:
        for a column of millions of values, made into sorted codes a range at a time."""
        categories = list(self._codes)
        order = sorted(range(len(categories)), key=categories.__getitem__)
        remap = np.empty(len(categories) + 1, dtype=np.int32)
        remap[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
        remap[-1] = -1
        kept = np.frombuffer(self._values, dtype=np.int32) if len(self._values) else None
        return (
            kept if kept is not None else np.empty(0, dtype=np.int32),
            remap,
            [categories[index] for index in order],
        )


def distinct_names(column: pd.Series) -> list[str]:
    """The distinct text values of a column, in order of first appearance; a categorical
    column's categories (a tactics table of millions of rows holds a few thousand names)."""
    import pandas as pd

    if isinstance(column.dtype, pd.CategoricalDtype):
        return [str(name) for name in column.cat.categories]
    # ``tolist`` first: pandas 3 reads text as Arrow-backed strings, which a Python loop
    # fetches one scalar at a time.
    return [name for name in pd.unique(column.dropna()).tolist() if isinstance(name, str)]


def tactic_texts(tactics: np.ndarray) -> pd.Categorical:
    """Tactic ids (TensorRT's unsigned values) as "0x%016x" text, each distinct id formatted
    once: sorted as numbers, they are sorted as text too."""
    import pandas as pd

    codes, uniques = pd.factorize(tactics, sort=True)
    return pd.Categorical.from_codes(
        codes, categories=[f"0x{int(value):016x}" for value in uniques], validate=False
    )


def numbers(values: array[int] | array[float], dtype: str) -> np.ndarray:
    """A typed array's values as a numpy array of ``dtype``."""
    return np.frombuffer(values, dtype=dtype) if len(values) else np.empty(0, dtype=dtype)


def ranks_within(values: np.ndarray, groups: np.ndarray) -> pd.arrays.IntegerArray:
    """Each value's rank among the values of its group: pandas' ``groupby(groups).rank(
    method="min", na_option="bottom")``, 1 for the least, equal values sharing the least rank
    of theirs, NaN after every number (all a group's NaN sharing one rank).

    One sort of integer keys instead of pandas' grouped rank (which sorts by two keys): each
    value is replaced by its place among the distinct values, so that a group and a value make
    one integer. TensorRT prints its times to a few digits, so a log's millions of timings hold
    few distinct times and this sort is short.
    """
    import pandas as pd

    count = len(values)
    if count == 0:
        return pd.arrays.IntegerArray(np.empty(0, dtype="int64"), np.zeros(0, dtype=bool))
    # NaN takes the place after every number (``factorize`` leaves it out).
    missing = np.isnan(values)
    # (Hashed, then only the distinct values sorted, where ``np.unique`` sorts them all.)
    known, distinct = pd.factorize(values[~missing], sort=True)
    places = np.full(count, len(distinct), dtype="int64")
    places[~missing] = known
    width = len(distinct) + 1
    # Groups from 0, each taking ``width`` keys.
    lowest = int(groups.min())
    if int(groups.max()) - lowest + 1 > np.iinfo(np.int64).max // width:
        order = np.lexsort((places, groups))
    else:
        # Stable: ``groups`` is mostly in order already (a table's blocks are), and the sort
        # keeps such runs, which makes it faster than the default sort here.
        order = np.argsort((groups.astype("int64") - lowest) * width + places, kind="stable")
    sorted_groups, sorted_places = groups[order], places[order]
    positions = np.arange(count)
    opens_group = np.ones(count, dtype=bool)
    np.not_equal(sorted_groups[1:], sorted_groups[:-1], out=opens_group[1:])
    # A new value, or a new group: where a run of equal values starts.
    opens_run = opens_group.copy()
    opens_run[1:] |= sorted_places[1:] != sorted_places[:-1]
    group_start = np.maximum.accumulate(np.where(opens_group, positions, 0))
    run_start = np.maximum.accumulate(np.where(opens_run, positions, 0))
    ranks = np.empty(count, dtype="int64")
    ranks[order] = run_start - group_start + 1
    return pd.arrays.IntegerArray(ranks, np.zeros(count, dtype=bool))


def with_types(frame: pd.DataFrame, types: Mapping[str, Any]) -> pd.DataFrame:
    """``frame.astype(types)``: the same table, each column converted as ``astype`` converts
    it, put together without ``astype``'s join of the columns."""

    columns = frame.columns
    if not columns.is_unique or any(name not in columns for name in types):
        return frame.astype(types)
    if not len(frame):
        # Most tables of a small log are empty.
        key = [(name, _type_key(kind)) for name, kind in types.items()]
        return of_empty(frame, lambda empty: _typed(empty, types), *key)
    return _typed(frame, types)


# Tables made of empty tables by ``of_empty``: by what made them, and the empty table's columns
# and their types.
_OF_EMPTY: dict[tuple[Any, ...], pd.DataFrame] = {}


def of_empty(
    table: pd.DataFrame, make: Callable[[pd.DataFrame], pd.DataFrame], *key: Hashable
) -> pd.DataFrame:
    """``make(table)`` of an empty ``table``, made once per function (``make`` depends on
    nothing but the table and ``key``), ``key``, set of columns and their types and names:
    each caller gets a copy of its own."""
    import pandas as pd

    if len(table) or type(table.index) is not pd.RangeIndex:
        return make(table)
    try:
        whole_key = (
            getattr(make, "__code__", make), *key, tuple(table.columns), table.columns.name,
            table.index.name, *(_type_key(dtype) for dtype in table.dtypes),
        )  # fmt: skip
        made = _OF_EMPTY.get(whole_key)
    except TypeError:  # a type or value that is no dictionary key
        return make(table)
    if made is None:
        made = _OF_EMPTY[whole_key] = make(table)
    return made.copy()


def _type_key(dtype: Any) -> Hashable:
    """A column type as a key: categorical types that compare equal may order their
    categories differently."""
    import pandas as pd

    if isinstance(dtype, pd.CategoricalDtype):
        return (dtype, tuple(dtype.categories.tolist()), dtype.ordered)
    key: Hashable = dtype
    return key


def _typed(frame: pd.DataFrame, types: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    columns = frame.columns
    typed = {
        name: frame[name].astype(types[name]) if name in types else frame[name] for name in columns
    }
    return pd.DataFrame(typed, index=frame.index, columns=columns, copy=False)


__all__ = [
    "TextColumn",
    "distinct_names",
    "numbers",
    "of_empty",
    "ranks_within",
    "tactic_texts",
    "with_types",
]
