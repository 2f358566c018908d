"""Tactic timings and the choice made for every layer and format combination.

``tactics`` columns: ``run``, ``build``, ``strategy`` (see ``Event``), ``combination`` (number of
the format combination being tuned), ``layer``, ``formats`` ("in -> out"), ``runner``,
``runner_id``, ``block`` (number of the timing runner block), ``tactic`` ("0x%016x"), ``kernel``,
``time_ms`` (missing when not timed), ``skip_reason`` ("time limit" for a tactic 8.6 stopped
timing because its pre-run exceeded the time limit: ``time_ms`` is that pre-run's; missing for
a tactic timed in full), ``rank`` (1 = fastest within its layer, format combination
and runner), ``fastest`` (the tactic TensorRT reported as fastest for that runner), ``chosen`` (the
tactic finally chosen for its format combination and runner), ``in_engine`` (a chosen tactic the
engine layer of this name runs: ``trtlog.analysis.engine_tactics``), ``line``, then what the
kernel's name says (``trtlog.analysis.kernel_names``): ``kernel_arch``, ``kernel_generation``,
``kernel_family``, ``kernel_operation``, ``kernel_input``, ``kernel_output``, ``kernel_math``,
``kernel_accumulator``, ``kernel_layout``, ``kernel_tile``, ``kernel_stages``,
``kernel_warps``, ``kernel_cluster``, ``kernel_tensor_cores``, ``kernel_split_k``,
``kernel_unknown``. Text columns are categorical (a large log times millions of tactics over a
few thousand names).

``choices`` columns, one row per ``Chose Runner Type`` line: see ``trtlog.analysis.choices``.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from trtlog.analysis.columns import TextColumn
from trtlog.analysis.combinations import ChoiceRows, Combination
from trtlog.analysis.kernel_names import KERNEL_COLUMNS
from trtlog.analysis.tactic_frames import MISSING, TIMING_COLUMNS, CollectedTimings
from trtlog.events import (
    AutotuningEvent,
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    RunnerSkipped,
    TacticSkipped,
    TacticTiming,
    TimingRunner,
)
from trtlog.parse.items import Item, LineBlock

if TYPE_CHECKING:
    import pandas as pd

TACTIC_COLUMNS = [*TIMING_COLUMNS, *KERNEL_COLUMNS]
_LARGEST_ID = (1 << 63) - 1
_NOTES_TIME = (TacticTiming, TacticSkipped, FastestTactic, RunnerSkipped, ChoseRunner)


class TacticCollector:
    """Reads the autotuning events (and blocks of tactic timings) of a log, one at a time."""

    def __init__(self) -> None:
        # The format combination being tuned (numbered from 0; -1: tuning before the first
        # one): once the next one opens it adds its rows of ``choices`` (those of each runner
        # it chose, none for most: a large build tunes hundreds of thousands of reformats) and
        # is let go.
        self._tuned: Combination | None = None
        self._choices = ChoiceRows()
        # The tactic TensorRT reported fastest, per timing runner block (the last report wins).
        self._fastest_block = array("q")
        self._fastest_tactic = array("Q")
        self._combination = self._block = -1
        # The layer the last timing runner of the current combination named, and whether a
        # runner was chosen in it.
        self._runner_layer: str | None = None
        self._chosen = False
        # "Computing costs for X" opens a new combination even where no "Autotuning format
        # combination" line follows (7.x); one that is followed by it does not open two.
        self._costs_pending = False
        # Timings come in segments (a block, or a single timing) that share their
        # context: one value per segment here, repeated when the frame is built.
        self._count = array("q")
        self._first_line = array("q")
        self._run = array("q")
        self._build = array("q")
        self._strategy = array("q")
        self._combination_column = array("q")
        self._block_column = array("q")
        self._runner_id = array("q")
        self._layer = TextColumn()
        self._formats = TextColumn()
        self._runner = TextColumn()
        # One value per timing.
        self._tactic = array("Q")
        self._time = array("d")
        self._kernel = TextColumn()
        # The timing runner blocks and tactics of "Fast skip Tactic" lines (8.6).
        self._fast_skipped: set[tuple[int, int]] = set()

    def feed(self, item: Item) -> None:
        if type(item) is LineBlock:
            if item.kind is TacticTiming:
                self._open_pending()
                self._current().note_time(item.timestamp)
                self._add_block(item)
            return
        # The events of every format combination and runner (about a million per GB of a 10.x
        # log, twice as many in 8.6), told by their class before the general tests below.
        if type(item) is FormatCombination:
            self._open_combination()
            return
        if type(item) is TimingRunner:
            self._open_pending()
            layer = item.layer
            if layer is not None and (
                self._combination < 0 or self._chosen or self._runner_layer not in (None, layer)
            ):
                # 5.x prints no header between layers: the first runner, a runner after a
                # choice and a runner of another layer open a combination.
                self._open_combination()
            self._runner_layer = layer
            self._block += 1
            return
        if type(item) is FastestTactic:
            self._open_pending()
            current = self._current()
            current.note_time(item.timestamp)
            self._add_fastest(item, current)
            return
        if isinstance(item, ComputingCosts):
            self._costs_pending = True
            return
        if not isinstance(item, AutotuningEvent):
            return
        if isinstance(item, FormatCombination) or self._costs_pending:
            self._open_combination()
        if isinstance(item, (FormatCombination, TimingRunner)):
            self._block += isinstance(item, TimingRunner)
            return
        current = self._current()
        if isinstance(item, _NOTES_TIME):
            current.note_time(item.timestamp)
        if isinstance(item, TacticTiming):
            self._add_timing(item)
        elif isinstance(item, FastestTactic):
            self._add_fastest(item, current)
        elif isinstance(item, TacticSkipped):
            if item.reason == "time limit":
                # Timed all the same (its pre-run's time): not counted as skipped.
                self._fast_skipped.add((self._block, int(item.tactic)))
            else:
                current.skipped_tactics += 1
        elif isinstance(item, RunnerSkipped):
            current.skipped_runners += (f"{item.skipped_runner} ({item.reason})",)
        elif isinstance(item, ChoseRunner):
            current.chosen += (item,)
            self._chosen = True

    def _add_fastest(self, item: FastestTactic, current: Combination) -> None:
        self._note_fastest(int(item.tactic))
        self._note_runner_fastest(current, item.runner, item.time_ms, item.profiling_seconds)

    @staticmethod
    def _note_runner_fastest(
        current: Combination, runner: str | None, time: float | None, seconds: float | None
    ) -> None:
        if runner is not None and time is not None:
            if current.fastest_ms is None:
                current.fastest_ms = {}
            current.fastest_ms[runner] = time
        if seconds is not None:
            current.profiling_seconds += seconds
            current.profiled = True

    def feed_all(self, items: Iterable[Item]) -> TacticCollector:
        for item in items:
            self.feed(item)
        return self

    def _open_pending(self) -> None:
        if self._costs_pending:
            self._open_combination()

    def _open_combination(self) -> None:
        if self._tuned is not None:
            self._choices.add(self._combination, self._tuned)
        self._runner_layer = None
        self._chosen = False
        self._combination += 1
        self._tuned = Combination()
        self._costs_pending = False

    def _note_fastest(self, tactic: int) -> None:
        blocks = self._fastest_block
        if blocks and blocks[-1] == self._block:
            self._fastest_tactic[-1] = tactic
            return
        blocks.append(self._block)
        self._fastest_tactic.append(tactic)

    def _current(self) -> Combination:
        current = self._tuned
        if current is None:
            current = self._tuned = Combination()
        return current

    def choice_columns(self) -> dict[str, Sequence[Any]]:
        """The values of the ``choices`` table that come from the events, one row per
        ``Chose Runner Type`` line so far (``ChoiceRows.columns``)."""
        return self._choices.columns(self._combination, self._tuned)

    def _add_segment(self, count: int, first_line: int, context: tuple[Any, ...]) -> None:
        run, build, strategy, layer, formats, runner, runner_id = context
        self._count.append(count)
        self._first_line.append(first_line)
        self._run.append(MISSING if run is None else run)
        self._build.append(MISSING if build is None else build)
        self._strategy.append(MISSING if strategy is None else strategy)
        self._combination_column.append(self._combination)
        self._block_column.append(self._block)
        self._layer.append(layer)
        self._formats.append(formats)
        self._runner.append(runner)
        # A runner id beyond 64 bits (a corrupted log) has no value, as none.
        fits = runner_id is not None and 0 <= runner_id <= _LARGEST_ID
        self._runner_id.append(runner_id if fits else MISSING)

    def _add_timing(self, timing: TacticTiming) -> None:
        context = (timing.run, timing.build, timing.strategy, timing.layer, timing.formats,
                   timing.runner, timing.runner_id)  # fmt: skip
        self._add_segment(1, timing.line, context)
        self._tactic.append(timing.tactic)
        time = timing.time_ms
        self._time.append(math.nan if time is None else time)
        self._kernel.append(timing.kernel)

    def _add_block(self, block: LineBlock) -> None:
        count = block.timings
        context = (
            block.run,
            block.build,
            block.strategy,
            block.layer,
            block.formats,
            block.runner,
            block.runner_id,
        )
        self._add_segment(count, block.first_line, context)
        self._tactic.extend(block.tactics)
        # Times as printed; "not timed" (inf, FLT_MAX) becomes NaN when the frame is built.
        self._time.extend(block.times)
        if block.kernels is None:
            self._kernel.repeat(None, count)
        else:
            self._kernel.extend(block.kernels)

    def tables(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The ``tactics`` and ``choices`` tables."""
        from trtlog.analysis.choices import choices_frame

        tactics = self.tactics_table()
        return tactics, choices_frame(tactics, self.choice_columns())

    @property
    def timed(self) -> int:
        """The tactic timings read so far."""
        return len(self._tactic)

    def tactics_table(self) -> pd.DataFrame:
        """The ``tactics`` table alone, none of its rows ``in_engine``
        (``trtlog.analysis.stream.TableStream.tactics_table`` marks them)."""
        from trtlog.analysis.tactic_frames import TacticFrames

        return TacticFrames(self.timings()).whole()

    def timings(self) -> CollectedTimings:
        """What was read so far, as the tactics table is made of it."""
        return CollectedTimings(
            counts=self._count, first_lines=self._first_line, runs=self._run,
            builds=self._build, strategies=self._strategy,
            combinations=self._combination_column, blocks=self._block_column,
            runner_ids=self._runner_id, layers=self._layer, formats=self._formats,
            runners=self._runner, tactics=self._tactic, times=self._time, kernels=self._kernel,
            last_block=self._block, fastest_blocks=self._fastest_block,
            fastest_tactics=self._fastest_tactic, fast_skipped=frozenset(self._fast_skipped),
            choices=self.choice_columns(),
        )  # fmt: skip


__all__ = ["TACTIC_COLUMNS", "Combination", "TacticCollector"]
