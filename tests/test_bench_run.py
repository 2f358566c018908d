"""The benchmark's speed gauge (``bench/run.py``): a fixed loop timed in a fresh process, so
that figures taken on a drifting machine can be told apart."""

from __future__ import annotations

import math

import pytest

from tests.conftest import bench_module

bench = bench_module("run")


def test_the_gauge_reads_the_seconds_its_process_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "GAUGE_SCRIPT", "print(1.25)")
    assert bench.gauge() == 1.25


def test_the_gauge_times_the_fixed_loop() -> None:
    seconds = bench.gauge()
    # Twenty million additions take well over a millisecond in CPython, and finish.
    assert math.isfinite(seconds) and 0.001 < seconds < 120
