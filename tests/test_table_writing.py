"""Writing a log's tables into the store: by this process alone, or split with a forked one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pandas as pd
import pytest

import trtlog.store.table_writing as writing
from tests.conftest import SAMPLES, corpus_dir
from trtlog.analysis.buildlog import TABLES, BuildLog
from trtlog.store import Store
from trtlog.store.sources import resolve, stream_build_log

SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
forking = pytest.mark.skipif(not writing.can_fork(), reason="this platform cannot fork")


# Real builds with thousands of tactic timings, timestamped (a timeline), and fusions.
CORPUS_LOGS = [
    "hackathon_trt10.16.1_trtexec_build_h100.log",
    "hackathon_trt8.6.0_trtexec_build_rtx3090.log",
]


def _log(path: Path = SAMPLE) -> BuildLog:
    return stream_build_log(resolve(path))


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    return tmp_path / "one", tmp_path / "two"


def _written_alone(tmp_path: Path, path: Path = SAMPLE) -> tuple[Path, Path]:
    """A folder holding the tables of ``path`` as this process alone writes them, and an empty
    one."""
    one, two = _folders(tmp_path)
    writing.write_tables(_log(path), one, list(TABLES), split=False)
    return one, two


def _assert_same_tables(alone: Path, split: Path) -> None:
    assert not pd.read_parquet(alone / "timeline.parquet").empty
    assert not pd.read_parquet(alone / "tactics.parquet").empty
    for name in TABLES:
        written, expected = (
            pd.read_parquet(folder / f"{name}.parquet") for folder in (split, alone)
        )
        pd.testing.assert_frame_equal(written, expected, obj=name)


def _recording_builds(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The tables built from now on in this process (a forked process's are not seen)."""
    built: set[str] = set()
    compute = BuildLog._compute

    def recorded(log: BuildLog, name: str) -> None:
        compute(log, name)
        built.update(log._tables)

    monkeypatch.setattr(BuildLog, "_compute", recorded)
    return built


def _counting_forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The forks made from now on (counted in this process)."""
    forks: list[int] = []
    fork: Callable[[], int] = os.fork

    def counted() -> int:
        forks.append(1)
        return fork()

    monkeypatch.setattr(os, "fork", counted)
    return forks


@pytest.mark.slow
@forking
@pytest.mark.parametrize("name", [None, *CORPUS_LOGS])
def test_a_split_write_writes_what_one_process_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str | None
) -> None:
    path = SAMPLE if name is None else corpus_dir() / "logs" / name
    if not path.is_file():
        pytest.skip(f"corpus log {name} not found in {corpus_dir()}")
    one, two = _written_alone(tmp_path, path)
    forks = _counting_forks(monkeypatch)
    built = _recording_builds(monkeypatch)
    log = _log(path)
    writing.write_tables(log, two, list(TABLES), split=True)
    assert forks == [1]
    # The side tables were built by the forked process, the others here.
    assert not writing.SIDE_TABLES & built
    # (The tactics table is written a row group at a time, never held whole.)
    assert {"choices", "layers", "precision"} <= built
    assert "tactics" not in built
    # Written, the tables were let go before the tactics table was made and written.
    assert not log._tables
    _assert_same_tables(one, two)


@pytest.mark.slow
@forking
def test_tables_the_forked_process_fails_to_write_are_built_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = _written_alone(tmp_path)
    this_process = os.getpid()
    write = writing.write_frames

    def fails_elsewhere(frames: Iterable[pd.DataFrame], path: Path) -> None:
        if os.getpid() != this_process:
            raise OSError("disk full")
        write(frames, path)

    monkeypatch.setattr(writing, "write_frames", fails_elsewhere)
    built = _recording_builds(monkeypatch)
    log = _log()
    writing.write_tables(log, two, list(TABLES), split=True)
    # Every table built here: the side tables after the forked process failed, the others first
    # (the tactics table a row group at a time, never held whole).
    assert built | {"tactics"} == set(TABLES)
    assert "tactics" not in built
    _assert_same_tables(one, two)


@pytest.mark.slow
def test_nothing_is_forked_unless_split_where_the_platform_can_fork(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = _folders(tmp_path)
    forks = _counting_forks(monkeypatch)
    writing.write_tables(_log(), one, list(TABLES), split=False)
    monkeypatch.setattr(writing, "can_fork", lambda: False)
    writing.write_tables(_log(), two, list(TABLES), split=True)
    assert forks == []
    for name in TABLES:
        assert (one / f"{name}.parquet").is_file()
        assert (two / f"{name}.parquet").is_file()


@pytest.mark.parametrize(
    ("jobs", "split_bytes", "split"),
    [(2, 1 << 10, True), (1, 1 << 10, False), (2, 1 << 30, False)],
)
def test_the_store_splits_for_a_large_log_with_more_than_one_job(
    monkeypatch: pytest.MonkeyPatch, jobs: int, split_bytes: int, split: bool
) -> None:
    # The sample (about 30 KB) is large when 1 KB is, not when 1 GB is.
    monkeypatch.setattr(writing, "SPLIT_BYTES", split_bytes)
    assert Store(jobs=jobs)._split_tables(resolve(SAMPLE)) is split
    assert Store(jobs=jobs)._split_tables(resolve("-")) is False


def test_tables_are_built_by_this_process_alone_unless_told() -> None:
    assert writing.default_table_jobs() == 1
    assert Store(jobs=None)._jobs() == 1
    assert Store(jobs=2)._jobs() == 2


def test_the_tables_made_to_be_written_are_let_go_and_those_held_before_kept(
    tmp_path: Path,
) -> None:
    log = _log()
    tactics, choices = log.table("tactics"), log.table("choices")
    held = log.made()
    assert {"tactics", "choices"} <= held and "timeline" not in held
    writing.write_tables(log, tmp_path, list(TABLES), split=False)
    assert log.made() == held
    assert log.table("tactics") is tactics and log.table("choices") is choices
    for name in TABLES:
        assert (tmp_path / f"{name}.parquet").is_file()


def test_writing_leaves_the_switch_interval_as_it_was_even_when_it_fails() -> None:
    # The writing's setting is the process's: it must not outlive the writing.
    before = sys.getswitchinterval()
    with pytest.raises(OSError, match="disk full"), writing.quick_handoffs():
        raise OSError("disk full")
    assert sys.getswitchinterval() == before


@forking
def test_the_forked_process_writes_nothing_this_one_had_buffered(tmp_path: Path) -> None:
    def fails() -> None:
        raise OSError("disk full")

    path = tmp_path / "out.txt"
    with path.open("w") as stream:
        stream.write("once\n")
        assert writing._forked(lambda: None).succeeded()
        assert not writing._forked(fails).succeeded()
    assert path.read_text() == "once\n"


@forking
def test_the_modules_tables_need_are_loaded_before_the_fork(tmp_path: Path) -> None:
    """Loaded after the fork, pandas and pyarrow would be loaded twice, in memory of each
    process's own (a fresh interpreter: nothing the tests loaded counts)."""
    code = f"""
import os, sys
from pathlib import Path
import trtlog.store.table_writing as writing
from trtlog.analysis import TABLES
from trtlog.store.sources import resolve, stream_build_log
log = stream_build_log(resolve({str(SAMPLE)!r}))
before = [module for module in ("pandas", "pyarrow.parquet") if module in sys.modules]
fork = os.fork
def noted():
    print(",".join(m for m in ("pandas", "pyarrow.parquet") if m in sys.modules), flush=True)
    return fork()
os.fork = noted
writing.write_tables(log, Path({str(tmp_path)!r}), list(TABLES), split=True)
print("before:" + ",".join(before), flush=True)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split()
    assert lines[0] == "pandas,pyarrow.parquet"
    # The parse itself had loaded neither: they were loaded for the tables, before the fork.
    assert lines[-1] == "before:"
