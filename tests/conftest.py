"""Shared fixtures: where the real-log corpus lives, and parsed corpus logs (parsed once); the
markers each test gets from what it uses; Hypothesis's profiles."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.marking import is_property_test, opens_browser, reads_corpus
from trtlog.parse import ParsedLog, parse_file, records

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_logs"


def corpus_dir() -> Path:
    """$TRTLOG_CORPUS, or ../shared/corpus next to the checkout."""
    configured = os.environ.get("TRTLOG_CORPUS")
    return Path(configured) if configured else (REPO.parent / "shared" / "corpus")


CORPUS_LOGS = (
    sorted((corpus_dir() / "logs").glob("*.log")) if (corpus_dir() / "logs").is_dir() else []
)

needs_corpus = pytest.mark.skipif(not CORPUS_LOGS, reason=f"no corpus logs in {corpus_dir()}")

_parsed: dict[Path, ParsedLog] = {}

# Hypothesis: a few examples per property on a developer's machine, each test's own thorough
# count in CI (new examples every run; a failure prints the blob that reproduces it).
settings.register_profile(
    "dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    max_examples=500,
    deadline=None,
    derandomize=False,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)


def examples(thorough: int) -> int:
    """A property's number of examples: ``thorough`` in CI, at most the profile's elsewhere."""
    return thorough if PROFILE == "ci" else min(thorough, settings.default.max_examples)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it uses, so that ``-m`` can leave out the corpus, the browser or
    the properties; ``slow`` is written beside the slow tests themselves."""
    root = corpus_dir()
    for item in items:
        if reads_corpus(item, root, needs_corpus):
            item.add_marker(pytest.mark.corpus)
        if is_property_test(item):
            item.add_marker(pytest.mark.property)
        if opens_browser(item):
            item.add_marker(pytest.mark.browser)


_corpus_opened: list[str] = []


def _note_corpus_opened(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and isinstance(args[0], (str, Path)):
        name = os.fspath(args[0])
        if name.startswith(_CORPUS_PREFIXES):
            _corpus_opened.append(name)


_CORPUS_PREFIXES = (str(corpus_dir()) + os.sep, str(corpus_dir().resolve()) + os.sep)
sys.addaudithook(_note_corpus_opened)


@pytest.fixture(autouse=True)
def marked_corpus_if_it_reads_it(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that opens a corpus file must carry the ``corpus`` marker (found from its code,
    or written beside it where the code does not show it), else ``-m "not corpus"`` would run
    it."""
    _corpus_opened.clear()
    yield
    if _corpus_opened and request.node.get_closest_marker("corpus") is None:
        pytest.fail(
            f"{request.node.nodeid} opened {_corpus_opened[0]} but is not marked corpus: "
            "mark it @pytest.mark.corpus"
        )


@pytest.fixture(autouse=True)
def private_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test keeps parsed logs in its own store, never in the checkout's ``.trtlog/``."""
    root = tmp_path / "store"
    monkeypatch.setenv("TRTLOG_STORE", str(root))
    return root


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
