"""trtlog ingest, query, trends and regressions: many logs in one Parquet dataset."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import trtlog
from tests.conftest import CORPUS_LOGS, SAMPLES, corpus_dir, needs_corpus
from trtlog.cli.app import app
from trtlog.dataset import Dataset, ingest
from trtlog.dataset.extract import METADATA
from trtlog.dataset.layout import PARTITION, DatasetError
from trtlog.dataset.sql import query, regressions, trends

SAMPLE_8X = SAMPLES / "trtexec_8.x_build.log"


def read_table(root: Path, table: str) -> pd.DataFrame:
    """A table of a dataset as pandas reads it (the partition column included), in a stable
    order."""
    frame = pd.read_parquet(root / table)
    frame[PARTITION] = frame[PARTITION].astype(str)
    order = [column for column in ("build_id", "line", "first_line") if column in frame.columns]
    return frame.sort_values(order, kind="stable").reset_index(drop=True)


def all_tables(root: Path) -> dict[str, pd.DataFrame]:
    return {table: read_table(root, table) for table in Dataset(root).tables()}


@pytest.fixture(scope="module")
def corpus_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CORPUS_LOGS:
        pytest.skip(f"no corpus logs in {corpus_dir()}")
    root = tmp_path_factory.mktemp("corpus") / "dataset"
    report = ingest([str(corpus_dir() / "logs")], Dataset(root), jobs=1)
    assert len(report.added) == len(CORPUS_LOGS)
    assert not report.failed
    return root


@pytest.mark.slow
@needs_corpus
def test_two_jobs_write_the_same_dataset(corpus_dataset: Path, tmp_path: Path) -> None:
    two = tmp_path / "two"
    ingest([str(corpus_dir() / "logs" / "*.log")], Dataset(two), jobs=2)
    one_tables, two_tables = all_tables(corpus_dataset), all_tables(two)
    assert sorted(one_tables) == sorted(two_tables)
    for name, table in one_tables.items():
        pd.testing.assert_frame_equal(two_tables[name], table, obj=name)


@pytest.mark.slow
@needs_corpus
def test_dask_cluster_writes_the_same_dataset(corpus_dataset: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    on_dask = tmp_path / "dask"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        report = ingest(
            [str(corpus_dir() / "logs")], Dataset(on_dask), dask_scheduler=cluster.scheduler_address
        )
    assert len(report.added) == len(CORPUS_LOGS)
    one_tables, dask_tables = all_tables(corpus_dataset), all_tables(on_dask)
    assert sorted(one_tables) == sorted(dask_tables)
    for name, table in one_tables.items():
        pd.testing.assert_frame_equal(dask_tables[name], table, obj=name)


@pytest.mark.slow
@needs_corpus
def test_every_table_and_row_has_the_metadata(corpus_dataset: Path) -> None:
    tables = all_tables(corpus_dataset)
    expected = {"builds", "engine_builds", "stages", "tactics", "choices", "fusions", "reformats"}
    expected |= {"layers", "memory", "perf", "profile", "timeline", "warnings"}
    assert expected <= set(tables)
    for name, table in tables.items():
        assert {*METADATA, PARTITION} <= set(table.columns), name
        assert table["build_id"].notna().all() and table["source_path"].notna().all(), name
        assert table[PARTITION].str.fullmatch(r"\d{4}-\d\d-\d\d").all(), name
    builds = tables["builds"]
    assert len(builds) == len(CORPUS_LOGS) and builds["build_id"].is_unique
    # What the kernels' names say travels with the tuning and engine tables.
    for name in ("tactics", "choices", "layers"):
        assert {"kernel_family", "kernel_input", "kernel_tile"} <= set(tables[name].columns)
    assert "xmma" in set(tables["tactics"]["kernel_family"].dropna())


@pytest.mark.slow
@needs_corpus
def test_the_files_of_a_table_share_one_schema(corpus_dataset: Path) -> None:
    # Spark and Polars read a table's folder as one table only when its files agree.
    for table in Dataset(corpus_dataset).tables():
        schemas = {
            str(pq.read_schema(path))
            for path in (corpus_dataset / table).glob(f"{PARTITION}=*/*.parquet")
        }
        assert len(schemas) == 1, table


@pytest.mark.slow
@needs_corpus
def test_ingesting_again_adds_nothing(corpus_dataset: Path, tmp_path: Path) -> None:
    before = sorted(path.relative_to(corpus_dataset) for path in corpus_dataset.rglob("*"))
    report = ingest([str(corpus_dir() / "logs")], Dataset(corpus_dataset), jobs=2)
    assert report.added == [] and len(report.skipped) == len(CORPUS_LOGS)
    # The same log under another name, gzip-compressed, is the same build.
    zipped = tmp_path / "again.log.gz"
    import gzip

    zipped.write_bytes(gzip.compress(CORPUS_LOGS[0].read_bytes()))
    assert ingest([str(zipped)], Dataset(corpus_dataset)).skipped == [str(zipped.resolve())]
    after = sorted(path.relative_to(corpus_dataset) for path in corpus_dataset.rglob("*"))
    assert after == before


@pytest.mark.slow
@needs_corpus
def test_sql_agrees_with_the_per_log_tables(corpus_dataset: Path) -> None:
    name = "hackathon_trt10.16.1_trtexec_build_h100.log"
    path = corpus_dir() / "logs" / name
    log = trtlog.load(path)
    source = str(path.resolve())
    counts = query(
        Dataset(corpus_dataset),
        "SELECT (SELECT count(*) FROM tactics WHERE source_path = $s) AS tactics,"
        " (SELECT count(*) FROM choices WHERE source_path = $s) AS choices,"
        " (SELECT max(tensorrt_version) FROM builds WHERE source_path = $s) AS version".replace(
            "$s", "'" + source + "'"
        ),
    )
    assert counts.loc[0, "tactics"] == len(log.tactics)
    assert counts.loc[0, "choices"] == len(log.choices)
    # The version trtexec states in this log ("TensorRT version: 10.16.1").
    assert counts.loc[0, "version"] == "10.16.1"


def sample_dataset(root: Path) -> Dataset:
    dataset = Dataset(root)
    report = ingest([str(SAMPLES)], dataset)
    assert len(report.added) == len(list(SAMPLES.glob("*.log")))
    return dataset


@pytest.mark.slow
def test_sample_builds_read_by_hand(tmp_path: Path) -> None:
    dataset = sample_dataset(tmp_path / "dataset")
    builds = query(
        dataset,
        "SELECT model, tensorrt_version, precision_flags, log_date, choices, engine_layers"
        " FROM builds ORDER BY tensorrt_version",
    )
    # Each sample log builds tinycnn.onnx: "--onnx=tinycnn.onnx", "Model: tinycnn.onnx",
    # "Input filename: tinycnn.onnx".
    assert list(builds["model"]) == ["tinycnn"] * 5
    # "[TensorRT v100300]"-style headers, version lines and library names: 10.13.3, 10.3.0,
    # 10.8.0, 8.4.3, 8.6.1 (sorted as text).
    assert list(builds["tensorrt_version"]) == ["10.13.3", "10.3.0", "10.8.0", "8.4.3", "8.6.1"]
    eight = builds[builds["tensorrt_version"] == "8.4.3"].iloc[0]
    # trtexec_8.x_build.log: five "Chose Runner Type" lines; run on 06/14/2023 with --fp16.
    assert eight["choices"] == 5
    assert pd.Timestamp(eight["log_date"]).date().isoformat() == "2023-06-14"
    assert "fp16" in eight["precision_flags"]


@pytest.mark.slow
def test_regressions_find_the_layer_that_got_slower(tmp_path: Path) -> None:
    # The same build logged again by "TensorRT 8.4.4", where the chosen tactic of
    # Conv_3 + Relu_4 (0.0147 ms: its timing and "Fastest Tactic" lines) now takes 0.0294 ms.
    text = SAMPLE_8X.read_text()
    assert text.count("Time: 0.0147\n") == 2 and "v8403" in text
    slower = text.replace("v8403", "v8404").replace("Time: 0.0147\n", "Time: 0.0294\n")
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(SAMPLE_8X, logs / "before.log")
    (logs / "after.log").write_text(slower)
    dataset = Dataset(tmp_path / "dataset")
    ingest([str(logs)], dataset)
    found = regressions(dataset, "8.4.3")
    top = found.iloc[0]
    assert top["layer"] == "Conv_3 + Relu_4" and top["measure"] == "chosen tactic"
    assert top["version"] == "8.4.4"
    assert top["baseline_ms"] == pytest.approx(0.0147)
    assert top["growth_ms"] == pytest.approx(0.0147)
    with pytest.raises(DatasetError, match=r"versions: 8\.4\.3, 8\.4\.4"):
        regressions(dataset, "9.9")


@pytest.mark.slow
def test_trends_per_model_and_version(tmp_path: Path) -> None:
    dataset = sample_dataset(tmp_path / "dataset")
    table = trends(dataset)
    assert set(table["tensorrt_version"]) == {"8.4.3", "8.6.1", "10.3.0", "10.8.0", "10.13.3"}
    assert (table["logs"] == 1).all()
    for _, row in table.iterrows():
        path = next(
            path
            for path in SAMPLES.glob("*.log")
            if trtlog.load(path).summary.tensorrt_version == row["tensorrt_version"]
        )
        expected = trtlog.load(path).summary.build_seconds
        assert (pd.isna(row["build_seconds"]) and expected is None) or row[
            "build_seconds"
        ] == pytest.approx(expected, abs=1e-3)


def test_a_bad_log_is_reported_and_skipped(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(SAMPLE_8X, logs / "good.log")
    (logs / "binary.log").write_bytes(bytes(range(256)) * 64)
    result = CliRunner().invoke(app, ["ingest", str(logs), "--out", str(tmp_path / "d"), "-q"])
    assert result.exit_code == 2
    assert "1 added, 0 already in" in result.stdout and "1 failed" in result.stdout
    assert "binary.log" in result.stderr and "Traceback" not in result.output
    assert len(Dataset(tmp_path / "d").known_ids()) == 1


@pytest.mark.slow
def test_a_truncated_gzip_log_is_reported_and_skipped(tmp_path: Path) -> None:
    import gzip

    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(SAMPLE_8X, logs / "good.log")
    whole = gzip.compress(SAMPLE_8X.read_bytes().replace(b"v8403", b"v8404"))
    (logs / "cut.log.gz").write_bytes(whole[: len(whole) // 2])
    result = CliRunner().invoke(app, ["ingest", str(logs), "--out", str(tmp_path / "d"), "-q"])
    assert result.exit_code == 2, result.output
    assert "1 added, 0 already in" in result.stdout and "1 failed" in result.stdout
    assert "cut.log.gz" in result.stderr and "read failed" in result.stderr
    assert len(Dataset(tmp_path / "d").known_ids()) == 1


@pytest.mark.slow
def test_query_command_formats_and_errors(tmp_path: Path) -> None:
    sample_dataset(tmp_path / "dataset")
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["query", str(tmp_path / "dataset"), "SELECT count(*) AS n FROM builds", "-f", "json"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"n": len(list(SAMPLES.glob("*.log")))}]
    bad = runner.invoke(app, ["query", str(tmp_path / "dataset"), "SELECT nothing FROM nowhere"])
    assert bad.exit_code == 2 and bad.stderr.startswith("trtlog: SQL error")
    assert len(bad.stderr.strip().splitlines()) == 1
    missing = runner.invoke(app, ["query", str(tmp_path / "none"), "SELECT 1"])
    assert missing.exit_code == 2 and "no such dataset folder" in missing.stderr
    nothing = runner.invoke(app, ["ingest", str(tmp_path / "nope"), "--out", str(tmp_path / "x")])
    assert nothing.exit_code == 2 and "no such file or folder" in nothing.stderr


@pytest.mark.slow
def test_a_stamp_without_its_year_does_not_date_the_log(tmp_path: Path) -> None:
    # Triton's stamps name the month and day only ("I0323 ..."): the year is unknown, so the
    # log is dated by its file, as a log without stamps is.
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "triton.log").write_text(
        "I0323 05:12:18.843337 1 logging.cc:49] [MemUsageChange] Init CUDA: CPU +313, GPU +0, "
        "now: CPU 378, GPU 310 (MiB)\n"
        "I0323 05:12:19.057787 1 logging.cc:49] Loaded engine size: 126 MiB\n"
    )
    shutil.copy(SAMPLE_8X, logs / "dated.log")
    dataset = Dataset(tmp_path / "dataset")
    ingest([str(logs)], dataset)
    builds = query(dataset, "SELECT source_path, log_date, started FROM builds")
    rows = {Path(row.source_path).name: row for row in builds.itertuples()}
    written = datetime.fromtimestamp((logs / "triton.log").stat().st_mtime).date()
    assert pd.Timestamp(rows["triton.log"].log_date).date() == written
    assert pd.isna(rows["triton.log"].started)
    assert pd.Timestamp(rows["dated.log"].log_date).date().isoformat() == "2023-06-14"
