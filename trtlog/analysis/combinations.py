"""What one format combination's tuning said besides its tactic timings, and the values of the
``choices`` table read from it (``trtlog.analysis.choices``).

Filled by the tactic builder (``trtlog.analysis.tactics``) as the log is read.
"""

from __future__ import annotations

import math
from array import array
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


class ChoiceRows:
    """Per ``Chose Runner Type`` line, its values of the ``choices`` table that come from the
    events (``trtlog.analysis.choices``), column by column.

    A format combination's rows are added once it is over (the tactic builder adds them when
    the next one opens), and its ``Combination`` is let go: a large log's choices are not kept
    as objects until the table is built. Numbers are kept in arrays and each text once, which
    a large build's hundred thousand choices would otherwise hold as objects of their own.
    """

    def __init__(self) -> None:
        self.run: list[int | None] = []
        self.build: list[int | None] = []
        self.strategy: list[int | None] = []
        self.number = array("q")
        self.layer: list[str | None] = []
        self.formats: list[str | None] = []
        self.runner: list[str] = []
        self.runner_id: list[int | None] = []
        # Unsigned values, made text only once per distinct tactic (``trtlog.analysis.choices``).
        self.tactic = array("Q")
        self.fallback = array("d")
        self.skipped = array("q")
        self.skipped_runners: list[str] = []
        self.tuning = array("d")
        self.span = array("d")
        self.line = array("q")
        # Each distinct text once: the rows refer to it.
        self._texts: dict[str, str] = {}

    def add(self, number: int, combination: Combination) -> None:
        """The rows of combination ``number``, one per runner it chose (none if it chose none)."""
        if not combination.chosen:
            return
        fastest = combination.fastest_ms or {}
        runners_skipped = ", ".join(combination.skipped_runners)
        seconds = combination.profiling_seconds if combination.profiled else math.nan
        first, last = combination.first_time, combination.last_time
        spanned = (last - first).total_seconds() if first and last else math.nan
        held = self._texts.setdefault
        for choice in combination.chosen:
            self.run.append(choice.run)
            self.build.append(choice.build)
            self.strategy.append(choice.strategy)
            self.number.append(number)
            layer, formats, runner = choice.layer, choice.formats, choice.chosen_runner
            self.layer.append(layer if layer is None else held(layer, layer))
            self.formats.append(formats if formats is None else held(formats, formats))
            self.runner.append(held(runner, runner))
            self.runner_id.append(choice.runner_id)
            self.tactic.append(int(choice.tactic))
            self.fallback.append(fastest.get(runner, math.nan))
            self.skipped.append(combination.skipped_tactics)
            self.skipped_runners.append(held(runners_skipped, runners_skipped))
            self.tuning.append(seconds)
            self.span.append(spanned)
            self.line.append(choice.line)

    def columns(self, number: int = 0, last: Combination | None = None) -> dict[str, Any]:
        """The columns by name, followed by the rows of ``last`` (combination ``number``, which
        may not be over yet) when given; the lists are not copied where it adds none."""
        columns: dict[str, Any] = {
            "run": self.run,
            "build": self.build,
            "strategy": self.strategy,
            "combination": self.number,
            "layer": self.layer,
            "formats": self.formats,
            "runner": self.runner,
            "runner_id": self.runner_id,
            "tactic": self.tactic,
            "fallback_ms": self.fallback,
            "tactics_skipped": self.skipped,
            "runners_skipped": self.skipped_runners,
            "tuning_seconds": self.tuning,
            "tuning_span_seconds": self.span,
            "line": self.line,
        }
        if last is None or not last.chosen:
            return columns
        rows = ChoiceRows()
        rows.add(number, last)
        added = rows.columns()
        return {name: values + added[name] for name, values in columns.items()}


__all__ = ["ChoiceRows", "Combination"]
