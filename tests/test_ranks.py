"""Ranks within groups (``trtlog.analysis.columns.ranks_within``) against pandas' grouped rank,
which the tactics table's ``rank`` column was first computed with: on generated values and on
the tactics tables of the corpus logs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, needs_corpus, parse_strict
from trtlog.analysis.columns import ranks_within
from trtlog.analysis.tactics import TacticCollector

_TIMES = st.one_of(
    st.sampled_from([0.0, -0.0, 0.5, 1.0, 2.5, float("nan"), float("inf"), -1.0]),
    st.floats(allow_nan=True, allow_infinity=True),
)


def _pandas_ranks(values: np.ndarray, groups: np.ndarray) -> list[int]:
    ranks = pd.Series(values).groupby(groups).rank(method="min", na_option="bottom")
    return [int(rank) for rank in ranks]


@given(st.lists(st.tuples(st.integers(-3, 5), _TIMES), max_size=60))
def test_ranks_are_pandas_grouped_minimum_ranks(pairs: list[tuple[int, float]]) -> None:
    groups = np.array([group for group, _ in pairs], dtype="int64")
    values = np.array([value for _, value in pairs], dtype="float64")
    assert list(ranks_within(values, groups)) == _pandas_ranks(values, groups)


def test_equal_times_share_the_least_rank_and_untimed_ones_come_last() -> None:
    # One runner block (0) timed 3 tactics, two equal, and one not timed; block 1 timed one.
    values = np.array([0.2, 0.1, 0.2, np.nan, 0.7])
    groups = np.array([0, 0, 0, 0, 1])
    assert list(ranks_within(values, groups)) == [2, 1, 2, 4, 1]


def test_groups_far_apart_fall_back_to_sorting_by_two_keys() -> None:
    # Group numbers too far apart for one integer key per (group, value).
    groups = np.array([-(2**62), 2**62, 2**62, -(2**62)], dtype="int64")
    values = np.array([1.0, 3.0, 2.0, np.nan])
    assert list(ranks_within(values, groups)) == [1, 2, 1, 2]


def test_no_values_no_ranks() -> None:
    ranks = ranks_within(np.empty(0), np.empty(0, dtype="int64"))
    assert len(ranks) == 0 and str(ranks.dtype) == "Int64"


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", CORPUS_LOGS, ids=lambda path: path.name)
def test_the_tactics_tables_ranks_are_pandas_ranks_within_each_runner_block(path: object) -> None:
    table = TacticCollector().feed_all(parse_strict(path).events).tactics_table()  # type: ignore[arg-type]
    expected = _pandas_ranks(table["time_ms"].to_numpy(), table["block"].to_numpy())
    assert table["rank"].tolist() == expected
