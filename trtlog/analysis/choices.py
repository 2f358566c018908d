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
    timed = pd.DataFrame(
        {
            "combination": tactics["combination"].to_numpy(),
            "runner": tactics["runner"].astype(object).to_numpy(),
            "tactic": tactics["tactic"].astype(object).to_numpy(),
            "kernel": tactics["kernel"].astype(object).to_numpy(),
            "time_ms": tactics["time_ms"].to_numpy(),
        }
    )
    key = ["combination", "runner", "tactic"]
    # The chosen runner and tactic's fastest timing (untimed ones last).
    winners = (
        timed.sort_values("time_ms", kind="stable", na_position="last")
        .drop_duplicates(key)
        .rename(columns={"time_ms": "winner_ms"})
    )
    choices = choices.merge(winners, how="left", on=key, indicator="winner")
    timed_choice = (choices.pop("winner") == "both").to_numpy()
    choices["kernel"] = choices["kernel"].astype(object).where(timed_choice, None)
    # The fastest and the fastest of another runner or tactic, per combination: the runner-up
    # of a choice is the first of the two that is not the choice.
    ranked = timed[timed["time_ms"].notna()].sort_values(["combination", "time_ms"], kind="stable")
    first = ranked.drop_duplicates("combination")
    first_key = ranked["combination"].map(first.set_index("combination")["runner"].astype(object))
    first_tactic = ranked["combination"].map(first.set_index("combination")["tactic"])
    differs = (ranked["runner"] != first_key) | (ranked["tactic"] != first_tactic)
    second = ranked[differs].drop_duplicates("combination")
    choices = _runner_up(choices, first, second)
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
    return choices[CHOICE_COLUMNS].astype(
        {"runner_id": "Int64", "tactics_tried": "int64", "runners_tried": "int64"}
    )


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
        "fallback_ms": combination.fastest_ms.get(choice.chosen_runner, math.nan),
        "tactics_skipped": combination.skipped_tactics,
        "runners_skipped": ", ".join(combination.skipped_runners),
        "tuning_seconds": combination.profiling_seconds if combination.profiled else math.nan,
        "tuning_span_seconds": span,
        "line": choice.line,
    }


def _runner_up(choices: pd.DataFrame, first: pd.DataFrame, second: pd.DataFrame) -> pd.DataFrame:
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
    return choices


__all__ = ["CHOICE_COLUMNS", "choices_frame"]
