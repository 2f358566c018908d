"""Shared fixtures: where the real-log corpus lives, and parsed corpus logs (parsed once)."""

from __future__ import annotations

import gc
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from trtlog.parse import ParsedLog, parse_file, records

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_logs"


def bench_module(name: str) -> ModuleType:
    """``bench/<name>.py``, loaded as the module ``bench_<name>`` (the benchmark is no package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up by name.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def corpus_dir() -> Path:
    """$TRTLOG_CORPUS, or ../shared/corpus next to the checkout."""
    configured = os.environ.get("TRTLOG_CORPUS")
    return Path(configured) if configured else (REPO.parent / "shared" / "corpus")


CORPUS_LOGS = (
    sorted((corpus_dir() / "logs").glob("*.log")) if (corpus_dir() / "logs").is_dir() else []
)

needs_corpus = pytest.mark.skipif(not CORPUS_LOGS, reason=f"no corpus logs in {corpus_dir()}")

_parsed: dict[Path, ParsedLog] = {}


@pytest.fixture(autouse=True)
def private_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test keeps parsed logs in its own store, never in the checkout's ``.trtlog/``."""
    root = tmp_path / "store"
    monkeypatch.setenv("TRTLOG_STORE", str(root))
    return root


@pytest.fixture(autouse=True)
def collected_as_usual() -> Iterator[None]:
    """``trtlog parse`` run in this process freezes the objects alive (``gc.freeze``), as the
    command does before it builds the tables: they are unfrozen after each test, so that
    garbage left in reference cycles is collected as usual."""
    yield
    gc.unfreeze()


def parse_strict(path: Path) -> ParsedLog:
    """Parse with event-builder errors raised instead of leaving the record unclaimed."""
    if path not in _parsed:
        previous, records.STRICT = records.STRICT, True
        try:
            _parsed[path] = parse_file(path)
        finally:
            records.STRICT = previous
    return _parsed[path]


def corpus_log(name: str) -> ParsedLog:
    path = corpus_dir() / "logs" / name
    if not path.exists():
        pytest.skip(f"corpus log {name} not found in {corpus_dir()}")
    return parse_strict(path)
