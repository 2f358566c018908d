"""What one format combination's tuning said besides its tactic timings, and the values of the
``choices`` table read from it (``trtlog.analysis.choices``).

Compiled with the tactic builder that fills them (``setup.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from trtlog.events import ChoseRunner


@dataclass(slots=True)
class Combination:
    """What one format combination's tuning said besides its tactic timings (a large build
    has hundreds of thousands: the collections are made when first needed)."""

    skipped_tactics: int = 0
    skipped_runners: tuple[str, ...] = ()
    profiling_seconds: float = 0.0
    profiled: bool = False
    first_time: datetime | None = None
    last_time: datetime | None = None
    chosen: tuple[ChoseRunner, ...] = ()
    # Reported fastest time per runner: the only time there is when timing was skipped
    # ("Tactic: 0 is the only option") or the result came from the timing cache.
    fastest_ms: dict[str, float] | None = None

    def note_time(self, timestamp: datetime | None) -> None:
        if timestamp is None:
            return
        if self.first_time is None:
            self.first_time = timestamp
        self.last_time = timestamp


def choice_columns(combinations: dict[int, Combination]) -> dict[str, list[Any]]:
    """Per ``Chose Runner Type`` line, its values of the ``choices`` table that come from the
    events (``trtlog.analysis.choices``), column by column. Here, compiled, rather than where
    the table is built: the 1 GB benchmark log has 82,000 choices, which plain Python took
    about half a second to read field by field."""
    build: list[int] = []
    number: list[int] = []
    layer: list[str | None] = []
    formats: list[str | None] = []
    runner: list[str] = []
    runner_id: list[int | None] = []
    # Unsigned values, made text only once per distinct tactic (``trtlog.analysis.choices``).
    tactic: list[int] = []
    fallback: list[float] = []
    skipped: list[int] = []
    skipped_runners: list[str] = []
    tuning: list[float] = []
    span: list[float] = []
    line: list[int] = []
    for key, combination in combinations.items():
        if not combination.chosen:
            continue
        fastest = combination.fastest_ms or {}
        runners_skipped = ", ".join(combination.skipped_runners)
        seconds = combination.profiling_seconds if combination.profiled else math.nan
        first, last = combination.first_time, combination.last_time
        spanned = (last - first).total_seconds() if first and last else math.nan
        for choice in combination.chosen:
            build.append(choice.build)
            number.append(key)
            layer.append(choice.layer)
            formats.append(choice.formats)
            runner.append(choice.chosen_runner)
            runner_id.append(choice.runner_id)
            tactic.append(int(choice.tactic))
            fallback.append(fastest.get(choice.chosen_runner, math.nan))
            skipped.append(combination.skipped_tactics)
            skipped_runners.append(runners_skipped)
            tuning.append(seconds)
            span.append(spanned)
            line.append(choice.line)
    return {
        "build": build,
        "combination": number,
        "layer": layer,
        "formats": formats,
        "runner": runner,
        "runner_id": runner_id,
        "tactic": tactic,
        "fallback_ms": fallback,
        "tactics_skipped": skipped,
        "runners_skipped": skipped_runners,
        "tuning_seconds": tuning,
        "tuning_span_seconds": span,
        "line": line,
    }


__all__ = ["Combination", "choice_columns"]
