"""Fit a table to a terminal's width: keep the columns that matter most, shorten long names in
the middle, and never squeeze a column below what it needs to be read.

A column of numbers, ids or flags keeps its full width; a text column (layer names, formats,
kernels) may be shortened, each cell keeping its start and its end ("/model/layers.17/…/MatMul"
tells more than "/model/layers.17/ml"). Where even the shortened columns do not fit, the least
important columns are left out, and the table says which (``--wide``, JSON and CSV show them).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len

# The most important text column is shortened to no less than this; the others to this.
PRIMARY_MIN_WIDTH = 36
TEXT_MIN_WIDTH = 16
# Prose (a message, a reason) wraps at its words instead, in no fewer than this many cells.
PROSE_MIN_WIDTH = 24


class Kind(enum.Enum):
    """How a column gives way to a narrow screen."""

    WHOLE = "whole"  # numbers, ids, flags: never narrower than their widest cell
    SHORTEN = "shorten"  # names: each cell keeps its start and end
    WRAP = "wrap"  # prose: each cell wraps at its words


ELLIPSIS = "…"


def shorten_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: its start and end around an ellipsis."""
    if cell_len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    head: list[str] = []
    used = 0
    for character in text:
        if used + cell_len(character) > width // 2:
            break
        head.append(character)
        used += cell_len(character)
    # The end gets the cells the start left (a wide character may not fill its half).
    tail: list[str] = []
    room = width - 1 - used
    for character in reversed(text):
        if cell_len(character) > room:
            break
        tail.append(character)
        room -= cell_len(character)
    return "".join(head) + ELLIPSIS + "".join(reversed(tail))


def _text_width(text: str) -> int:
    return max((cell_len(line) for line in text.split("\n")), default=0)


def _header_width(header: str, wrapped: bool) -> int:
    words = header.split(" ") if wrapped else [header]
    return max(cell_len(word) for word in words)


@dataclass(frozen=True)
class Fitted:
    """The columns kept (positions, in the table's order), their widths, and the rows' cells
    for those columns, shortened where their column is narrower than its longest cell."""

    kept: list[int]
    widths: list[int]
    cells: list[list[str]]
    hidden: list[int]
    wraps: bool = False  # whether a prose column is narrower than its longest cell


def table_width(widths: Sequence[int]) -> int:
    """A rich table's width for columns of ``widths``: a space each side and the rules."""
    return sum(widths) + 3 * len(widths) + 1


def fit_columns(
    headers: Sequence[str],
    cells: Sequence[Sequence[str]],
    kinds: Sequence[Kind],
    priority: Sequence[int],
    width: int,
) -> Fitted:
    """Choose and size the columns of a table for ``width`` cells; ``priority`` holds every
    column position, the most important first; ``kinds`` says how each may give way."""
    count = len(headers)
    longest = [
        max((_text_width(row[column]) for row in cells), default=0) for column in range(count)
    ]
    whole = [max(longest[column], _header_width(headers[column], False)) for column in range(count)]
    if table_width(whole) <= width:
        return Fitted(list(range(count)), whole, [list(row) for row in cells], [])
    # Headers wrap at their spaces ("runner up (ms)" over three lines) before any cell shrinks.
    natural = [
        max(longest[column], _header_width(headers[column], True)) for column in range(count)
    ]
    least = list(natural)
    primary = next((column for column in priority if kinds[column] is Kind.SHORTEN), None)
    for column in range(count):
        if kinds[column] is not Kind.WHOLE:
            floor = (
                PROSE_MIN_WIDTH
                if kinds[column] is Kind.WRAP
                else PRIMARY_MIN_WIDTH
                if column == primary
                else TEXT_MIN_WIDTH
            )
            least[column] = max(min(natural[column], floor), _header_width(headers[column], True))
    # The columns by importance, each where it still fits at its least width (a narrow column
    # of less importance may fill what a wide one leaves), the most important one always.
    kept: list[int] = []
    for column in priority:
        if not kept or table_width([least[other] for other in (*kept, column)]) <= width:
            kept.append(column)
    sizes = {column: least[column] for column in kept}
    spare = width - table_width(list(sizes.values()))
    for column in kept:
        grow = max(0, min(spare, natural[column] - sizes[column]))
        sizes[column] += grow
        spare -= grow
    order = sorted(kept)
    shortened = [
        [
            _shorten_lines(row[column], sizes[column])
            if sizes[column] < longest[column] and kinds[column] is Kind.SHORTEN
            else row[column]
            for column in order
        ]
        for row in cells
    ]
    hidden = [column for column in range(count) if column not in sizes]
    wraps = any(kinds[column] is Kind.WRAP and sizes[column] < longest[column] for column in order)
    return Fitted(order, [sizes[column] for column in order], shortened, hidden, wraps)


def _shorten_lines(text: str, width: int) -> str:
    return "\n".join(shorten_middle(line, width) for line in text.split("\n"))


__all__ = ["Fitted", "Kind", "fit_columns", "shorten_middle", "table_width"]
