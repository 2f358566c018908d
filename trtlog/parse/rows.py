"""Rows: the events that fill most of a verbose log, carried as plain tuples.

A large build logs millions of tactic timings, Myelin tactic-table lines and (7.x-8.5) kernel names,
and around them the format combinations, timing runners and fastest tactics (850,000 per GB of a
10.x log). Building a frozen event object for each costs more than parsing the line, and keeping
them all costs gigabytes. So the native core's claims come as rows: a tuple whose first item is the
event class and whose other items are that event's field values in the order of
``dataclasses.fields`` (``line``, ``end_line``, ``timestamp``, ``severity``, ``producer``, ``run``,
``build``, ``strategy``, then the class's own). A tactic id in a row may be a plain ``int`` (a
fastest tactic's is, as the core read it); ``materialize`` makes it a ``TacticId``. The grammar
makes events of the same forms where the core declines a line, so a reader of items meets each of
these kinds both as a row and as an event. The fold links rows as it links events, the table
builders read rows directly, and ``materialize`` turns a row into the event it stands for when
events are asked for (``parse_file``, ``--format json``). A row and its event are the same thing:
``tests/test_claims.py`` checks ``materialize(row)`` against the grammar's event.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from typing import Any

from trtlog.events.autotuning import (
    FastestTactic,
    FormatCombination,
    SetTacticName,
    TacticTiming,
    TimingRunner,
)
from trtlog.events.base import Event, TacticId, timed_ms
from trtlog.events.makers import value_maker
from trtlog.events.notes import MyelinTrace
from trtlog.parse.envelope import Envelope

ROW_CLASSES: tuple[type[Event], ...] = (
    TacticTiming,
    SetTacticName,
    MyelinTrace,
    FormatCombination,
    TimingRunner,
    FastestTactic,
)
# The kinds the fold links by the context they open or carry, not as tactic timings.
TUNING_ROW_CLASSES = frozenset({FormatCombination, TimingRunner, FastestTactic})
# A row is (event class, *field values).
Row = tuple[Any, ...]


@dataclass(slots=True, eq=False)
class RowBlock:
    """Consecutive one-line tactic timings (or Myelin trace lines) with one envelope: the rows
    of a whole timing runner, carried as columns of the text the lines hold.

    The native core reads them (``trtlog.parse.scanner``) and the fold gives them their context
    once; ``rows()`` gives back, line by line, the rows they stand for (held to the grammar's
    events on every corpus log by ``tests/test_core.py``).
    """

    kind: type[Event]
    first_line: int
    envelope: Envelope
    # TacticTiming: the tactic ids (TensorRT's unsigned values, ``TacticId``) and the times as
    # printed, read as numbers (inf and FLT_MAX kept: "not timed" is decided when read), the
    # kernels and their parameters (None where the line names none). Numbers in arrays are
    # one buffer each to copy between processes and into the tactics table. MyelinTrace: the
    # lines' messages (" (foreignNode) ...") joined by newlines, and how many there are (both
    # arrays empty): a line's text is cut from them only when its row is asked for, which the
    # table builders never do.
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
    def timestamp(self) -> Any:
        return self.envelope.timestamp

    @property
    def severity(self) -> str | None:
        return self.envelope.severity

    @property
    def last_line(self) -> int:
        return self.first_line + len(self) - 1

    def rows(self) -> Iterator[Row]:
        head = (self.envelope.timestamp, self.envelope.severity, self.envelope.producer)
        place = (self.run, self.build, self.strategy)
        line = self.first_line
        if self.trace is not None:
            for number, message in enumerate(self.trace.split("\n"), start=line):
                # The text after the "(foreignNode)" or "(myelin)" that starts the message.
                text = message[message.index(")") + 1 :]
                yield (MyelinTrace, number, number, *head, *place, text.strip())
            return
        context = (*place, self.layer, self.formats, self.runner, self.runner_id)
        kernels = self.kernels or [None] * len(self.tactics)
        parameters = self.parameters or [None] * len(self.tactics)
        for number, (tactic, time, kernel, parameter) in enumerate(
            zip(self.tactics, self.times, kernels, parameters, strict=True), start=line
        ):
            yield (
                TacticTiming,
                number,
                number,
                *head,
                *context,
                TacticId(tactic),
                timed_ms(time),
                kernel,
                parameter,
            )


Item = Event | Row | RowBlock


def expanded(items: Iterable[Item]) -> Iterator[Event | Row]:
    """``items`` with each block replaced by its rows."""
    for item in items:
        if type(item) is RowBlock:
            yield from item.rows()
        else:
            yield item  # type: ignore[misc]


def events_of(items: Iterable[Item]) -> Iterator[Event]:
    """The events ``items`` stand for, blocks and rows made events."""
    for item in expanded(items):
        yield materialize(item) if type(item) is tuple else item  # type: ignore[misc]


FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {
    cls: tuple(field.name for field in fields(cls)) for cls in ROW_CLASSES
}


def _index(cls: type[Event], name: str) -> int:
    return 1 + FIELD_NAMES[cls].index(name)


# Positions in a row (the class is at 0). The fields every event has come first: the envelope's,
# then the run, build and strategy the fold sets.
LINE, END_LINE, TIMESTAMP, SEVERITY, PRODUCER, RUN, BUILD, STRATEGY = 1, 2, 3, 4, 5, 6, 7, 8
PLACE = slice(RUN, STRATEGY + 1)
# The place before the fold sets it.
NO_PLACE = (None, None, None)
# Autotuning rows: the place and the tuning context the fold links, then the event's own fields.
LAYER = _index(TacticTiming, "layer")
RUNNER_ID = _index(TacticTiming, "runner_id")
CONTEXT = slice(RUN, RUNNER_ID + 1)
TACTIC = _index(TacticTiming, "tactic")
TIME_MS = _index(TacticTiming, "time_ms")
KERNEL = _index(TacticTiming, "kernel")
KERNEL_PARAMETERS = _index(TacticTiming, "kernel_parameters")
NAME_KERNEL = _index(SetTacticName, "kernel")
NAME_TACTIC = _index(SetTacticName, "tactic")
NAME_PARAMETERS = _index(SetTacticName, "kernel_parameters")
INPUTS = _index(FormatCombination, "inputs")
OUTPUTS = _index(FormatCombination, "outputs")
FASTEST_TACTIC = _index(FastestTactic, "tactic")
FASTEST_MS = _index(FastestTactic, "time_ms")
PROFILING_SECONDS = _index(FastestTactic, "profiling_seconds")
RUNNER = _index(FastestTactic, "runner")
assert all(
    _index(cls, "run") == RUN
    and _index(cls, "strategy") == STRATEGY
    and (cls is MyelinTrace or _index(cls, "layer") == LAYER == STRATEGY + 1)
    and (cls is MyelinTrace or _index(cls, "runner_id") == RUNNER_ID)
    for cls in ROW_CLASSES
)

_MAKERS = {cls: value_maker(cls) for cls in ROW_CLASSES}
# Where a row may hold a tactic id (TensorRT's unsigned 64-bit value) as a plain int.
TACTIC_POSITIONS = {
    cls: tuple(
        1 + position for position, field in enumerate(fields(cls)) if "TacticId" in str(field.type)
    )
    for cls in ROW_CLASSES
}


def materialize(row: Row) -> Event:
    """The event a row stands for."""
    kind = row[0]
    for position in TACTIC_POSITIONS[kind]:
        # Copied only where an id is held as a plain int (a tactic timing's is a ``TacticId``
        # already, and ``parse_file`` makes millions of them).
        if type(row[position]) is int:
            row = (*row[:position], TacticId(row[position]), *row[position + 1 :])
    event: Event = _MAKERS[kind](*row[1:])
    return event


def is_row(item: Item) -> bool:
    return type(item) is tuple


def kind_of(item: Item) -> type[Event]:
    """The event class of an event, a row or a block."""
    if isinstance(item, RowBlock):
        return item.kind
    return item[0] if type(item) is tuple else type(item)  # type: ignore[return-value]


__all__ = [
    "BUILD",
    "CONTEXT",
    "FASTEST_MS",
    "FASTEST_TACTIC",
    "FIELD_NAMES",
    "INPUTS",
    "KERNEL",
    "LAYER",
    "LINE",
    "NO_PLACE",
    "OUTPUTS",
    "PLACE",
    "PROFILING_SECONDS",
    "ROW_CLASSES",
    "RUN",
    "RUNNER",
    "RUNNER_ID",
    "STRATEGY",
    "TACTIC",
    "TIMESTAMP",
    "TIME_MS",
    "TUNING_ROW_CLASSES",
    "Item",
    "Row",
    "RowBlock",
    "events_of",
    "expanded",
    "is_row",
    "kind_of",
    "materialize",
]
