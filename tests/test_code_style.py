"""The code stays ruff-clean (lint and format) and type-checks with mypy."""

from __future__ import annotations

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
