"""Tactic timings and the choice made for every layer and format combination.

``tactics`` columns: ``build``, ``combination`` (number of the format combination being tuned),
``layer``, ``formats`` ("in -> out"), ``runner``, ``runner_id``, ``block`` (number of the timing
runner block), ``tactic`` ("0x%016x"), ``kernel``, ``time_ms`` (missing when not timed), ``rank``
(1 = fastest within its layer, format combination and runner), ``fastest`` (the tactic TensorRT
reported as fastest for that runner), ``chosen`` (the tactic finally chosen), ``line``.

``choices`` columns, one row per ``Chose Runner Type`` line: ``build``, ``combination``,
``layer``, ``formats``, ``runner``, ``runner_id``, ``tactic``, ``kernel``, ``best_ms``,
``runner_up_ms``, ``runner_up_runner``, ``runner_up_tactic``, ``gap_percent`` (how much slower
the runner-up is), ``tactics_tried`` (timed), ``tactics_skipped``, ``runners_tried``,
``runners_skipped`` ("Runner (reason)", comma-separated), ``tuning_seconds`` (profiling time
TensorRT reported, 8.6+), ``tuning_span_seconds`` (first to last timestamp of the combination,
one-second resolution), ``line``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import pandas as pd

from trtlog.events import (
    AutotuningEvent,
    ChoseRunner,
    ComputingCosts,
    Event,
    FastestTactic,
    FormatCombination,
    RunnerSkipped,
    TacticSkipped,
    TacticTiming,
    TimingRunner,
)

TACTIC_COLUMNS = [
    "build",
    "combination",
    "layer",
    "formats",
    "runner",
    "runner_id",
    "block",
    "tactic",
    "kernel",
    "time_ms",
    "rank",
    "fastest",
    "chosen",
    "line",
]
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


@dataclass
class _Combination:
    skipped_tactics: int = 0
    skipped_runners: list[str] = field(default_factory=list)
    profiling_seconds: float = 0.0
    profiled: bool = False
    first_time: datetime | None = None
    last_time: datetime | None = None
    chosen: list[ChoseRunner] = field(default_factory=list)
    # Reported fastest time per runner: the only time there is when timing was skipped
    # ("Tactic: 0 is the only option") or the result came from the timing cache.
    fastest_ms: dict[str, float] = field(default_factory=dict)


def tactic_tables(events: Sequence[Event]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``tactics`` and ``choices`` tables of a log."""
    rows: list[dict[str, object]] = []
    fastest_of_block: dict[int, str] = {}
    combinations: dict[int, _Combination] = {}
    combination = block = -1
    # "Computing costs for X" opens a new combination even where no "Autotuning format
    # combination" line follows (7.x); one that is followed by it does not open two.
    costs_pending = False
    for event in events:
        if isinstance(event, ComputingCosts):
            costs_pending = True
            continue
        if isinstance(event, FormatCombination) or (
            costs_pending and isinstance(event, AutotuningEvent)
        ):
            combination += 1
            combinations[combination] = _Combination()
            costs_pending = False
        if isinstance(event, (FormatCombination, TimingRunner)):
            block += isinstance(event, TimingRunner)
            continue
        current = combinations.setdefault(combination, _Combination())
        if isinstance(
            event, (TacticTiming, TacticSkipped, FastestTactic, RunnerSkipped, ChoseRunner)
        ):
            _note_time(current, event.timestamp)
        if isinstance(event, TacticTiming):
            rows.append(
                {
                    "build": event.build,
                    "combination": combination,
                    "layer": event.layer,
                    "formats": event.formats,
                    "runner": event.runner,
                    "runner_id": event.runner_id,
                    "block": block,
                    "tactic": repr(event.tactic),
                    "kernel": event.kernel,
                    "time_ms": math.nan if event.time_ms is None else event.time_ms,
                    "line": event.line,
                }
            )
        elif isinstance(event, FastestTactic):
            fastest_of_block[block] = repr(event.tactic)
            if event.runner is not None and event.time_ms is not None:
                current.fastest_ms[event.runner] = event.time_ms
            if event.profiling_seconds is not None:
                current.profiling_seconds += event.profiling_seconds
                current.profiled = True
        elif isinstance(event, TacticSkipped):
            current.skipped_tactics += 1
        elif isinstance(event, RunnerSkipped):
            current.skipped_runners.append(f"{event.skipped_runner} ({event.reason})")
        elif isinstance(event, ChoseRunner):
            current.chosen.append(event)
    tactics = _tactics_frame(rows, fastest_of_block, combinations)
    return tactics, _choices_frame(tactics, combinations)


def _note_time(combination: _Combination, timestamp: datetime | None) -> None:
    if timestamp is None:
        return
    if combination.first_time is None:
        combination.first_time = timestamp
    combination.last_time = timestamp


def _tactics_frame(
    rows: list[dict[str, object]],
    fastest_of_block: dict[int, str],
    combinations: dict[int, _Combination],
) -> pd.DataFrame:
    frame = pd.DataFrame(
        rows, columns=[c for c in TACTIC_COLUMNS if c not in ("rank", "fastest", "chosen")]
    )
    frame["time_ms"] = frame["time_ms"].astype("float64")
    frame["rank"] = (
        frame.groupby("block")["time_ms"].rank(method="min", na_option="bottom").astype("Int64")
    )
    reported = frame["block"].map(fastest_of_block)
    frame["fastest"] = (frame["tactic"] == reported) | (reported.isna() & (frame["rank"] == 1))
    chosen = {
        (number, choice.chosen_runner, repr(choice.tactic))
        for number, combination in combinations.items()
        for choice in combination.chosen
    }
    keys = zip(frame["combination"], frame["runner"], frame["tactic"], strict=True)
    frame["chosen"] = [key in chosen for key in keys]
    return frame.astype({"runner_id": "Int64"})[TACTIC_COLUMNS]


def _choices_frame(tactics: pd.DataFrame, combinations: dict[int, _Combination]) -> pd.DataFrame:
    # A GroupBy has a `keys` attribute, so dict() must be given its items as a list.
    by_combination = dict(list(tactics.groupby("combination")))
    none_timed = tactics.iloc[0:0]
    rows = [
        _choice_row(number, choice, combination, by_combination.get(number, none_timed))
        for number, combination in combinations.items()
        for choice in combination.chosen
    ]
    frame = pd.DataFrame(rows, columns=CHOICE_COLUMNS)
    return frame.astype({"runner_id": "Int64", "tactics_tried": "int64", "runners_tried": "int64"})


def _choice_row(
    number: int, choice: ChoseRunner, combination: _Combination, timed: pd.DataFrame
) -> dict[str, object]:
    tactic = repr(choice.tactic)
    is_chosen = (timed["runner"] == choice.chosen_runner) & (timed["tactic"] == tactic)
    winner = timed[is_chosen].sort_values("time_ms").head(1)
    others = timed[~is_chosen & timed["time_ms"].notna()].sort_values("time_ms").head(1)
    if len(winner):
        best = float(winner["time_ms"].iloc[0])
    else:
        best = combination.fastest_ms.get(choice.chosen_runner, math.nan)
    runner_up = float(others["time_ms"].iloc[0]) if len(others) else math.nan
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
        "tactic": tactic,
        "kernel": winner["kernel"].iloc[0] if len(winner) else None,
        "best_ms": best,
        "runner_up_ms": runner_up,
        "runner_up_runner": others["runner"].iloc[0] if len(others) else None,
        "runner_up_tactic": others["tactic"].iloc[0] if len(others) else None,
        "gap_percent": (runner_up - best) / best * 100
        if best and not math.isnan(best)
        else math.nan,
        "tactics_tried": int(timed["time_ms"].notna().sum()),
        "tactics_skipped": combination.skipped_tactics,
        "runners_tried": int(timed.loc[timed["time_ms"].notna(), "runner"].nunique()),
        "runners_skipped": ", ".join(combination.skipped_runners),
        "tuning_seconds": combination.profiling_seconds if combination.profiled else math.nan,
        "tuning_span_seconds": span,
        "line": choice.line,
    }
