"""The modules compiled by mypyc (``setup.py``) read logs exactly as their plain Python source.

The test suite runs whichever the install holds. Where it holds compiled modules, the same logs
are read again in a process that imports a copy of the source without them, and every event and
every table must come out the same.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import trtlog
from tests.conftest import CORPUS_LOGS, REPO, SAMPLES
from trtlog.analysis import TABLES
from trtlog.parse import parse_file

_READ = """
import pickle, sys
import trtlog
from trtlog.analysis import TABLES
from trtlog.parse import parse_file

assert not trtlog.compiled(), trtlog.parse.fold.__file__
read = {}
for path in sys.argv[2:]:
    log = trtlog.load(path)
    read[path] = ({name: log.table(name) for name in TABLES}, parse_file(path).events)
with open(sys.argv[1], "wb") as out:
    pickle.dump(read, out)
"""


def _logs() -> list[Path]:
    """The sample logs and every corpus log: each style and version's forms."""
    return sorted(SAMPLES.glob("*.log")) + list(CORPUS_LOGS)


def _plain_copy(folder: Path) -> Path:
    """The package's source alone (no compiled modules), with its grammars, under ``folder``."""
    package = folder / "trtlog"
    shutil.copytree(
        REPO / "trtlog", package, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
    )
    shutil.copytree(REPO / "grammars", package / "grammars")
    return folder


def test_a_build_with_a_c_compiler_compiles_the_modules() -> None:
    """A failed translation falls back to plain Python quietly (``setup.py``): here it fails."""
    if os.environ.get("TRTLOG_PURE_PYTHON", "") not in ("", "0"):
        pytest.skip("TRTLOG_PURE_PYTHON is set: the install is plain Python by request")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the install is plain Python")
    assert trtlog.compiled()


@pytest.mark.skipif(not trtlog.compiled(), reason="plain Python install: nothing to compare")
def test_compiled_modules_read_logs_as_the_plain_source(tmp_path: Path) -> None:
    logs = [str(path) for path in _logs()]
    source = _plain_copy(tmp_path / "plain")
    out = tmp_path / "read.pickle"
    environment = {**os.environ, "PYTHONPATH": str(source)}
    subprocess.run(
        [sys.executable, "-c", _READ, str(out), *logs],
        check=True,
        cwd=tmp_path,
        env=environment,
    )
    with out.open("rb") as stream:
        plain = pickle.load(stream)
    assert list(plain) == logs
    for path in logs:
        tables, events = plain[path]
        assert events, path
        log = trtlog.load(path)
        for name in TABLES:
            pd.testing.assert_frame_equal(log.table(name), tables[name], obj=f"{path}: {name}")
        compiled_events = parse_file(path).events
        assert len(compiled_events) == len(events), path
        assert compiled_events == events, path


@pytest.mark.skipif(not trtlog.compiled(), reason="plain Python install: nothing compiled")
def test_compiled_modules_are_not_older_than_their_source() -> None:
    """An editable install compiles the modules in place, and a compiled module is imported
    before its source: after editing one, the install must run again (or be plain Python,
    ``TRTLOG_PURE_PYTHON=1``), or the tests would test the module as it was."""
    stale = []
    for built in (REPO / "trtlog").rglob("*.so"):
        source = built.with_name(built.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            stale.append(str(source.relative_to(REPO)))
    assert not stale, f"edited since compiled, install again: {', '.join(stale)}"
