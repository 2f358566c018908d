"""SQL over a dataset cannot reach past it: no other file read or written, no extension, no
setting undone, and no folder name that turns into SQL."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from trtlog.cli.app import app
from trtlog.dataset import Dataset, ingest
from trtlog.dataset.layout import PARTITION, DatasetError
from trtlog.dataset.sql import query

SAMPLE_8X = SAMPLES / "trtexec_8.x_build.log"


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "dataset"
    ingest([str(SAMPLE_8X)], Dataset(root))
    return root


def run_query(root: Path, sql: str, *options: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["query", str(root), sql, "-f", "csv", *options])
    return result.exit_code, result.stdout, result.stderr


def assert_refused(code: int, stdout: str, stderr: str) -> None:
    assert code == 2, stdout + stderr
    assert stdout == ""
    assert stderr.startswith("trtlog: SQL error: Permission Error")
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr


def test_reading_a_file_outside_the_dataset_is_refused(dataset: Path) -> None:
    for sql in (
        "SELECT * FROM read_csv('/etc/passwd', sep = ':')",
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT * FROM glob('/etc/*')",
    ):
        assert_refused(*run_query(dataset, sql))


@pytest.mark.slow
def test_copying_to_a_file_is_refused_inside_the_dataset_too(dataset: Path, tmp_path: Path) -> None:
    outside = tmp_path / "written.csv"
    inside = dataset / "builds" / "written.csv"
    for target in (outside, inside):
        assert_refused(*run_query(dataset, f"COPY (SELECT 1 AS one) TO '{target}'"))
        assert not target.exists()


@pytest.mark.slow
def test_extensions_and_settings_cannot_be_changed(dataset: Path) -> None:
    for sql in ("INSTALL httpfs", "LOAD httpfs", "ATTACH '/tmp/trtlog-other.db'"):
        assert_refused(*run_query(dataset, sql))
    code, _, stderr = run_query(dataset, "SET enable_external_access = true")
    assert code == 2 and "configuration has been locked" in stderr
    assert len(stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_allow_files_lifts_the_confinement(dataset: Path, tmp_path: Path) -> None:
    outside = tmp_path / "numbers.csv"
    outside.write_text("n\n1\n2\n")
    code, stdout, _ = run_query(
        dataset, f"SELECT sum(n)::INTEGER AS n FROM '{outside}'", "--allow-files"
    )
    assert code == 0 and stdout.split() == ["n", "3"]
    assert_refused(*run_query(dataset, f"SELECT sum(n)::INTEGER AS n FROM '{outside}'"))


@pytest.mark.slow
def test_reports_are_confined_too(dataset: Path) -> None:
    # The named reports run over the same connection: they still work with it confined.
    for command in (["trends", str(dataset)], ["regressions", str(dataset), "--baseline", "8.4.3"]):
        result = CliRunner().invoke(app, [*command, "-f", "csv"])
        assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_a_folder_name_with_quotes_and_semicolons_stays_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    crafted = tmp_path / "d'); COPY (SELECT 42) TO 'pwned.csv'; --\"x"
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(SAMPLE_8X, logs / "it's; here.log")
    ingest([str(logs)], Dataset(crafted))
    code, stdout, stderr = run_query(
        crafted, "SELECT count(*) AS n, min(source_path) AS p FROM builds"
    )
    assert code == 0, stderr
    assert stdout.splitlines()[1].startswith("1,") and "it's; here.log" in stdout
    assert not (tmp_path / "pwned.csv").exists()
    # The baseline of regressions is a value, not SQL.
    result = CliRunner().invoke(app, ["regressions", str(crafted), "--baseline", "8.4.3' OR '1"])
    assert result.exit_code == 2 and "no build with TensorRT 8.4.3' OR '1" in result.stderr


@pytest.mark.slow
def test_a_folder_that_is_not_a_table_name_is_no_view(dataset: Path) -> None:
    # A folder named like SQL in the dataset is not taken for a table.
    crafted = dataset / 'x" AS SELECT 1; DROP VIEW builds; --' / f"{PARTITION}=2026-01-01"
    crafted.mkdir(parents=True)
    pq.write_table(pa.table({"a": [1]}), crafted / "run.parquet")
    tables = Dataset(dataset).tables()
    assert "builds" in tables and not any('"' in table for table in tables)
    frame = query(Dataset(dataset), "SELECT count(*) AS n FROM builds")
    assert frame["n"].tolist() == [1]
    with pytest.raises(DatasetError, match="Catalog Error"):
        query(Dataset(dataset), 'SELECT * FROM "x"')
