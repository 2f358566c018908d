"""One column type per kind of value, so that every log's file of a table has the same schema.

Readers that take a folder of Parquet files as one table (Spark, Polars, pandas) need the
files to agree. pandas types a column by what one log held (a categorical has its log's
categories; a column with no value is ``object`` or ``float64``), so each column is cast to the
Arrow type of its kind: text (categoricals and objects) as ``string``, integers as ``int64``,
floats as ``double``, booleans as ``bool``, times as ``timestamp[us]``. A column without a
single value is typed by its name, as the analysis types the columns of an empty table.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.api.types import is_float_dtype, is_object_dtype

from trtlog.analysis.buildlog import column_kind

# The NumPy columns that go to Arrow as they are, without a pandas type between.
_NUMPY_TYPES = {
    np.dtype(np.bool_): pa.bool_(),
    np.dtype(np.int64): pa.int64(),
    np.dtype(np.float64): pa.float64(),
}
_BOOLEAN = pd.BooleanDtype()
_INT64 = pd.Int64Dtype()
_FLOAT64 = np.dtype(np.float64)


def normalise(table: pd.DataFrame) -> pa.Table:
    """``table`` as an Arrow table with one type per kind of column."""
    arrays = [_column(table[name]) for name in table.columns]
    return pa.Table.from_arrays(arrays, names=[str(name) for name in table.columns])


def _column(column: pd.Series) -> pa.Array:
    array = _converted(column)
    dtype = column.dtype
    if array.null_count == len(array) and (is_object_dtype(dtype) or is_float_dtype(dtype)):
        kind = column_kind(str(column.name))
        arrow = {"flag": pa.bool_(), "number": pa.float64()}.get(kind, pa.string())
        return pa.nulls(len(column), type=arrow)
    return array


def _converted(column: pd.Series) -> pa.Array:
    dtype = column.dtype
    if dtype == _INT64:
        # pandas' nullable integers go to Arrow as they are (its masked array's own conversion).
        return pa.array(column.array, type=pa.int64())
    # A float NaN is a missing value, as the pandas types below make it.
    if isinstance(dtype, np.dtype) and dtype in _NUMPY_TYPES:
        return pa.array(column.to_numpy(), type=_NUMPY_TYPES[dtype], from_pandas=True)
    if pd.api.types.is_bool_dtype(dtype):
        return pa.array(column.astype(_BOOLEAN), type=pa.bool_(), from_pandas=True)
    if pd.api.types.is_integer_dtype(dtype):
        return pa.array(column.astype(_INT64), type=pa.int64(), from_pandas=True)
    if pd.api.types.is_float_dtype(dtype):
        return pa.array(column.astype(_FLOAT64), type=pa.float64(), from_pandas=True)
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return pa.array(column, type=pa.timestamp("us"), from_pandas=True)
    if isinstance(dtype, pd.CategoricalDtype):
        categories = pa.array([_text(value) for value in dtype.categories], type=pa.string())
        codes = column.cat.codes.to_numpy()
        return categories.take(pa.array(codes, mask=codes < 0))
    values = column.to_numpy(dtype=object)
    try:
        # Text alone (and missing values), as most text columns are: converted by Arrow.
        return pa.array(values, type=pa.string(), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array([_text(value) for value in values], type=pa.string())


def _missing(value: Any) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float) and math.isnan(value)


def _text(value: Any) -> str | None:
    if _missing(value):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(str(part) for part in value)
    return str(value)


__all__ = ["normalise"]
