"""The choice TensorRT made for each layer and format combination, against its runner-up.

``choices`` columns, one row per ``Chose Runner Type`` line: ``build``, ``combination``,
``layer``, ``formats``, ``runner``, ``runner_id``, ``tactic``, ``kernel``, ``best_ms``,
``runner_up_ms``, ``runner_up_runner``, ``runner_up_tactic``, ``gap_percent`` (how much slower
the runner-up is), ``tactics_tried`` (timed), ``tactics_skipped``, ``runners_tried``,
``runners_skipped`` ("Runner (reason)", comma-separated), ``tuning_seconds`` (profiling time
TensorRT reported, 8.6+), ``tuning_span_seconds`` (first to last timestamp of the combination,
one-second resolution), ``line``.

The winner is the chosen runner and tactic's fastest timing; the runner-up is the fastest
timing of any other runner or tactic in the same combination. Ties go to the line logged first.
Everything is computed for all combinations at once, so that a log with millions of timings
takes seconds.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from trtlog.analysis.tactics import Combination
    from trtlog.events import ChoseRunner

CHOICE_COLUMNS = [
    "build",
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
    "line",
]


def choices_frame(tactics: pd.DataFrame, combinations: dict[int, Combination]) -> pd.DataFrame:
    choices = _choice_rows(combinations)
    if choices.empty:
        return pd.DataFrame(columns=CHOICE_COLUMNS).astype(
            {"runner_id": "Int64", "tactics_tried": "int64", "runners_tried": "int64"}
        )
    # Runners, tactics and kernels by their categorical codes: a log with millions of timings
    # is sorted and matched as integers (-1: missing; -2: a choice's value never timed).
    runners, tactic_ids = tactics["runner"].cat, tactics["tactic"].cat
    timed = pd.DataFrame(
        {
            "combination": tactics["combination"].to_numpy(),
            "runner": runners.codes.to_numpy(),
            "tactic": tactic_ids.codes.to_numpy(),
            "kernel": tactics["kernel"].cat.codes.to_numpy(),
            "time_ms": tactics["time_ms"].to_numpy(),
        }
    )
    choices["runner_name"], choices["tactic_id"] = choices["runner"], choices["tactic"]
    choices["runner"] = _codes(runners.categories, choices["runner_name"])
    choices["tactic"] = _codes(tactic_ids.categories, choices["tactic_id"])
    key = ["combination", "runner", "tactic"]
    # The chosen runner and tactic's fastest timing (untimed ones last).
    winners = (
        timed.sort_values("time_ms", kind="stable", na_position="last")
        .drop_duplicates(key)
        .rename(columns={"time_ms": "winner_ms"})
    )
    choices = choices.merge(winners, how="left", on=key, indicator="winner")
    timed_choice = (choices.pop("winner") == "both").to_numpy()
    kernel_codes = choices["kernel"].fillna(-1).astype("int64").to_numpy()
    choices["kernel"] = _names(tactics["kernel"].cat.categories, kernel_codes, timed_choice)
    # The fastest and the fastest of another runner or tactic, per combination: the runner-up
    # of a choice is the first of the two that is not the choice.
    ranked = timed[timed["time_ms"].notna()].sort_values(["combination", "time_ms"], kind="stable")
    first = ranked.drop_duplicates("combination")
    first_runner = ranked["combination"].map(first.set_index("combination")["runner"])
    first_tactic = ranked["combination"].map(first.set_index("combination")["tactic"])
    differs = (ranked["runner"] != first_runner) | (ranked["tactic"] != first_tactic)
    second = ranked[differs].drop_duplicates("combination")
    choices = _runner_up(choices, first, second, runners.categories, tactic_ids.categories)
    counted = timed[timed["time_ms"].notna()].groupby("combination")
    choices["tactics_tried"] = choices["combination"].map(counted.size()).fillna(0).astype("int64")
    choices["runners_tried"] = (
        choices["combination"].map(counted["runner"].nunique()).fillna(0).astype("int64")
    )
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
    return choices[CHOICE_COLUMNS].astype(
        {"runner_id": "Int64", "tactics_tried": "int64", "runners_tried": "int64"}
    )


def _codes(categories: pd.Index, values: pd.Series) -> np.ndarray:
    """The codes of ``values`` among ``categories``; -2 for a value that is not one."""
    codes = categories.get_indexer(values.astype(object))
    return np.where(codes < 0, -2, codes)


def _names(categories: pd.Index, codes: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """The category of each code as an object array; None for -1 (or where not ``keep``)."""
    names = np.asarray(categories, dtype=object)
    valid = codes >= 0 if keep is None else (codes >= 0) & keep
    result = np.full(len(codes), None, dtype=object)
    result[valid] = names[codes[valid]]
    return result


def _choice_rows(combinations: dict[int, Combination]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            _choice_record(number, combination, choice)
            for number, combination in combinations.items()
            for choice in combination.chosen
        ]
    )


def _choice_record(number: int, combination: Combination, choice: ChoseRunner) -> dict[str, Any]:
    span = (
        (combination.last_time - combination.first_time).total_seconds()
        if combination.first_time and combination.last_time
        else math.nan
    )
    return {
        "build": choice.build,
        "combination": number,
        "layer": choice.layer,
        "formats": choice.formats,
        "runner": choice.chosen_runner,
        "runner_id": choice.runner_id,
        "tactic": repr(choice.tactic),
        "fallback_ms": (combination.fastest_ms or {}).get(choice.chosen_runner, math.nan),
        "tactics_skipped": combination.skipped_tactics,
        "runners_skipped": ", ".join(combination.skipped_runners),
        "tuning_seconds": combination.profiling_seconds if combination.profiled else math.nan,
        "tuning_span_seconds": span,
        "line": choice.line,
    }


def _runner_up(
    choices: pd.DataFrame,
    first: pd.DataFrame,
    second: pd.DataFrame,
    runners: pd.Index,
    tactic_ids: pd.Index,
) -> pd.DataFrame:
    top = first.set_index("combination")
    other = second.set_index("combination")
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
