"""A dataset is read as it is by the other tools teams use: Polars, DuckDB and Spark, each agreeing
with pandas on every table of a dataset of the sample logs (rows, columns, values)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.conftest import SAMPLES
from trtlog.dataset import Dataset, ingest
from trtlog.dataset.layout import PARTITION


@pytest.fixture(scope="module")
def sample_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("readers") / "dataset"
    report = ingest([str(SAMPLES)], Dataset(root), jobs=1)
    assert report.added and not report.failed
    return root


def _by_pandas(root: Path, table: str) -> pd.DataFrame:
    frame = pd.read_parquet(root / table)
    frame[PARTITION] = frame[PARTITION].astype(str)
    return _in_order(frame)


def _in_order(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows in one order whatever the reader, columns by name, missing values as None."""
    frame = frame[sorted(frame.columns)]
    frame = frame.astype(object).where(frame.notna(), None)
    keys = list(frame.columns)
    return frame.sort_values(keys, key=lambda column: column.astype(str)).reset_index(drop=True)


def _same(expected: pd.DataFrame, got: pd.DataFrame, reader: str, table: str) -> None:
    assert list(got.columns) == list(expected.columns), (reader, table)
    assert len(got) == len(expected), (reader, table)
    for column in expected.columns:
        for want, have in zip(expected[column], got[column], strict=True):
            # pandas reads a whole-number column with gaps as floats (4.0 for 4).
            if _number(want) and _number(have):
                assert float(have) == pytest.approx(float(want)), (reader, table, column)
            else:
                assert str(have) == str(want), (reader, table, column)


def _number(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def test_polars_reads_every_table_as_pandas_does(sample_dataset: Path) -> None:
    polars = pytest.importorskip("polars")
    tables = Dataset(sample_dataset).tables()
    assert {"builds", "tactics", "layers", "choices"} <= set(tables)
    for table in tables:
        frame = polars.scan_parquet(
            sample_dataset / table / "**" / "*.parquet", hive_partitioning=True
        ).collect()
        got = frame.to_pandas()
        got[PARTITION] = got[PARTITION].astype(str)
        _same(_by_pandas(sample_dataset, table), _in_order(got), "polars", table)


def test_duckdb_reads_every_table_as_pandas_does(sample_dataset: Path) -> None:
    import duckdb

    for table in Dataset(sample_dataset).tables():
        pattern = str(sample_dataset / table / "**" / "*.parquet").replace("'", "''")
        got = duckdb.sql(f"SELECT * FROM read_parquet('{pattern}', hive_partitioning = true)").df()
        got[PARTITION] = got[PARTITION].astype(str)
        _same(_by_pandas(sample_dataset, table), _in_order(got), "duckdb", table)


def test_spark_reads_every_table_as_pandas_does(sample_dataset: Path) -> None:
    # Spark runs where pyspark and a Java runtime are installed (neither is a test dependency:
    # together they are a third of a GB).
    pyspark = pytest.importorskip("pyspark.sql")
    if shutil.which("java") is None:
        pytest.skip("Spark needs a Java runtime")
    spark = pyspark.SparkSession.builder.master("local[1]").appName("trtlog-test").getOrCreate()
    try:
        for table in Dataset(sample_dataset).tables():
            got = spark.read.parquet(str(sample_dataset / table)).toPandas()
            got[PARTITION] = got[PARTITION].astype(str)
            _same(_by_pandas(sample_dataset, table), _in_order(got), "spark", table)
    finally:
        spark.stop()
