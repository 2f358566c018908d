"""The choice TensorRT made for each layer and format combination, against its runner-up.

``choices`` columns, one row per ``Chose Runner Type`` line: ``run``, ``build``, ``strategy``
(see ``Event``), ``combination``,
``layer``, ``formats``, ``runner``, ``runner_id``, ``tactic``, ``kernel``, ``best_ms``,
``runner_up_ms``, ``runner_up_runner``, ``runner_up_tactic``, ``gap_percent`` (how much slower
the runner-up is), ``tactics_tried`` (timed), ``tactics_skipped``, ``runners_tried``,
``runners_skipped`` ("Runner (reason)", comma-separated), ``tuning_seconds`` (profiling time
TensorRT reported, 8.6+), ``tuning_span_seconds`` (first to last timestamp of the combination,
one-second resolution), ``in_engine`` (the engine layer of this name runs this tactic:
``trtlog.analysis.engine_tactics``), ``line``, then the kernel's anatomy
(``trtlog.analysis.kernel_names``): ``kernel_arch``, ``kernel_generation``, ``kernel_family``,
``kernel_operation``, ``kernel_input``, ``kernel_output``, ``kernel_math``,
``kernel_accumulator``, ``kernel_layout``, ``kernel_tile``, ``kernel_stages``,
``kernel_warps``, ``kernel_cluster``, ``kernel_tensor_cores``, ``kernel_split_k``,
``kernel_unknown``.

The winner is the chosen runner and tactic's fastest timing; the runner-up is the fastest
timing of any other runner or tactic in the same combination. Ties go to the line logged first.
Everything is computed for all combinations at once, so that a log with millions of timings
takes seconds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from trtlog.analysis.columns import tactic_texts, with_types
from trtlog.analysis.kernel_names import KERNEL_COLUMNS

# The columns ``choices_frame`` builds; the kernel's anatomy is added to them.
_BUILT_COLUMNS = [
    "run",
    "build",
    "strategy",
    "combination",
    "layer",
    "formats",
    "runner",
    "runner_id",
    "tactic",
    "kernel",
    "best_ms",
    "runner_up_ms",
    "runner_up_runner",
    "runner_up_tactic",
    "gap_percent",
    "tactics_tried",
    "tactics_skipped",
    "runners_tried",
    "runners_skipped",
    "tuning_seconds",
    "tuning_span_seconds",
    "in_engine",
    "line",
]
CHOICE_COLUMNS = [*_BUILT_COLUMNS, *KERNEL_COLUMNS]

_TYPES = {
    "run": "Int64",
    "build": "Int64",
    "strategy": "Int64",
    "runner_id": "Int64",
    "tactics_tried": "int64",
    "runners_tried": "int64",
    "in_engine": bool,
}


def choices_frame(tactics: pd.DataFrame, rows: dict[str, Sequence[Any]]) -> pd.DataFrame:
    """The table, from the ``tactics`` table and the values that come from the events, column
    by column (``TacticCollector.choice_columns``)."""
    choices = _choice_rows(rows)
    if choices.empty:
        return with_types(pd.DataFrame(columns=_BUILT_COLUMNS), _TYPES)
    # Runners, tactics and kernels by their categorical codes: a log with millions of timings
    # is sorted and matched as integers (-1: missing; -2: a choice's value never timed).
    runners, tactic_ids = tactics["runner"].cat, tactics["tactic"].cat
    tactic_values = choices["tactic"].to_numpy(dtype="uint64")
    # A large build's choices name only a few hundred tactics: each made text once.
    tactic_text = np.asarray(tactic_texts(tactic_values), dtype=object)
    choices["runner_name"], choices["tactic_id"] = choices["runner"], tactic_text
    choices["runner"] = _codes(runners.categories, choices["runner_name"])
    choices["tactic"] = _tactic_codes(tactic_ids.categories, tactic_values)
    key = ["combination", "runner", "tactic"]
    # The chosen runner and tactic's fastest timing (untimed ones last): only the timings the
    # ``chosen`` column marks can be one, a few rows of millions.
    chosen = tactics["chosen"].to_numpy(dtype=bool)
    timed_chosen = pd.DataFrame(
        {
            "combination": tactics["combination"].to_numpy()[chosen],
            "runner": runners.codes.to_numpy()[chosen],
            "tactic": tactic_ids.codes.to_numpy()[chosen],
            "kernel": tactics["kernel"].cat.codes.to_numpy()[chosen],
            "time_ms": tactics["time_ms"].to_numpy()[chosen],
        }
    )
    winners = (
        timed_chosen.sort_values("time_ms", kind="stable", na_position="last")
        .drop_duplicates(key)
        .rename(columns={"time_ms": "winner_ms"})
    )
    choices = choices.merge(winners, how="left", on=key, indicator="winner")
    timed_choice = (choices.pop("winner") == "both").to_numpy()
    kernel_codes = choices["kernel"].fillna(-1).astype("int64").to_numpy()
    choices["kernel"] = _names(tactics["kernel"].cat.categories, kernel_codes, timed_choice)
    summary = _timed_per_combination(tactics, choices["combination"].to_numpy())
    choices = _runner_up(choices, summary, runners.categories, tactic_ids.categories)
    number = choices["combination"]
    choices["tactics_tried"] = number.map(summary.tried).fillna(0).astype("int64")
    choices["runners_tried"] = number.map(summary.runners_tried).fillna(0).astype("int64")
    # Where the chosen tactic was not timed here (only option, timing cache), the fastest time
    # TensorRT reported for its runner.
    choices["best_ms"] = np.where(
        timed_choice, choices["winner_ms"], choices["fallback_ms"]
    ).astype("float64")
    best, runner_up = choices["best_ms"], choices["runner_up_ms"]
    choices["gap_percent"] = np.where(
        best.notna() & (best != 0), (runner_up - best) / best * 100, math.nan
    )
    choices["runner"], choices["tactic"] = choices["runner_name"], choices["tactic_id"]
    # Set from the engine's listings by ``TableStream``.
    choices["in_engine"] = False
    return with_types(choices[_BUILT_COLUMNS], _TYPES)


def _codes(categories: pd.Index, values: pd.Series) -> np.ndarray:
    """The codes of ``values`` among ``categories``; -2 for a value that is not one."""
    codes = categories.get_indexer(values.astype(object))
    return np.where(codes < 0, -2, codes)


def _tactic_codes(categories: pd.Index, values: np.ndarray) -> np.ndarray:
    """The codes of tactic ids among the tactics table's "0x%016x" categories; -2 for an id
    that is not one. Matched as numbers: the categories are a few hundred, the ids tens of
    thousands."""
    known = pd.Index(np.array([int(name, 16) for name in categories], dtype="uint64"))
    codes = known.get_indexer(values)
    return np.where(codes < 0, -2, codes)


def _names(categories: pd.Index, codes: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """The category of each code as an object array; None for -1 (or where not ``keep``)."""
    names = np.asarray(categories, dtype=object)
    valid = codes >= 0 if keep is None else (codes >= 0) & keep
    result = np.full(len(codes), None, dtype=object)
    result[valid] = names[codes[valid]]
    return result


def _choice_rows(rows: dict[str, Sequence[Any]]) -> pd.DataFrame:
    # Column by column, from lists and arrays: a large build makes tens of thousands of rows,
    # and pandas builds a frame from columns far faster than from as many dicts. They are read
    # from the events as the log is read (``trtlog.analysis.combinations.ChoiceRows``).
    columns: dict[str, Any] = dict(rows)
    if not len(columns["line"]):
        return pd.DataFrame()
    # Ids past 2**63 stay unsigned.
    columns["tactic"] = np.asarray(columns["tactic"], dtype="uint64")
    return pd.DataFrame(columns)


@dataclass
class _Timed:
    """Per format combination, of its timed tactics: the fastest and the fastest of another
    runner or tactic (``combination``, ``runner`` and ``tactic`` codes, ``time_ms``), and how
    many timings and runners there were (indexed by combination)."""

    first: pd.DataFrame
    second: pd.DataFrame
    tried: pd.Series
    runners_tried: pd.Series


def _timed_per_combination(tactics: pd.DataFrame, wanted: np.ndarray) -> _Timed:
    """``_Timed`` for the combinations in ``wanted``, from arrays of the tactics table (a
    combination's timings are consecutive rows: it is read segment by segment, not sorted)."""
    combination = tactics["combination"].to_numpy()
    time = tactics["time_ms"].to_numpy(dtype="float64")
    rows = np.flatnonzero(~np.isnan(time) & _among(combination, wanted))
    if len(rows) and (np.diff(combination[rows]) < 0).any():
        rows = rows[np.argsort(combination[rows], kind="stable")]
    numbers, times = combination[rows], time[rows]
    runner = tactics["runner"].cat.codes.to_numpy()[rows]
    tactic = tactics["tactic"].cat.codes.to_numpy()[rows]
    starts = np.flatnonzero(np.diff(numbers, prepend=numbers[:1] - 1)) if len(rows) else rows
    lengths = np.diff(np.append(starts, len(rows)))
    segment = np.repeat(np.arange(len(starts)), lengths)
    # Ties go to the line logged first: the first row holding the segment's least time.
    first, _ = _first_least(times, starts, segment)
    differs = (runner != runner[first][segment]) | (tactic != tactic[first][segment])
    second, found = _first_least(np.where(differs, times, np.inf), starts, segment)
    # A runner per segment counted once: each (segment, runner code) pair marked in a table
    # (a log names a few dozen runners at most) rather than sorted out with ``np.unique``.
    width = int(runner.max(initial=-1)) + 2
    seen = np.zeros(len(starts) * width, dtype=bool)
    seen[segment * width + (runner.astype("int64") + 1)] = True
    runners_tried = seen.reshape(len(starts), width).sum(axis=1)
    index = pd.Index(numbers[starts], name="combination")

    def picked(positions: np.ndarray, where: pd.Index) -> pd.DataFrame:
        columns = {"runner": runner, "tactic": tactic, "time_ms": times}
        return pd.DataFrame({name: values[positions] for name, values in columns.items()}, where)

    return _Timed(
        first=picked(first, index),
        second=picked(second[found], index[found]),
        tried=pd.Series(lengths, index=index),
        runners_tried=pd.Series(runners_tried, index=index),
    )


def _among(values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Whether each of ``values`` is one of ``wanted`` (``np.isin``): combination numbers
    count up from -1, so they are looked up in a table of the range they span, which takes
    one pass over millions of timings where ``np.isin`` sorts them."""
    if not len(values) or not len(wanted):
        return np.zeros(len(values), dtype=bool)
    lowest = min(int(values.min()), int(wanted.min()))
    highest = max(int(values.max()), int(wanted.max()))
    table = np.zeros(highest - lowest + 1, dtype=bool)
    table[wanted - lowest] = True
    found: np.ndarray = table[values - lowest]
    return found


def _first_least(
    values: np.ndarray, starts: np.ndarray, segment: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per segment, the position of the first of its least values, and whether that value is
    finite (infinite: no value)."""
    if not len(starts):
        return starts, np.zeros(0, dtype=bool)
    least = np.minimum.reduceat(values, starts)
    hits = np.flatnonzero(values == least[segment])
    of_hit = segment[hits]
    firsts = hits[np.diff(of_hit, prepend=-1) != 0]
    return firsts, np.isfinite(least)


def _runner_up(
    choices: pd.DataFrame, timed: _Timed, runners: pd.Index, tactic_ids: pd.Index
) -> pd.DataFrame:
    top, other = timed.first, timed.second
    number = choices["combination"]
    top_is_choice = (number.map(top["runner"]) == choices["runner"]) & (
        number.map(top["tactic"]) == choices["tactic"]
    )
    for column in ("time_ms", "runner", "tactic"):
        choices[f"runner_up_{column}"] = np.where(
            top_is_choice, number.map(other[column]), number.map(top[column])
        )
    choices = choices.rename(columns={"runner_up_time_ms": "runner_up_ms"})
    choices["runner_up_ms"] = choices["runner_up_ms"].astype("float64")
    for column, categories in (("runner_up_runner", runners), ("runner_up_tactic", tactic_ids)):
        codes = pd.to_numeric(choices[column]).fillna(-1).astype("int64").to_numpy()
        choices[column] = _names(categories, codes)
    return choices


__all__ = ["CHOICE_COLUMNS", "choices_frame"]
