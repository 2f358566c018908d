"""Every process trtlog starts ends with it: SIGTERM or SIGHUP to a parse (while a forked process
builds some of a large log's tables) or an ingest leaves no worker behind, and none holds the
caller's standard output open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.conftest import SAMPLES

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's prctl")


def big_log(folder: Path, megabytes: int = 40) -> Path:
    """Sample logs run together until ``megabytes`` (large enough for two table processes)."""
    text = "".join(path.read_text() for path in sorted(SAMPLES.glob("*.log")))
    path = folder / "big-build.log"
    with path.open("w") as stream:
        while stream.tell() < megabytes << 20:
            stream.write(text)
    return path


def trtlog_processes(marker: str) -> list[psutil.Process]:
    return [
        process
        for process in psutil.process_iter(["cmdline"])
        if any(marker in part for part in process.info["cmdline"] or ())
    ]


def stop_and_check(command: list[str], marker: str, tmp_path: Path, number: int) -> None:
    environment = dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"))
    process = subprocess.Popen(
        command, cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    # Wait for a second process of this command (an ingest's workers, a parse's forked table
    # process).
    deadline = time.monotonic() + 60
    while len(trtlog_processes(marker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(trtlog_processes(marker)) >= 2, "no second process ever started"
    process.send_signal(number)
    # Standard output is not held open by an orphan: reading it ends.
    process.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while trtlog_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert trtlog_processes(marker) == []


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_stopped_parse_leaves_no_table_process(tmp_path: Path, number: int) -> None:
    log = big_log(tmp_path)
    command = [sys.executable, "-m", "trtlog.cli.app", "parse", str(log), "--jobs", "2"]
    stop_and_check(command, str(log), tmp_path, number)


@pytest.mark.slow
def test_a_stopped_ingest_leaves_no_worker(tmp_path: Path) -> None:
    logs = tmp_path / "nightly-logs"
    logs.mkdir()
    for copy in range(6):
        big_log(logs, 8).rename(logs / f"build-{copy}.log")
        (logs / f"build-{copy}.log").open("a").write(f"run {copy}\n")
    command = [sys.executable, "-m", "trtlog.cli.app", "ingest", str(logs), "--out",
               str(tmp_path / "dataset"), "--jobs", "2"]  # fmt: skip
    stop_and_check(command, str(logs), tmp_path, signal.SIGTERM)
