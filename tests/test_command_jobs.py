"""Every command that parses a log parses it as ``trtlog parse`` does: by the cores (up to
``MOST_USEFUL_JOBS``) unless told otherwise, never with one process only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import trtlog.parse.parallel as parallel_module
from trtlog.build.progress import ProgressState
from trtlog.build.run import BuildResult
from trtlog.build.runfolder import RunFolder
from trtlog.cli import build_output
from trtlog.cli.app import app
from trtlog.parse.rows import Item

SAMPLES = Path(__file__).parent.parent / "sample_logs"
SAMPLE_10X = SAMPLES / "trtexec_10.x_build_inference_profile.log"
SAMPLE_8X = SAMPLES / "trtexec_8.x_build.log"
# Not the number of cores of any machine the tests run on by chance.
CORES = 3


@pytest.fixture
def parse_jobs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """The ``jobs`` of each parse of a log, with ``CORES`` cores, in a store of its own."""
    monkeypatch.setenv("TRTLOG_STORE", str(tmp_path / "store"))
    monkeypatch.setattr(parallel_module, "default_jobs", lambda: CORES)
    jobs: list[int] = []

    class RecordedParse(parallel_module.ParallelParse):
        def items(self) -> Iterator[Item]:
            jobs.append(self.jobs)
            return super().items()

    monkeypatch.setattr(parallel_module, "ParallelParse", RecordedParse)
    return jobs


@pytest.mark.slow
def test_diff_parses_each_log_by_the_cores(parse_jobs: list[int]) -> None:
    result = CliRunner().invoke(app, ["diff", str(SAMPLE_8X), str(SAMPLE_10X), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert parse_jobs == [CORES, CORES]


def _finished_build(folder: Path) -> BuildResult:
    folder.mkdir()
    run_folder = RunFolder(folder, folder / "model.onnx")
    run_folder.log.write_bytes(SAMPLE_10X.read_bytes())
    run = {"outcome": "succeeded", "trtlog_exit_code": 0}
    return BuildResult(run_folder, run, ProgressState())


@pytest.mark.parametrize("keep", [True, False])
def test_a_finished_build_is_parsed_by_the_cores(
    parse_jobs: list[int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    keep: bool,
) -> None:
    monkeypatch.setattr(build_output, "_render_run", lambda result: None)
    build_output.report_build(_finished_build(tmp_path / "run"), keep=keep)
    assert parse_jobs == [CORES]
    # The summary names the sample's version (line 57: "TensorRT version: 10.8.0").
    printed = capsys.readouterr().out
    assert "10.8" in printed, printed
