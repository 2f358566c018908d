"""The README's tour runs as shown: each ``$ trtlog ...`` command of a ``console`` block after a
``<!-- tour -->`` marker is run on the sample logs, and the output lines shown under it appear in
its real output (``...`` stands for lines left out)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import REPO, SAMPLES

TOUR_MARKER = "<!-- tour -->"
ELISION = "..."
# The width the tour's tables were laid out for.
TOUR_COLUMNS = "100"


@dataclass
class TourStep:
    command: list[str]
    shown: list[str] = field(default_factory=list)


def tour_steps(readme: str) -> list[TourStep]:
    """The commands of the console blocks after each tour marker, with the lines shown under
    each (trailing spaces dropped, elisions left out)."""
    steps: list[TourStep] = []
    lines = readme.splitlines()
    for index, line in enumerate(lines):
        if line.strip() != TOUR_MARKER:
            continue
        if index + 1 >= len(lines) or lines[index + 1].strip() != "```console":
            raise ValueError(f"README line {index + 1}: a tour marker not before a console block")
        for block_line in lines[index + 2 :]:
            if block_line.startswith("```"):
                break
            if block_line.startswith("$ "):
                steps.append(TourStep(shlex.split(block_line[2:])))
            elif block_line.strip() != ELISION:
                if not steps:
                    raise ValueError(f"README: output before any command: {block_line!r}")
                steps[-1].shown.append(block_line.rstrip())
    return steps


def run_tour_step(step: TourStep, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert step.command[0] == "trtlog", step.command
    # Plain text at the tour's width, as a terminal without colour forced on would show it.
    env = {key: value for key, value in os.environ.items() if key != "FORCE_COLOR"}
    env["COLUMNS"] = TOUR_COLUMNS
    return subprocess.run(
        [sys.executable, "-m", "trtlog", *step.command[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def tour_step_failure(step: TourStep, cwd: Path) -> str | None:
    """Why the step's real run differs from what the README shows, or None."""
    result = run_tour_step(step, cwd)
    command = shlex.join(step.command)
    if result.returncode != 0:
        return f"{command}: exit {result.returncode}\n{result.stderr}"
    produced = {line.rstrip() for line in (result.stdout + result.stderr).splitlines()}
    missing = [line for line in step.shown if line not in produced]
    return f"{command} did not print:\n" + "\n".join(missing) if missing else None


@pytest.fixture
def tour_folder(tmp_path: Path) -> Path:
    """A folder where the tour's sample_logs/... paths hold the sample logs, and where the files
    it writes (report.html) land outside the checkout."""
    (tmp_path / "sample_logs").symlink_to(SAMPLES, target_is_directory=True)
    return tmp_path


@pytest.mark.slow
def test_the_tour_runs_as_shown(tour_folder: Path) -> None:
    steps = tour_steps((REPO / "README.md").read_text(encoding="utf-8"))
    assert steps, "the README has no tour"
    # In order: the later queries answer from the log that an earlier one made current.
    for step in steps:
        failure = tour_step_failure(step, tour_folder)
        assert failure is None, failure
    assert (tour_folder / "report.html").is_file()


def test_the_tour_shows_the_summary_of_the_first_sample() -> None:
    steps = tour_steps((REPO / "README.md").read_text(encoding="utf-8"))
    first = steps[0]
    assert first.command == [
        "trtlog",
        "parse",
        "sample_logs/trtexec_10.x_build_inference_profile.log",
    ]
    # The sample's header line says TensorRT 10.8.0 and it ends "&&&& PASSED".
    assert "TensorRT           10.8.0" in first.shown
    assert "Outcome            PASSED" in first.shown


def test_every_tour_command_shows_some_output() -> None:
    steps = tour_steps((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(steps) >= 5
    assert all(step.shown for step in steps), [s.command for s in steps if not s.shown]


@pytest.mark.parametrize(
    ("readme", "problem"),
    [
        (f"{TOUR_MARKER}\n```sh\n$ trtlog stages\n```\n", "not before a console block"),
        (f"{TOUR_MARKER}\n```console\nLayer count\n```\n", "output before any command"),
    ],
)
def test_a_malformed_tour_is_an_error(readme: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        tour_steps(readme)


@pytest.mark.slow
def test_a_drifted_figure_or_a_failing_command_is_caught(tour_folder: Path) -> None:
    readme = (
        f"{TOUR_MARKER}\n```console\n"
        "$ trtlog parse sample_logs/trtexec_10.x_build_inference_profile.log\n"
        "TensorRT           10.9.0\n"
        "$ trtlog tactics --layer no_such_layer\n"
        "...\n```\n"
    )
    drifted, failing = tour_steps(readme)
    assert drifted.shown == ["TensorRT           10.9.0"] and failing.shown == []
    failure = tour_step_failure(drifted, tour_folder)
    assert failure is not None and failure.endswith("did not print:\nTensorRT           10.9.0")
    failure = tour_step_failure(failing, tour_folder)
    assert failure is not None and "exit 2" in failure
