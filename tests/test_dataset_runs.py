"""How ingest runs write a dataset: one file per table and partition for a run, published
together; runs at once, runs cut short, and ``compact``."""

from __future__ import annotations

import importlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS_LOGS, REPO, SAMPLES, needs_corpus
from trtlog.cli.app import app
from trtlog.dataset import Dataset, LogResult, extract_log, ingest, writer
from trtlog.dataset.compact import compact
from trtlog.dataset.layout import PARTITION

# The module (the package exports its function of the same name).
ingest_module = importlib.import_module("trtlog.dataset.ingest")
SAMPLE_8X = SAMPLES / "trtexec_8.x_build.log"
# trtexec_8.x_build.log is dated by its stamps ("[06/14/2023-...]"): every table of it, and of
# its variants below, lands in this partition.
DAY = f"{PARTITION}=2023-06-14"


def variants(folder: Path, versions: list[str]) -> Path:
    """Copies of the 8.x sample, each another build (its version changed), in ``folder``."""
    folder.mkdir(parents=True)
    text = SAMPLE_8X.read_text()
    for version in versions:
        (folder / f"{version}.log").write_text(text.replace("v8403", version))
    return folder


def snapshot(root: Path) -> dict[str, pd.DataFrame]:
    tables = {}
    for table in Dataset(root).tables():
        frame = pd.read_parquet(root / table)
        frame[PARTITION] = frame[PARTITION].astype(str)
        order = [name for name in ("build_id", "line", "first_line") if name in frame.columns]
        tables[table] = frame.sort_values(order, kind="stable").reset_index(drop=True)
    return tables


def partition_files(root: Path) -> dict[str, list[Path]]:
    return {
        table: sorted((root / table / DAY).glob("*.parquet")) for table in Dataset(root).tables()
    }


@pytest.mark.slow
def test_a_run_writes_one_file_per_table_and_partition(tmp_path: Path) -> None:
    logs = variants(tmp_path / "logs", ["v8403", "v8404", "v8405"])
    root = tmp_path / "dataset"
    report = ingest([str(logs)], Dataset(root), jobs=2)
    assert len(report.added) == 3
    files = partition_files(root)
    assert all(len(paths) == 1 for paths in files.values()), files
    assert sorted(report.files) == sorted(path for paths in files.values() for path in paths)
    # Three builds' rows in each file: the sample has five "Chose Runner Type" lines.
    assert pq.read_metadata(files["choices"][0]).num_rows == 3 * 5
    assert pq.read_metadata(files["builds"][0]).num_rows == 3
    # Nothing but the published files: no temporary file or journal left.
    assert not [path for path in root.rglob(".*") if path.is_file()]
    assert not list((root / "_journal").glob("*"))


@pytest.mark.slow
def test_large_tables_are_written_in_row_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "ROW_GROUP_ROWS", 4)
    logs = variants(tmp_path / "logs", ["v8403", "v8404", "v8405"])
    root = tmp_path / "dataset"
    ingest([str(logs)], Dataset(root))
    (choices,) = partition_files(root)["choices"]
    metadata = pq.read_metadata(choices)
    # 15 choices in groups of 4: 4, 4, 4, 3.
    groups = [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]
    assert groups == [4, 4, 4, 3]


@pytest.mark.slow
def test_rows_waiting_past_the_memory_bound_are_written_as_smaller_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "PENDING_BYTES", 1)
    logs = variants(tmp_path / "logs", ["v8403", "v8404", "v8405"])
    root = tmp_path / "dataset"
    ingest([str(logs)], Dataset(root))
    (choices,) = partition_files(root)["choices"]
    metadata = pq.read_metadata(choices)
    # Each log's five choices written as soon as they arrive, still into the run's one file.
    groups = [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]
    assert groups == [5, 5, 5]


@pytest.mark.slow
def test_a_new_run_adds_files_and_never_rewrites_old_ones(tmp_path: Path) -> None:
    root = tmp_path / "dataset"
    ingest([str(variants(tmp_path / "first", ["v8403"]))], Dataset(root))
    before = {path: path.stat().st_mtime_ns for path in root.rglob("*.parquet")}
    second = variants(tmp_path / "second", ["v8404"])
    shutil.copy(SAMPLE_8X, second / "same-content-other-name.log")
    report = ingest([str(second)], Dataset(root))
    assert [Path(path).name for path in report.added] == ["v8404.log"]
    assert [Path(path).name for path in report.skipped] == ["same-content-other-name.log"]
    assert {path: path.stat().st_mtime_ns for path in before} == before
    assert all(len(paths) == 2 for paths in partition_files(root).values())
    assert len(Dataset(root).known_ids()) == 2


@pytest.mark.slow
def test_compact_merges_the_runs_files_and_keeps_the_rows(tmp_path: Path) -> None:
    root = tmp_path / "dataset"
    for number, version in enumerate(["v8403", "v8404", "v8405"]):
        ingest([str(variants(tmp_path / f"run{number}", [version]))], Dataset(root))
    old = sorted(root.rglob("*.parquet"))
    tables = snapshot(root)
    assert all(len(paths) == 3 for paths in partition_files(root).values())
    result = CliRunner().invoke(app, ["compact", str(root)])
    assert result.exit_code == 0, result.output
    merged = len(partition_files(root))
    assert result.stdout.strip() == f"{3 * merged} files merged into {merged}"
    assert all(len(paths) == 1 for paths in partition_files(root).values())
    assert not any(path.exists() for path in old)
    after = snapshot(root)
    for name, table in tables.items():
        pd.testing.assert_frame_equal(after[name], table, obj=name)
    # Still known after compaction: the same logs are skipped.
    again = ingest([str(tmp_path / "run1")], Dataset(root))
    assert again.added == [] and len(again.skipped) == 1
    # Nothing to merge the second time.
    assert compact(Dataset(root)).merged == []


@pytest.mark.slow
def test_a_run_cut_short_after_its_journal_is_finished_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "dataset"
    logs = variants(tmp_path / "logs", ["v8403", "v8404"])

    def crash(self: Dataset, journal: Path) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(Dataset, "_replay", crash)
        with pytest.raises(KeyboardInterrupt):
            ingest([str(logs)], Dataset(root))
    # Written and journaled, not yet in place: readers see nothing.
    assert Dataset(root).tables() == []
    assert len(list((root / "_journal").glob("*.json"))) == 1
    report = ingest([str(logs)], Dataset(root))
    assert report.added == [] and len(report.skipped) == 2
    assert len(snapshot(root)["builds"]) == 2
    assert not list((root / "_journal").glob("*.json"))


@pytest.mark.slow
def test_a_run_cut_short_before_its_journal_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "dataset"
    ingest([str(variants(tmp_path / "earlier", ["v8402"]))], Dataset(root))
    logs = variants(tmp_path / "logs", ["v8403", "v8404"])
    # Files left written but not published by a process that died (its discard never ran).

    def die(self: Dataset, renames: object, removals: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(writer.RunWriter, "discard", lambda self: None)
    monkeypatch.setattr(Dataset, "publish", die)
    with pytest.raises(KeyboardInterrupt):
        ingest([str(logs)], Dataset(root))
    assert list(root.rglob(".*.tmp"))
    # Readers (pandas, DuckDB through the views) skip the hidden files: the earlier log alone.
    assert len(pd.read_parquet(root / "builds")) == 1
    assert len(snapshot(root)["choices"]) == 5
    monkeypatch.undo()
    report = ingest([str(logs)], Dataset(root))
    assert len(report.added) == 2
    assert not list(root.rglob(".*.tmp"))
    assert all(len(paths) == 2 for paths in partition_files(root).values())
    assert len(pd.read_parquet(root / "builds")) == 3


@pytest.mark.slow
def test_two_ingests_at_once_add_each_log_once(tmp_path: Path) -> None:
    logs = variants(tmp_path / "logs", ["v8403", "v8404", "v8405", "v8406"])
    root = tmp_path / "dataset"
    command = [sys.executable, "-m", "trtlog", "ingest", str(logs), "--out", str(root), "-q"]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    # One run added all four, the other found them there.
    assert sorted(outputs) == sorted(
        [f"4 added, 0 already in {root}, 0 failed\n", f"0 added, 4 already in {root}, 0 failed\n"]
    )
    builds = snapshot(root)["builds"]
    assert len(builds) == 4 and builds["build_id"].is_unique


def extract_or_die(path: str, build_id: str | None = None) -> LogResult:
    """The worker's job, except that a log named crash.log kills its process."""
    if Path(path).name == "crash.log":
        os.kill(os.getpid(), signal.SIGKILL)
    return extract_log(path, build_id)


@pytest.mark.slow
def test_a_log_that_kills_its_worker_is_reported_and_the_rest_ingested(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = variants(tmp_path / "logs", ["v8403", "v8404", "v8405", "v8406", "v8407"])
    (logs / "crash.log").write_text(SAMPLE_8X.read_text().replace("v8403", "v9999"))
    monkeypatch.setattr(ingest_module, "extract_log", extract_or_die)
    report = ingest([str(logs)], Dataset(tmp_path / "dataset"), jobs=2)
    assert sorted(Path(path).name for path in report.added) == [
        f"{version}.log" for version in ("v8403", "v8404", "v8405", "v8406", "v8407")
    ]
    ((failed, reason),) = report.failed
    assert Path(failed).name == "crash.log" and "ended abruptly" in reason
    assert len(snapshot(tmp_path / "dataset")["builds"]) == 5


def extract_or_raise(path: str, build_id: str | None = None) -> LogResult:
    """The worker's job, except that a log named crash.log fails on the worker."""
    if Path(path).name == "crash.log":
        raise MemoryError("no room for crash.log")
    return extract_log(path, build_id)


@pytest.mark.slow
def test_a_log_that_fails_on_the_dask_cluster_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("dask.distributed")
    cloudpickle = pytest.importorskip("cloudpickle")
    # The cluster's worker processes get the function itself, as they would not find this
    # test module.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    logs = variants(tmp_path / "logs", ["v8403", "v8404"])
    (logs / "crash.log").write_text(SAMPLE_8X.read_text().replace("v8403", "v9999"))
    monkeypatch.setattr(ingest_module, "extract_log", extract_or_raise)
    try:
        with distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            report = ingest(
                [str(logs)], Dataset(tmp_path / "dataset"), dask_scheduler=cluster.scheduler_address
            )
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert sorted(Path(path).name for path in report.added) == ["v8403.log", "v8404.log"]
    ((failed, reason),) = report.failed
    assert failed == str(logs / "crash.log")
    assert reason.endswith("failed on the cluster (MemoryError: no room for crash.log)")


@pytest.mark.slow
def test_a_run_waits_for_the_one_that_holds_the_dataset(tmp_path: Path) -> None:
    root = tmp_path / "dataset"
    root.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from filelock import FileLock; lock = FileLock(sys.argv[1]); "
            "lock.acquire(); print('held', flush=True); time.sleep(2)",
            str(root / "_lock"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    result = CliRunner().invoke(app, ["ingest", str(SAMPLE_8X), "--out", str(root), "-q"])
    assert holder.wait(timeout=30) == 0
    assert result.exit_code == 0, result.output
    assert result.stderr == f"waiting for another run on {root} to end\n"
    assert len(Dataset(root).known_ids()) == 1


@pytest.mark.slow
@needs_corpus
def test_sigterm_stops_every_worker(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    root = tmp_path / "dataset"
    logs = [str(path) for path in CORPUS_LOGS]
    command = [sys.executable, "-m", "trtlog", "ingest", *logs, "--out", str(root), "-j", "2"]
    run = subprocess.Popen(command, cwd=REPO, stderr=subprocess.DEVNULL)
    parent = psutil.Process(run.pid)
    deadline = time.monotonic() + 60
    while len(parent.children(recursive=True)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = parent.children(recursive=True)
    assert len(workers) >= 2
    run.send_signal(signal.SIGTERM)
    assert run.wait(timeout=30) == -signal.SIGTERM
    _, alive = psutil.wait_procs(workers, timeout=30)
    assert alive == []
    # The run published nothing, and the next one adds every log once.
    assert Dataset(root).tables() == []
    report = ingest(logs[:3], Dataset(root))
    assert len(report.added) == 3 and not list(root.rglob(".*.tmp"))
