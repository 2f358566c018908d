"""What marks each timing of the ``tactics`` table: a time that means "not timed", the tactic
TensorRT reported fastest for its runner, the tactic finally chosen. Worked out for every
timing at once: a large log has millions of them."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from trtlog.analysis.columns import numbers
from trtlog.events.base import NOT_TIMED_THRESHOLD

if TYPE_CHECKING:
    import pandas as pd


def fastest_marks(
    block: np.ndarray,
    tactic: np.ndarray,
    rank: pd.arrays.IntegerArray,
    last_block: int,
    fastest_block: array[int],
    fastest_tactic: array[int],
) -> np.ndarray:
    """Whether each timing is of the tactic TensorRT reported fastest for its block (the
    ``fastest_block`` and ``fastest_tactic`` pairs; blocks count from -1 to ``last_block``);
    in a block with no report, the one ranked first."""
    reported = np.zeros(last_block + 2, dtype="uint64")
    has_reported = np.zeros(last_block + 2, dtype=bool)
    reported_blocks = numbers(fastest_block, "int64") + 1
    reported[reported_blocks] = numbers(fastest_tactic, "uint64")
    has_reported[reported_blocks] = True
    marks: np.ndarray = np.where(
        has_reported[block + 1],
        tactic == reported[block + 1],
        (rank == 1).to_numpy(dtype=bool, na_value=False),
    )
    return marks


def timed(times: np.ndarray) -> np.ndarray:
    """NaN for the times that mean "not timed" (see ``time_ms``)."""
    not_timed = times >= NOT_TIMED_THRESHOLD
    if not not_timed.any():
        return times
    times = times.copy()
    times[not_timed] = np.nan
    return times


def chosen_marks(
    combination: np.ndarray,
    runner: pd.Categorical,
    tactic: np.ndarray,
    choices: dict[str, Sequence[Any]],
) -> np.ndarray:
    """Whether each timing is of the tactic finally chosen for its combination and runner
    (``choices``: ``TacticCollector.choice_columns``)."""
    runner_codes = {name: code for code, name in enumerate(runner.categories)}
    choice_numbers, choice_codes, choice_tactics = array("q"), array("q"), array("Q")
    for number, chosen_runner, chosen_tactic in zip(
        choices["combination"], choices["runner"], choices["tactic"], strict=True
    ):
        code = runner_codes.get(chosen_runner)
        if code is not None:
            choice_numbers.append(number)
            choice_codes.append(code)
            choice_tactics.append(chosen_tactic)
    if not choice_numbers or not len(tactic):
        return np.zeros(len(tactic), dtype=bool)
    chosen_numbers = numbers(choice_numbers, "int64")
    lowest = min(int(combination.min()), int(chosen_numbers.min()))
    size = max(int(combination.max()), int(chosen_numbers.max())) - lowest + 1
    # Each combination's first choice, looked up by its number for every timing at once
    # instead of searching each combination's rows: a large log has millions of timings.
    # (-2: no choice; a timing without a runner has code -1.)
    places = chosen_numbers - lowest
    _, firsts = np.unique(places, return_index=True)
    chosen_code = np.full(size, -2, dtype="int64")
    chosen_tactic = np.zeros(size, dtype="uint64")
    chosen_code[places[firsts]] = numbers(choice_codes, "int64")[firsts]
    chosen_tactic[places[firsts]] = numbers(choice_tactics, "uint64")[firsts]
    runner_code = np.asarray(runner.codes)
    rows = combination - lowest
    result: np.ndarray = (runner_code == chosen_code[rows]) & (tactic == chosen_tactic[rows])
    # A combination's other choices, if it holds more than one: matched among its rows, which
    # are consecutive.
    others = np.ones(len(places), dtype=bool)
    others[firsts] = False
    for index in np.flatnonzero(others):
        number = int(chosen_numbers[index])
        start, stop = np.searchsorted(combination, [number, number + 1])
        code, chosen = choice_codes[int(index)], choice_tactics[int(index)]
        result[start:stop] |= (runner_code[start:stop] == code) & (tactic[start:stop] == chosen)
    return result
