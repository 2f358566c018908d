"""Runs of lines under a record that no message form can start, kept as one block.

A plugin's own debug prints ("    0x40dd5800[enqueue]", one per inference) can follow a single
trtexec line a hundred thousand times. Each line under a record that its message does not take
is parsed on its own (``RecordParser._parse_bare``) and, matching nothing, kept as ``Foreign``.
Where the grammar's lexer cannot even start a line (``LexerStarts.can_start``), no message form
takes it, and no claim of the core either (it claims only what the grammar reads the same way):
consecutive such lines are kept as one ``LineBlock`` of ``Foreign`` lines, which stands for the
same events and goes through the fold and the table builders once.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from trtlog.events.records import Foreign
from trtlog.parse.envelope import Envelope
from trtlog.parse.items import LineBlock
from trtlog.parse.lexer_starts import LexerStarts

# A line under a record: its number and its text.
Bare = tuple[int, str]


def unstartable_line(
    starts: LexerStarts | None, read: dict[int, Any] | None, split_lines: set[int]
) -> Callable[[int, str], bool]:
    """Whether no message form can start a bare line (``starts``: None where every line is to
    be tried with the grammar) and the core did not read it (``read``, by line number); a line
    split into segments is left to be counted segment by segment."""
    if starts is None:
        return lambda number, text: False
    can_start = partial(starts.can_start, "message")
    # A line is also tried without the blanks it ends in (``records.printed_then_trimmed``); a
    # terminal that ends where the line does matches it only without them.
    return lambda number, text: (
        (read is None or number not in read)
        and number not in split_lines
        and bool(text.strip())
        and not can_start(text)
        and ((trimmed := text.rstrip()) == text or not can_start(trimmed))
    )


def foreign_runs(
    lines: Iterable[Bare], unstartable: Callable[[int, str], bool]
) -> Iterator[Bare | list[Bare]]:
    """``lines`` in order: each alone, but consecutively numbered lines of which
    ``unstartable`` holds, two or more, as one list."""
    run: list[Bare] = []
    for number, text in lines:
        if unstartable(number, text):
            if run and number != run[-1][0] + 1:
                yield from _ended(run)
                run = []
            run.append((number, text))
            continue
        if run:
            yield from _ended(run)
            run = []
        yield number, text
    yield from _ended(run)


def _ended(run: list[Bare]) -> Iterator[Bare | list[Bare]]:
    if len(run) == 1:
        yield run[0]
    elif run:
        yield run


def foreign_block(envelope: Envelope, run: list[Bare]) -> LineBlock:
    """The block of a run of foreign lines (``foreign_runs``) under a record, in the envelope
    they inherit from it."""
    return LineBlock(
        Foreign,
        run[0][0],
        envelope,
        array("Q"),
        array("d"),
        trace="\n".join(text for _, text in run),
        trace_lines=len(run),
    )


__all__ = ["Bare", "foreign_block", "foreign_runs", "unstartable_line"]
