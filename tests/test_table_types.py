"""Typing tables without pandas' work where the types are known: an empty table's number and
flag columns, ``with_types`` (the same table as ``astype``), the dataset's Arrow columns."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from trtlog.analysis.buildlog import typed_empty
from trtlog.analysis.columns import with_types
from trtlog.dataset.columns import normalise


def test_an_empty_table_gets_its_number_and_flag_types() -> None:
    table = pd.DataFrame(
        {
            "layer": pd.Series([], dtype=object),
            "build": pd.Series([], dtype=object),
            "run": pd.Series([], dtype="Int64"),
            "total_ms": pd.Series([], dtype="float64"),
            "fastest": pd.Series([], dtype=object),
            "kernel_family": pd.Categorical([], categories=["a", "b"]),
        }
    )
    typed = typed_empty(table)
    assert list(typed.columns) == list(table.columns)
    assert typed.index.equals(table.index)
    assert typed.dtypes.to_dict() == {
        "layer": np.dtype(object),
        "build": np.dtype("float64"),
        "run": np.dtype("float64"),
        "total_ms": np.dtype("float64"),
        "fastest": pd.BooleanDtype(),
        "kernel_family": pd.CategoricalDtype(["a", "b"]),
    }


def test_dataset_columns_keep_one_arrow_type_per_kind() -> None:
    table = pd.DataFrame(
        {
            "count": np.array([3, 4], dtype=np.int64),
            "small": np.array([1, 2], dtype=np.int32),
            "best_ms": [0.5, float("nan")],
            "kept": np.array([True, False]),
            "build": pd.array([1, None], dtype="Int64"),
            "wider": pd.array([True, None], dtype="boolean"),
            "layer": ["conv1", None],
        }
    )
    converted = normalise(table)
    assert converted.schema == pa.schema(
        [
            ("count", pa.int64()),
            ("small", pa.int64()),
            ("best_ms", pa.float64()),
            ("kept", pa.bool_()),
            ("build", pa.int64()),
            ("wider", pa.bool_()),
            ("layer", pa.string()),
        ]
    )
    assert converted.to_pydict() == {
        "count": [3, 4],
        "small": [1, 2],
        "best_ms": [0.5, None],
        "kept": [True, False],
        "build": [1, None],
        "wider": [True, None],
        "layer": ["conv1", None],
    }


def test_with_types_converts_each_named_column_as_astype_does() -> None:
    table = pd.DataFrame(
        {
            "build": [0.0, float("nan"), 2.0],
            "kept": [True, False, True],
            "kind": pd.Categorical(["b", "a", "b"]),
        },
        index=[5, 6, 7],
    )
    typed = with_types(table, {"build": "Int64", "kept": "boolean"})
    assert typed.dtypes.to_dict() == {
        "build": pd.Int64Dtype(),
        "kept": pd.BooleanDtype(),
        "kind": pd.CategoricalDtype(["a", "b"]),
    }
    assert list(typed.columns) == ["build", "kept", "kind"]
    assert list(typed.index) == [5, 6, 7]
    assert typed["build"].tolist() == [0, pd.NA, 2]
    assert typed["kind"].tolist() == ["b", "a", "b"]
    pd.testing.assert_frame_equal(typed, table.astype({"build": "Int64", "kept": "boolean"}))


def test_with_types_of_a_column_the_table_lacks_fails_as_astype_does() -> None:
    table = pd.DataFrame({"build": [1.0]})
    with pytest.raises(KeyError):
        with_types(table, {"run": "Int64"})


def test_empty_tables_are_typed_once_and_each_caller_gets_its_own() -> None:
    """Most tables of a small log are empty: their typing is kept per set of columns and types,
    and what one caller adds to its table is not in the next caller's."""
    types = {"build": "Int64", "kept": "boolean"}

    def empty() -> pd.DataFrame:
        return pd.DataFrame({"build": [], "kept": [], "layer": []}, dtype=object)

    first = with_types(empty(), types)
    pd.testing.assert_frame_equal(first, empty().astype(types))
    first["added"] = pd.Series([], dtype="float64")
    second = with_types(empty(), types)
    assert list(second.columns) == ["build", "kept", "layer"]
    assert second.dtypes.to_dict() == first.drop(columns="added").dtypes.to_dict()
    # Other types for the same columns: typed anew.
    floats = with_types(empty(), {"build": "float64", "kept": "boolean"})
    assert floats["build"].dtype == np.dtype("float64")
    # typed_empty of an empty table: the same as before it was kept, whatever came between.
    once, again = typed_empty(empty()), typed_empty(empty())
    assert once is not again
    pd.testing.assert_frame_equal(once, again)
    assert once["kept"].dtype == pd.BooleanDtype() and once["build"].dtype == np.float64


def test_an_empty_table_is_typed_once_per_set_of_columns_and_types(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import trtlog.analysis.columns as columns

    typings: list[int] = []
    typed = columns._typed

    def counted(frame: pd.DataFrame, types: dict[str, object]) -> pd.DataFrame:
        typings.append(1)
        return typed(frame, types)

    monkeypatch.setattr(columns, "_typed", counted)

    def empty() -> pd.DataFrame:
        return pd.DataFrame({"once_a": [], "once_b": []}, dtype=object)

    for _ in range(3):
        with_types(empty(), {"once_a": "Int64"})
    assert len(typings) == 1
    with_types(empty(), {"once_a": "float64"})
    assert len(typings) == 2


def test_categorical_types_that_compare_equal_keep_their_own_order() -> None:
    def empty() -> pd.DataFrame:
        return pd.DataFrame({"ordered_c": []}, dtype=object)

    forward = with_types(empty(), {"ordered_c": pd.CategoricalDtype(["a", "b"])})
    backward = with_types(empty(), {"ordered_c": pd.CategoricalDtype(["b", "a"])})
    assert list(forward["ordered_c"].cat.categories) == ["a", "b"]
    assert list(backward["ordered_c"].cat.categories) == ["b", "a"]
    named = pd.DataFrame({"named_x": []}, dtype=object)
    named.index.name = "i"
    assert typed_empty(named).index.name == "i"
