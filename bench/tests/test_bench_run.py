"""The benchmark's speed gauge (``bench/run.py``): a fixed loop timed in a fresh process, so
that figures taken on a drifting machine can be told apart; and its scaling gauge, the loop run
in several processes at once."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import bench_module

bench = bench_module("run")


def test_the_gauge_reads_the_seconds_its_process_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "GAUGE_SCRIPT", "print(1.25)")
    assert bench.gauge() == 1.25


def test_the_gauge_times_the_fixed_loop() -> None:
    seconds = bench.gauge()
    # Twenty million additions take well over a millisecond in CPython, and finish.
    assert math.isfinite(seconds) and 0.001 < seconds < 120


def test_the_scaling_gauge_weighs_the_slowest_loop_against_one_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three loops at once, each printing 2.0 s where one alone took 1.5 s: the work of 2.25.
    monkeypatch.setattr(bench, "GAUGE_SCRIPT", "print(2.0)")
    assert bench.scaling_gauge(3, 1.5) == pytest.approx(2.25)


def test_the_scaling_gauge_takes_the_slowest_of_the_loops(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The first process to start prints 4.0, the others 1.0: the slowest sets the figure.
    flag = tmp_path / "first"
    script = (
        "import os\n"
        f"path = {str(flag)!r}\n"
        "try:\n"
        "    os.close(os.open(path, os.O_CREAT | os.O_EXCL))\n"
        "    print(4.0)\n"
        "except FileExistsError:\n"
        "    print(1.0)\n"
    )
    monkeypatch.setattr(bench, "GAUGE_SCRIPT", script)
    assert bench.scaling_gauge(2, 1.0) == pytest.approx(0.5)


def test_the_scaling_gauge_fails_where_a_loop_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "GAUGE_SCRIPT", "raise SystemExit(3)")
    with pytest.raises(bench.subprocess.CalledProcessError):
        bench.scaling_gauge(2, 1.0)
