"""The code stays ruff-clean (lint and format)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

# The ruff installed beside this interpreter (the test extra), else one on PATH.
_BESIDE = Path(sys.executable).parent / "ruff"
RUFF = str(_BESIDE) if _BESIDE.exists() else shutil.which("ruff")


@pytest.mark.skipif(RUFF is None, reason="ruff is not installed")
@pytest.mark.parametrize(
    "arguments", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"]
)
def test_ruff(arguments: list[str]) -> None:
    result = subprocess.run([RUFF, *arguments], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
