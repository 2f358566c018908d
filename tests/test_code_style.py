"""The code stays ruff-clean (lint and format) and type-checks with mypy."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


def _tool(name: str) -> str | None:
    # The tool installed beside this interpreter (the test extra), else one on PATH.
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]],
    ids=["ruff-lint", "ruff-format", "mypy"],
)
def test_tool_is_clean(command: list[str]) -> None:
    executable = _tool(command[0])
    if executable is None:
        pytest.skip(f"{command[0]} is not installed")
    result = subprocess.run([executable, *command[1:]], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


# Comments and docstrings give reasons, not the timings that led to them: a measured figure
# belongs in bench/ and its history in git. A narration is a range of times, a time something
# took, a speed-up factor or the benchmark log named as a witness (``_NARRATION``). Lines that
# quote TensorRT's own output (between double backquotes) are examples, not narration.
_NARRATION = re.compile(
    r"\b\d+(\.\d+)?-\d+(\.\d+)? ?(s|ms|µs|us|MB)\b"
    r"|\b(took|spent|instead of)\b[^.\n]*\d+(\.\d+)? ?(s|ms|µs|us|%)\b"
    r"|\b\d+(\.\d+)? ?(ms|µs|us|s) (of|a|per|against|instead)\b"
    r"|\b(two|three|four|five|ten|several) times (faster|slower|longer)"
    r"|\b(twice|half) as (long|fast)|a third of the[ ]time|benchmark[ ]log"
)


def narrations(text: str) -> list[int]:
    return [
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if _NARRATION.search(line) and "``" not in line
    ]


def test_narrations_are_recognised() -> None:
    # The narrations are put together from pieces, so that this file narrates nothing itself.
    time_range, took, factor = "0.88" + "-1.07 s", "took " + "3.5" + " s", "five times " + "faster"
    assert narrations(f"x = 1  # {time_range} before\n") == [1]
    assert narrations(f'"""It {took} for the 47,000 layers."""') == [1]
    assert narrations(f"# loads {factor} than it builds") == [1]
    assert (
        narrations("# slow for a table of thousands of rows\n# ``Total Host Walltime: 3.0 s``")
        == []
    )


def test_comments_give_reasons_not_timings() -> None:
    found = {
        str(path.relative_to(REPO)): lines
        for path in [
            *sorted((REPO / "trtlog").rglob("*.py")),
            *sorted(REPO.glob("core/src/**/*.rs")),
        ]
        if (lines := narrations(path.read_text(encoding="utf-8")))
    }
    assert not found, f"comments that narrate measurements (say why instead): {found}"
