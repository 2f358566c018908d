"""bench/ingest.py: the figures it reports, on a corpus of one small log."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import bench_module

import trtlog
from tests.conftest import SAMPLES
from trtlog.analysis import TABLES

bench = bench_module("ingest")


def test_reports_speed_files_and_query_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus" / "logs"
    corpus.mkdir(parents=True)
    sample = SAMPLES / "trtexec_8.x_build.log"
    shutil.copy(sample, corpus / sample.name)
    work = tmp_path / "work"
    arguments = ["--corpus", str(corpus.parent), "--work", str(work), "--logs", "3", "--jobs", "1"]
    assert bench.main(arguments) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"3 logs, \d+ MB", lines[0])
    speed = next(line for line in lines if line.startswith("ingest --jobs 1:"))
    # Three copies, all dated 2023-06-14 by their stamps, ingested in one run: one file for the
    # builds table and one for each table the log fills.
    log = trtlog.load(sample)
    filled = [name for name in TABLES if not log.table(name).empty]
    assert speed.endswith(f", {1 + len(filled)} files")
    queries = [line.strip() for line in lines if line.strip().startswith("query ")]
    assert [line.split(":")[0] for line in queries] == [f"query {name}" for name in bench.QUERIES]
    assert all(re.search(r": \d+ ms$", line) for line in queries)
    # The dataset is removed after the run; the copies stay for the next one.
    assert sorted(path.name for path in work.iterdir()) == ["logs"]
