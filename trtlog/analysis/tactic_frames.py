"""The ``tactics`` table a range of rows at a time (its columns: ``trtlog.analysis.tactics``).

A verbose 1 GB log times millions of tactics, and its tactics table, whole, takes well over a
hundred bytes a row. The store writes it a row group at a time (``TacticFrames.frames``), and
the ``choices`` table is built part by part from the few columns it reads
(``TacticFrames.choice_inputs``), so that the whole table is never in memory at once;
``TacticFrames.whole`` is the table in one frame, as ``trtlog.load`` gives it.

What needs more than the rows asked for is worked out first, part by part (each part holds
whole format combinations and runner blocks), into compact arrays: each timing's rank within
its runner block and the fastest, chosen, skipped and in-engine marks. Every other column is
made for the rows asked for, from the collector's values per segment (the timings of a block,
or a single timing, that share their context) and per timing (``CollectedTimings``).
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from trtlog.analysis.columns import TextColumn, numbers, ranks_within, tactic_texts
from trtlog.analysis.tactic_marks import chosen_marks, fastest_marks, timed

if TYPE_CHECKING:
    import pandas as pd

    from trtlog.analysis.engine_tactics import EngineTactics

# A missing run, build, strategy or runner id in the collector's arrays.
MISSING = -1
# The rows whose marks are worked out at once (``TacticFrames.parts``).
PART_ROWS = 1 << 17
# The columns of the table but the kernel's anatomy (``trtlog.analysis.kernel_names``).
TIMING_COLUMNS = [
    "run",
    "build",
    "strategy",
    "combination",
    "layer",
    "formats",
    "runner",
    "runner_id",
    "block",
    "tactic",
    "kernel",
    "time_ms",
    "skip_reason",
    "rank",
    "fastest",
    "chosen",
    "in_engine",
    "line",
]


@dataclass(frozen=True)
class CollectedTimings:
    """What ``TacticCollector`` read: per segment (timings that share their context), per
    timing, per runner block, and the choices made (``TacticCollector.choice_columns``)."""

    counts: array[int]
    first_lines: array[int]
    runs: array[int]
    builds: array[int]
    strategies: array[int]
    combinations: array[int]
    blocks: array[int]
    runner_ids: array[int]
    layers: TextColumn
    formats: TextColumn
    runners: TextColumn
    tactics: array[int]
    times: array[float]
    kernels: TextColumn
    last_block: int
    fastest_blocks: array[int]
    fastest_tactics: array[int]
    # (block, tactic) of the tactics 8.6 stopped timing at its time limit.
    fast_skipped: frozenset[tuple[int, int]]
    choices: dict[str, Sequence[Any]]


class TacticFrames:
    """The tactics table of ``timings``, a range of rows at a time; ``engine``: the tactic each
    engine layer runs (``in_engine``), None where the log lists none."""

    def __init__(self, timings: CollectedTimings, engine: EngineTactics | None = None) -> None:
        self._timings = timings
        counts = numbers(timings.counts, "int64")
        self._counts = counts
        self._starts = np.cumsum(counts) - counts
        self._tactics = numbers(timings.tactics, "uint64")
        self.rows = len(self._tactics)
        self._text = {
            name: getattr(timings, name).sorted_codes() for name in ("layers", "formats", "runners")
        }
        self._kernels = timings.kernels.kept_codes()
        distinct = _distinct(self._tactics)
        self._distinct_tactics = distinct
        self._tactic_names = tactic_texts(distinct).categories.tolist()
        self._marks(engine)

    def _marks(self, engine: EngineTactics | None) -> None:
        """The columns that need more than the rows asked for, one compact array each, worked
        out part by part (``parts``): the arrays it takes are several times the size of the
        marks."""
        timings = self._timings
        self._rank = np.empty(self.rows, dtype="int32")
        self._fastest = np.empty(self.rows, dtype=bool)
        self._skipped = np.zeros(self.rows, dtype=bool)
        self._chosen = np.empty(self.rows, dtype=bool)
        for start, stop, choices in self.parts():
            segments, counts = self._segments(start, stop)
            block = np.repeat(numbers(timings.blocks, "int64")[segments], counts)
            tactic = self._tactics[start:stop]
            rank = ranks_within(timed(numbers(timings.times, "float64")[start:stop]), block)
            self._fastest[start:stop] = fastest_marks(
                block, tactic, rank, timings.last_block, timings.fastest_blocks,
                timings.fastest_tactics,
            )  # fmt: skip
            # Ranks count the timings of one runner block: far below 2**31.
            self._rank[start:stop] = rank.to_numpy(dtype="int64", na_value=0)
            if timings.fast_skipped:
                skipped = timings.fast_skipped
                for position in np.flatnonzero(np.isin(block, [number for number, _ in skipped])):
                    if (int(block[position]), int(tactic[position])) in skipped:
                        self._skipped[start + position] = True
            combination = np.repeat(numbers(timings.combinations, "int64")[segments], counts)
            runner = self._categorical("runners", segments, counts)
            self._chosen[start:stop] = chosen_marks(combination, runner, tactic, choices)
        self._in_engine = np.zeros(self.rows, dtype=bool)
        if engine:
            from trtlog.analysis.engine_tactics import in_engine

            positions = np.flatnonzero(self._chosen)
            self._in_engine[positions] = in_engine(self._frame_at(positions), engine)

    def parts(self) -> Iterator[tuple[int, int, dict[str, Sequence[Any]]]]:
        """The rows in parts of about ``PART_ROWS`` that hold whole format combinations and
        whole runner blocks (what a rank, a mark or a choice is worked out within), with the
        choices made in each part's combinations: ``(start, stop, choices)``. The choices of
        combinations that timed nothing go with the part around them."""
        if not self.rows:
            yield 0, 0, self._timings.choices
            return
        combinations = numbers(self._timings.combinations, "int64")
        blocks = numbers(self._timings.blocks, "int64")
        opens = np.flatnonzero(
            (np.diff(combinations) != 0) & (np.diff(blocks) != 0)
        ) + 1  # fmt: skip
        cuts = self._starts[opens]
        # The first cut at or after every PART_ROWS rows.
        nearest = np.searchsorted(cuts, np.arange(PART_ROWS, self.rows, PART_ROWS))
        taken = np.unique(nearest[nearest < len(cuts)])
        bounds = [0, *(int(cut) for cut in cuts[taken] if 0 < cut < self.rows), self.rows]
        bounds = sorted(set(bounds))
        # Choices come in the order of their combinations (``ChoiceRows``): each part's are a
        # slice, from its first combination's (the very first part: any before) to the next
        # part's first combination's (the last part: any after).
        choice_combinations = np.asarray(self._timings.choices["combination"], dtype="int64")
        firsts = [
            int(combinations[self._segments(start, self.rows)[0][0]]) for start in bounds[1:-1]
        ]
        choice_bounds = [
            0,
            *np.searchsorted(choice_combinations, firsts).tolist(),
            len(choice_combinations),
        ]
        for (start, stop), (low, high) in zip(
            itertools.pairwise(bounds), itertools.pairwise(choice_bounds), strict=True
        ):
            choices = {name: values[low:high] for name, values in self._timings.choices.items()}
            yield start, stop, choices

    def whole(self) -> pd.DataFrame:
        return self.frame(0, self.rows)

    def frames(self, rows: int) -> Iterator[pd.DataFrame]:
        """The table in frames of ``rows`` rows (the last may have fewer; none for no rows)."""
        for start in range(0, self.rows, rows):
            yield self.frame(start, min(start + rows, self.rows))

    def frame(self, start: int, stop: int) -> pd.DataFrame:
        """Rows ``start``..``stop`` of the table, indexed from 0."""
        import pandas as pd

        from trtlog.analysis.kernel_names import kernel_columns

        segments, counts = self._segments(start, stop)
        timings = self._timings

        def repeated(values: array[int]) -> np.ndarray:
            return np.repeat(numbers(values, "int64")[segments], counts)

        def nullable(values: array[int]) -> pd.arrays.IntegerArray:
            values_of = repeated(values)
            return pd.arrays.IntegerArray(values_of, values_of == MISSING)

        offsets = numbers(timings.first_lines, "int64")[segments] - self._starts[segments]
        tactic = self._tactics[start:stop]
        kernel = self._kernel_categorical(start, stop)
        columns = {
            "run": nullable(timings.runs),
            "build": nullable(timings.builds),
            "strategy": nullable(timings.strategies),
            "combination": repeated(timings.combinations),
            "layer": self._categorical("layers", segments, counts),
            "formats": self._categorical("formats", segments, counts),
            "runner": self._categorical("runners", segments, counts),
            "runner_id": nullable(timings.runner_ids),
            "block": repeated(timings.blocks),
            "tactic": self._tactic_categorical(tactic),
            "kernel": kernel,
            "time_ms": timed(numbers(timings.times, "float64")[start:stop]),
            "skip_reason": pd.Categorical.from_codes(
                np.where(self._skipped[start:stop], 0, -1).astype("int8"),
                categories=["time limit"],
            ),
            "rank": pd.arrays.IntegerArray(
                self._rank[start:stop].astype("int64"), np.zeros(stop - start, dtype=bool)
            ),
            "fastest": self._fastest[start:stop],
            "chosen": self._chosen[start:stop],
            "in_engine": self._in_engine[start:stop],
            "line": np.repeat(offsets, counts) + np.arange(start, stop, dtype="int64"),
        }
        table = pd.DataFrame({name: columns[name] for name in TIMING_COLUMNS}, copy=False)
        return pd.concat([table, kernel_columns(pd.Series(kernel))], axis=1)

    def choice_inputs(self, start: int, stop: int) -> pd.DataFrame:
        """The columns of rows ``start``..``stop`` that the ``choices`` table is built from
        (``trtlog.analysis.choices.choices_frame``): a part's (``parts``) make its choices."""
        import pandas as pd

        segments, counts = self._segments(start, stop)
        combinations = numbers(self._timings.combinations, "int64")[segments]
        return pd.DataFrame(
            {
                "combination": np.repeat(combinations, counts),
                "runner": self._categorical("runners", segments, counts),
                "tactic": self._tactic_categorical(self._tactics[start:stop]),
                "chosen": self._chosen[start:stop],
                "kernel": self._kernel_categorical(start, stop),
                "time_ms": timed(numbers(self._timings.times, "float64")[start:stop]),
            },
            copy=False,
        )

    def _segments(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """The segments that rows ``start``..``stop`` belong to, and how many of their rows
        each holds."""
        first = int(np.searchsorted(self._starts, start, side="right")) - 1
        last = int(np.searchsorted(self._starts, stop, side="left"))
        segments = np.arange(max(first, 0), last)
        begins = np.maximum(self._starts[segments], start)
        ends = np.minimum(self._starts[segments] + self._counts[segments], stop)
        return segments, ends - begins

    def _categorical(self, name: str, segments: np.ndarray, counts: np.ndarray) -> pd.Categorical:
        """A text column kept per segment, for the rows of ``segments`` (``counts`` each)."""
        import pandas as pd

        codes, categories = self._text[name]
        rows = np.repeat(codes[segments], counts)
        return pd.Categorical.from_codes(rows, categories=categories, validate=False)

    def _kernel_categorical(self, start: int, stop: int) -> pd.Categorical:
        import pandas as pd

        kept, remap, categories = self._kernels
        codes = remap[kept[start:stop]]
        return pd.Categorical.from_codes(codes, categories=categories, validate=False)

    def _tactic_categorical(self, tactics: np.ndarray) -> pd.Categorical:
        """Tactic ids as "0x%016x" text, categories in the order of the ids (which is theirs as
        text too), the same for every range of rows."""
        import pandas as pd

        codes = np.searchsorted(self._distinct_tactics, tactics)
        return pd.Categorical.from_codes(codes, categories=self._tactic_names, validate=False)

    def _frame_at(self, positions: np.ndarray) -> pd.DataFrame:
        """The columns ``in_engine`` reads, for the rows at ``positions``."""
        import pandas as pd

        segments = np.searchsorted(self._starts, positions, side="right") - 1
        ones = np.ones(len(positions), dtype="int64")

        def nullable(values: array[int]) -> pd.arrays.IntegerArray:
            values_of = numbers(values, "int64")[segments]
            return pd.arrays.IntegerArray(values_of, values_of == MISSING)

        return pd.DataFrame(
            {
                "build": nullable(self._timings.builds),
                "strategy": nullable(self._timings.strategies),
                "layer": self._categorical("layers", segments, ones),
                "formats": self._categorical("formats", segments, ones),
                "tactic": self._tactic_categorical(self._tactics[positions]),
            }
        )


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct ``values``, sorted. A few thousand tactic ids among millions: found by
    hashing, ``PART_ROWS`` at a time (a hash table of them all at once takes several times the
    memory of the ids themselves), then sorted."""
    import pandas as pd

    found = [
        pd.unique(values[start : start + PART_ROWS]) for start in range(0, len(values), PART_ROWS)
    ]
    return np.unique(np.concatenate([values[:0], *found]))


__all__ = ["MISSING", "TIMING_COLUMNS", "CollectedTimings", "TacticFrames"]
