"""Draw the rows of a table that fits unfolded, as rich would, without rich laying out each one.

Rich lays out every line of every cell on its own (measuring, wrapping, justifying, cropping),
even where the rows are handed to it as one row of multi-line cells, which made that layout most
of a one-layer query's time on a large log. In a table that fits
unfolded, a row whose cells are plain text (printable ASCII, and the check mark of a flag) is
those cells padded to the column widths between the box's rules. So rich lays out the title, the
header and one row made of each column's widest cell (which gives the columns the widths all the
rows would), and the other rows are drawn as that row is. The drawn row is checked against the
one rich laid out first: where they differ (a style on the rows, a box of another shape), rich
lays out every row after all.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

# One cell each, drawn as they are: printable ASCII, "✓" (``cell_text`` of a true flag) and
# "…" (where a name was shortened to fit).
_PLAIN = frozenset(map(chr, range(0x20, 0x7F))) | {"✓", "…"}


def _plain(column: Sequence[str]) -> bool:
    return all(map(_PLAIN.issuperset, column))


def drawn_table(
    console: Console, table: Table, rows: Sequence[Sequence[str]], right: Sequence[bool]
) -> str | None:
    """What ``console`` prints for ``table`` (columns set, no rows yet) with ``rows`` added, the
    rows after the first drawn here; ``right``: which columns are justified right. None where
    the rows are not all plain text, or where the drawn row differs from rich's; ``table`` then
    holds a row and is not to be printed."""
    if not rows or console.legacy_windows:
        return None
    columns = list(zip(*rows, strict=True))
    if not all(map(_plain, columns)):
        return None
    widest = [max(column, key=len) for column in columns]
    # A column of a set width (a table fitted to a screen) wraps its header to it.
    widths = [
        spec.width if spec.width is not None else max(cell_len(str(spec.header)), len(cell))
        for spec, cell in zip(table.columns, widest, strict=True)
    ]
    table.add_row(*(Text(cell) for cell in widest))
    with console.capture() as capture:
        console.print(table)
    lines = capture.get().split("\n")
    # The printed table ends with its row, the bottom rule and a line break.
    if len(lines) < 3 or lines[-1] or not lines[-3]:
        return None
    laid_out = lines[-3]
    left, right_edge = laid_out[0], laid_out[-1]
    rule = laid_out[widths[0] + 3 : widths[0] + 4] if len(widths) > 1 else ""
    padded = [(width, justify_right) for width, justify_right in zip(widths, right, strict=True)]

    def draw(row: Sequence[str]) -> str:
        cells = (
            f" {cell.rjust(width) if justify_right else cell.ljust(width)} "
            for cell, (width, justify_right) in zip(row, padded, strict=True)
        )
        return left + rule.join(cells) + right_edge

    if draw(widest) != laid_out:
        return None
    return "\n".join([*lines[:-3], *map(draw, rows), *lines[-2:]])


__all__ = ["drawn_table"]
