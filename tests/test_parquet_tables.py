"""Stored tables: large ones in row groups with a layer index, read back as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import trtlog
import trtlog.store.parquet_tables
from tests.conftest import SAMPLES, corpus_dir
from trtlog.analysis.columns import distinct_names
from trtlog.analysis.queries import layer_choices, tactics_of_layers
from trtlog.store.parquet_tables import (
    LayerIndex,
    ParquetTables,
    index_path,
    row_groups_by_value,
    write_table,
)


def test_row_groups_by_value_lists_the_groups_holding_each_value() -> None:
    column = pd.Series(["b", "b", "a", "b", None, "c", "a"])
    # Groups of two rows: [b b] [a b] [None c] [a]
    assert row_groups_by_value(column, 2) == {"b": [0, 1], "a": [1, 3], "c": [2]}
    # A categorical column lists its categories in order (as ``distinct_names`` does).
    categorical = column.astype(pd.CategoricalDtype(["a", "b", "c"]))
    assert list(row_groups_by_value(categorical, 2)) == ["a", "b", "c"]


def _tactics_like(rows: int) -> pd.DataFrame:
    layers = [f"layer_{row // 7 % 11}" for row in range(rows)]
    return pd.DataFrame(
        {
            "combination": [row // 7 for row in range(rows)],
            "layer": pd.Categorical(layers, categories=sorted(set(layers))),
            "kernel": [None if row % 5 == 0 else f"kernel_{row % 3}" for row in range(rows)],
            "time_ms": [row / 10 for row in range(rows)],
        }
    )


@pytest.mark.parametrize("categorical", [True, False])
def test_indexed_reads_equal_filtered_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, categorical: bool
) -> None:
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 16)
    table = _tactics_like(200)
    if not categorical:
        table["layer"] = table["layer"].astype(object)
    write_table(table, tmp_path / "tactics.parquet")
    assert index_path(tmp_path / "tactics.parquet").is_file()
    stored = ParquetTables(tmp_path)
    whole = pd.read_parquet(tmp_path / "tactics.parquet")
    pd.testing.assert_frame_equal(stored.read("tactics"), whole)
    for values in (["layer_3"], ["layer_0", "layer_10"], ["no such layer"]):
        expected = whole[whole["layer"].isin(values)].reset_index(drop=True)
        pd.testing.assert_frame_equal(stored.read("tactics", where=("layer", values)), expected)
        columns = ["time_ms", "combination"]
        pd.testing.assert_frame_equal(
            stored.read("tactics", columns=columns, where=("layer", values)), expected[columns]
        )
    assert stored.distinct("tactics", "layer") == distinct_names(whole["layer"])
    assert stored.distinct("tactics", "kernel") == distinct_names(whole["kernel"])


def test_the_index_names_the_groups_holding_each_layer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 16)
    write_table(_tactics_like(200), tmp_path / "tactics.parquet")
    index = LayerIndex.of(json.loads(index_path(tmp_path / "tactics.parquet").read_text()))
    assert index is not None
    # The categories' order, as ``distinct_names`` gives them.
    assert index.layers == sorted(f"layer_{number}" for number in range(11))
    # layer_3 holds rows 21-27, 98-104 and 175-181: groups of 16 rows 1, 6, 10 and 11.
    assert index.groups_holding(["layer_3"]) == [1, 6, 10, 11]
    assert index.groups_holding(["layer_3", "layer_0", "none"]) == [0, 1, 4, 5, 6, 9, 10, 11]
    assert index.groups_holding(["none"]) == []


@pytest.mark.parametrize(
    "document",
    [
        {"layer_3": [1, 6, 10, 11]},
        {"layers": ["layer_3"], "group_counts": [2], "groups": [1]},
        ["layer_3"],
        "not json",
    ],
    ids=["an older store's form", "counts that do not add up", "a list", "not JSON"],
)
def test_an_index_not_of_this_form_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, document: object
) -> None:
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 16)
    write_table(_tactics_like(200), tmp_path / "tactics.parquet")
    text = document if isinstance(document, str) else json.dumps(document)
    index_path(tmp_path / "tactics.parquet").write_text(text)
    stored = ParquetTables(tmp_path)
    whole = pd.read_parquet(tmp_path / "tactics.parquet")
    expected = whole[whole["layer"] == "layer_3"].reset_index(drop=True)
    pd.testing.assert_frame_equal(stored.read("tactics", where=("layer", ["layer_3"])), expected)
    assert stored.distinct("tactics", "layer") == distinct_names(whole["layer"])


def test_small_tables_have_no_index(tmp_path: Path) -> None:
    write_table(_tactics_like(20), tmp_path / "tactics.parquet")
    assert not index_path(tmp_path / "tactics.parquet").exists()
    assert ParquetTables(tmp_path).distinct("tactics", "layer") == [
        f"layer_{number}" for number in (0, 1, 2)
    ]


@pytest.mark.slow
def test_layer_queries_on_an_indexed_store_equal_fresh_ones(
    private_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 4)
    path = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    fresh = trtlog.load(path)
    trtlog.load(path, store=True)
    stored = trtlog.load(path, store=True)
    assert list(private_store.glob("*/tactics.layers.json"))
    for pattern in ("/conv2/Conv + /relu2/Relu", "conv", "Gemm"):
        for view in (tactics_of_layers, layer_choices):
            pd.testing.assert_frame_equal(
                view(stored, pattern), view(fresh, pattern), check_dtype=False
            )


def test_a_table_written_again_small_drops_its_old_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 16)
    path = tmp_path / "tactics.parquet"
    write_table(_tactics_like(200), path)
    assert index_path(path).is_file()
    write_table(_tactics_like(10), path)
    assert not index_path(path).exists()
    rows = ParquetTables(tmp_path).read("tactics", where=("layer", ["layer_1"]))
    assert rows["combination"].tolist() == [1, 1, 1]  # rows 7-9 of ten


def test_a_table_written_in_groups_reads_back_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The types come from the whole table, so a column that is empty in one group (``kernel``
    # in the first) or holds missing integers keeps them, and every group but the last holds
    # ``ROW_GROUP_ROWS`` rows (the layer index counts on it).
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 16)
    table = _tactics_like(70)
    table["kernel"] = [None] * 16 + [f"kernel_{row}" for row in range(54)]
    table["runner_id"] = pd.array([None if row % 4 else row for row in range(70)], dtype="Int64")
    table["fastest"] = [row % 2 == 0 for row in range(70)]
    path = tmp_path / "tactics.parquet"
    write_table(table, path)
    pd.testing.assert_frame_equal(pd.read_parquet(path), table)
    groups = pq.ParquetFile(path).metadata
    assert [groups.row_group(group).num_rows for group in range(groups.num_row_groups)] == [
        16,
        16,
        16,
        16,
        6,
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["hackathon_trt10.16.1_trtexec_build_h100.log", "hackathon_trt8.6.0_trtexec_build_rtx3090.log"],
)
def test_a_real_tactics_table_written_in_groups_reads_back_whole_and_by_layer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # Real categories (thousands of layers, kernels, formats) through the one-call write.
    path = corpus_dir() / "logs" / name
    if not path.is_file():
        pytest.skip(f"corpus log {name} not found in {corpus_dir()}")
    table = trtlog.load(path).table("tactics")
    group_rows = 100
    assert len(table) > 3 * group_rows
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", group_rows)
    written = tmp_path / "tactics.parquet"
    write_table(table, written)
    pd.testing.assert_frame_equal(pd.read_parquet(written), table)
    groups = pq.ParquetFile(written).metadata
    sizes = [groups.row_group(group).num_rows for group in range(groups.num_row_groups)]
    assert sizes[:-1] == [group_rows] * (len(sizes) - 1) and 0 < sizes[-1] <= group_rows
    stored = ParquetTables(tmp_path)
    layer = str(table["layer"].value_counts().index[0])
    expected = table[table["layer"] == layer].reset_index(drop=True)
    pd.testing.assert_frame_equal(stored.read("tactics", where=("layer", [layer])), expected)


def test_grouped_tables_encode_text_by_dictionary_and_keep_the_layers_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Dictionaries and minimum/maximum for every column doubled the time a large tactics
    # table took to write; numbers keep their statistics, text columns but the layer do not.
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 16)
    table = _tactics_like(40)
    table["kernel"] = [f"kernel_{row % 3}" for row in range(40)]
    path = tmp_path / "tactics.parquet"
    write_table(table, path)
    pd.testing.assert_frame_equal(pd.read_parquet(path), table)
    metadata = pq.ParquetFile(path).metadata
    names = [metadata.schema.column(index).name for index in range(metadata.num_columns)]
    first = metadata.row_group(0)
    columns = {name: first.column(index) for index, name in enumerate(names)}
    assert columns["layer"].is_stats_set and columns["time_ms"].is_stats_set
    assert not columns["kernel"].is_stats_set
    assert columns["kernel"].has_dictionary_page
    assert not columns["time_ms"].has_dictionary_page


@pytest.mark.parametrize("dtype", ["object", "str"])
def test_distinct_names_keep_first_appearance_and_leave_out_missing(dtype: str) -> None:
    column = pd.Series(["b", None, "a", "b", "c", None, "a"], dtype=dtype)
    assert distinct_names(column) == ["b", "a", "c"]
