"""Garbage collection while parsing: rarer inside the block, as before after it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from trtlog.parse.collection import rare_collections


@pytest.fixture
def default_thresholds() -> Iterator[None]:
    previous = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*previous)


@pytest.mark.usefixtures("default_thresholds")
def test_young_collections_are_rare_inside_and_restored_after() -> None:
    with rare_collections():
        # A young collection at most every 500,000 allocations (a piece read back from a worker
        # makes 20,000-40,000 objects at once).
        assert gc.get_threshold() == (500_000, 10, 10)
        with rare_collections():
            assert gc.get_threshold() == (500_000, 10, 10)
        assert gc.get_threshold() == (500_000, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.usefixtures("default_thresholds")
def test_thresholds_are_restored_when_the_parse_fails() -> None:
    with pytest.raises(ValueError), rare_collections():
        raise ValueError("unreadable")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_of_the_callers_is_kept() -> None:
    previous = gc.get_threshold()
    try:
        gc.set_threshold(1_000_000, 5, 5)
        with rare_collections():
            assert gc.get_threshold() == (1_000_000, 5, 5)
    finally:
        gc.set_threshold(*previous)
