"""Items: what the parse hands on, in log order: events, and blocks of lines as columns.

A large build logs millions of tactic timings and Myelin trace lines, one after another under
one envelope, and a plugin's own debug prints can fill a log with as many lines of another
program's. Making a frozen event object of each costs more than reading the line, and
keeping them all costs gigabytes, so the native core hands on such a run of lines as one
``LineBlock``: the values the lines hold, as columns (and the record parser so keeps a run of
lines under a record that no message form can start, ``trtlog.parse.foreign_runs``). The fold
links a block once, the table builders read its columns, and ``LineBlock.events()`` makes the
events it stands for only when events are asked for (``parse_file``, ``--format json``). Every
other record, the native core's claims included, is an event. ``tests/test_core.py`` holds the
events of every block of every corpus log to the grammar's events of the same lines.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from trtlog.events.autotuning import TacticTiming
from trtlog.events.base import Event, TacticId, timed_ms
from trtlog.events.makers import value_maker
from trtlog.events.notes import MyelinTrace
from trtlog.events.records import Foreign
from trtlog.parse.envelope import Envelope

# Each event's fields in their order (``dataclasses.fields``): the head, the place, its own.
_make_timing = value_maker(TacticTiming)
# The blocks of lines kept as text, by their class.
_TEXT_MAKERS = {MyelinTrace: value_maker(MyelinTrace), Foreign: value_maker(Foreign)}


@dataclass(slots=True, eq=False)
class LineBlock:
    """Consecutive one-line tactic timings with one envelope (the lines of a whole timing
    runner), Myelin trace lines, or lines of another program's under one record, carried as
    columns of the values they hold (the text of the last two kinds in ``trace``)."""

    kind: type[TacticTiming] | type[MyelinTrace] | type[Foreign]
    first_line: int
    envelope: Envelope
    # TacticTiming: the tactic ids (TensorRT's unsigned values, ``TacticId``) and the times as
    # printed, read as numbers (inf and FLT_MAX kept: "not timed" is decided when read), the
    # kernels and their parameters (None where the line names none). MyelinTrace: the lines'
    # messages (" (foreignNode) ...") joined by newlines, and how many there are (both arrays
    # empty): a line's text is cut from them only when its event is asked for, which the table
    # builders never do. Foreign: the lines as they were, joined by newlines, and their count.
    tactics: array[int]
    times: array[float]
    kernels: list[str | None] | None = None
    parameters: list[str | None] | None = None
    trace: str | None = None
    trace_lines: int = 0
    # The context the fold links (see ``Event`` and ``AutotuningEvent``).
    run: int | None = None
    build: int | None = None
    strategy: int | None = None
    layer: str | None = None
    formats: str | None = None
    runner: str | None = None
    runner_id: int | None = None

    def __len__(self) -> int:
        """The block's lines."""
        if self.trace is not None:
            return self.trace_lines
        return len(self.tactics)

    @property
    def timings(self) -> int:
        """The tactic timings among the block's lines."""
        return len(self.tactics)

    @property
    def timestamp(self) -> datetime | None:
        return self.envelope.timestamp

    @property
    def severity(self) -> str | None:
        return self.envelope.severity

    @property
    def last_line(self) -> int:
        return self.first_line + len(self) - 1

    def texts(self) -> list[str]:
        """The ``text`` of each line's event: of a Myelin trace line the message after the
        "(foreignNode)" or "(myelin)" that starts it, of a foreign line the line."""
        assert self.trace is not None
        lines = self.trace.split("\n")
        if self.kind is Foreign:
            return lines
        return [message[message.index(")") + 1 :].strip() for message in lines]

    def line_kernels(self) -> tuple[list[str | None], list[str | None]]:
        """A timing block's kernels and their parameters, one per line (None where a line names
        none)."""
        count = len(self.tactics)
        return self.kernels or [None] * count, self.parameters or [None] * count

    def _shared(self) -> tuple[Any, ...]:
        """The values the events of the block's lines share, in field order after the line
        numbers: the envelope's, the place and, of tactic timings, the tuning context."""
        envelope = self.envelope
        shared = (envelope.timestamp, envelope.severity, envelope.producer, self.run, self.build,
                  self.strategy)  # fmt: skip
        if self.trace is not None:
            return shared
        return (*shared, self.layer, self.formats, self.runner, self.runner_id)

    def head_event(self) -> Event:
        """The event of the block's first line with the values every line of the block shares
        (its own values, those that differ from line to line, left empty)."""
        line, shared = self.first_line, self._shared()
        if self.trace is not None:
            return _TEXT_MAKERS[self.kind](line, line, *shared, "")  # type: ignore[no-any-return]
        return _make_timing(line, line, *shared, TacticId(0), None, None, None)  # type: ignore[no-any-return]

    def events(self) -> Iterator[Event]:
        """The events of the block's lines, in order."""
        shared = self._shared()
        if self.trace is not None:
            make = _TEXT_MAKERS[self.kind]
            for number, text in enumerate(self.texts(), start=self.first_line):
                yield make(number, number, *shared, text)
            return
        kernels, parameters = self.line_kernels()
        for number, (tactic, time, kernel, parameter) in enumerate(
            zip(self.tactics, self.times, kernels, parameters, strict=True), start=self.first_line
        ):
            yield _make_timing(number, number, *shared, TacticId(tactic), timed_ms(time), kernel,
                               parameter)  # fmt: skip


Item = Event | LineBlock


def events_of(items: Iterable[Item]) -> Iterator[Event]:
    """The events ``items`` stand for, each block's made one by one."""
    for item in items:
        if isinstance(item, LineBlock):
            yield from item.events()
        else:
            yield item


__all__ = ["Item", "LineBlock", "events_of"]
