"""One renderer per output format, all taking a DataFrame and writing text to a stream."""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable
from typing import Any, TextIO

import pandas as pd

from trtlog.render import OutputFormat


def cell_text(value: Any) -> str:
    """A value as a table cell: numbers compact, missing values empty, booleans as a mark."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) < 1e6 else f"{value:.0f}"
    return str(value)


# Text columns keep at least this many characters (or their longest cell, if shorter): a
# table wider than the screen then runs past it instead of folding names one letter a line.
_TEXT_MIN_WIDTH = 20
# Output that is not a terminal (a file, a pager, a pipe) is as wide as the table, up to this.
_FILE_MAX_WIDTH = 400
_SCREEN_MIN_WIDTH = 120
# The table format shows this many rows at most, and says how many it left out: rich lays out
# under a thousand rows a second, so every layer's choices of a large build (tens of
# thousands of rows) would take minutes. The other formats give every row.
TABLE_ROWS_SHOWN = 1000


def _rows(frame: pd.DataFrame) -> list[tuple[Any, ...]]:
    """The rows' values, as ``itertuples`` gives them, read column by column: pandas 3 holds
    text as Arrow-backed strings, which ``itertuples`` fetches one scalar at a time (five times
    slower for a table of names)."""
    columns = [frame.iloc[:, position].tolist() for position in range(frame.shape[1])]
    return list(zip(*columns, strict=True)) if columns else [()] * len(frame)


def _breaks_rows(row: list[str]) -> bool:
    return any("\n" in text or "\t" in text for text in row)


def render_table(frame: pd.DataFrame, stream: TextIO, title: str | None) -> None:
    _render_table(frame, stream, title, layout=Layout.DRAWN)


class Layout(enum.Enum):
    """How the rows of a table that fits unfolded reach the stream (``_render_table``): each
    the same text as the one after it, in less time."""

    DRAWN = "drawn"
    JOINED = "joined"
    ROW_BY_ROW = "row by row"


def _render_table(
    frame: pd.DataFrame, stream: TextIO, title: str | None, *, layout: Layout
) -> None:
    """``render_table``, its rows laid out as ``layout`` says where the table fits unfolded (any
    but ``DRAWN`` only for the tests that hold the layouts to the same text)."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=stream, soft_wrap=False)
    if frame.empty:
        console.print(Text(f"{title}: none in this log" if title else "none in this log"))
        return
    hidden = max(0, len(frame) - TABLE_ROWS_SHOWN)
    shown = frame.iloc[:TABLE_ROWS_SHOWN] if hidden else frame
    cells = [[cell_text(value) for value in row] for row in _rows(shown)]
    # The table's width unfolded: each column's widest cell, padded by one each side, and the
    # rules between and around the columns.
    natural = len(frame.columns) + 1
    columns: list[dict[str, Any]] = []
    for position, column in enumerate(frame.columns):
        series = frame[column]
        numeric = pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)
        # Numbers and tactic ids are read whole; names and formats may wrap.
        whole = numeric or "tactic" in str(column)
        longest = max([cell_len(str(column)), *(cell_len(row[position]) for row in cells)])
        natural += longest + 2
        columns.append(
            {
                "header": str(column),
                "justify": "right" if numeric else "left",
                "overflow": "fold",
                "no_wrap": whole,
                "min_width": None if whole else min(longest, _TEXT_MIN_WIDTH),
            }
        )

    def new_table() -> Table:
        # Layer names and log text hold brackets ("[Convolution]", "[x]") that are not markup.
        table = Table(
            title=None if title is None else Text(title), title_justify="left", show_lines=False
        )
        for spec in columns:
            table.add_column(**spec)
        return table

    if console.is_terminal:
        console.width = max(_SCREEN_MIN_WIDTH, console.width)
    else:
        console.width = max(_SCREEN_MIN_WIDTH, min(natural, _FILE_MAX_WIDTH))
    # Rich measures, wraps and pads every cell on its own, which is slow for a table of
    # thousands of rows (one layer's timings of a large log). Where the
    # table fits unfolded, every row is one line high: its rows are drawn here
    # (``trtlog.render.drawn_rows``), or else each column goes to rich as one cell holding its
    # rows' lines, the same text laid out in a third of the time or less. Neither where a cell
    # holds a line break, nor a tab (rich widens it, ``cell_len`` does not count it: the row
    # may fold).
    fits = natural <= console.width and not any(map(_breaks_rows, cells))
    drawn = None
    if fits and layout is Layout.DRAWN:
        from trtlog.render.drawn_rows import drawn_table

        right = [spec["justify"] == "right" for spec in columns]
        drawn = drawn_table(console, new_table(), cells, right)
    if drawn is not None:
        stream.write(drawn)
    else:
        table = new_table()
        if fits and layout is not Layout.ROW_BY_ROW:
            table.add_row(*(Text("\n".join(column)) for column in zip(*cells, strict=True)))
        else:
            for row in cells:
                table.add_row(*(Text(text) for text in row))
        console.print(table)
    if hidden:
        console.print(
            Text(
                f"{hidden:,} more {'row' if hidden == 1 else 'rows'} not shown:"
                " --format csv, json or markdown gives every row."
            )
        )


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    # pandas turns NaN, NA and numpy scalars into JSON null and plain numbers.
    records: list[dict[str, Any]] = json.loads(frame.to_json(orient="records", date_format="iso"))
    return records


def render_json(frame: pd.DataFrame, stream: TextIO, title: str | None) -> None:
    json.dump(_records(frame), stream, indent=1)
    stream.write("\n")


def render_csv(frame: pd.DataFrame, stream: TextIO, title: str | None) -> None:
    frame.to_csv(stream, index=False)


def render_markdown(frame: pd.DataFrame, stream: TextIO, title: str | None) -> None:
    def escape(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    if title:
        stream.write(f"### {escape(title)}\n\n")
    stream.write("| " + " | ".join(escape(str(column)) for column in frame.columns) + " |\n")
    stream.write("|" + "|".join(" --- " for _ in frame.columns) + "|\n")
    for row in _rows(frame):
        stream.write("| " + " | ".join(escape(cell_text(value)) for value in row) + " |\n")


RENDERERS: dict[OutputFormat, Callable[[pd.DataFrame, TextIO, str | None], None]] = {
    OutputFormat.table: render_table,
    OutputFormat.json: render_json,
    OutputFormat.csv: render_csv,
    OutputFormat.markdown: render_markdown,
}


def render(
    frame: pd.DataFrame, output_format: OutputFormat, stream: TextIO, title: str | None = None
) -> None:
    RENDERERS[output_format](frame, stream, title)


def render_views(
    views: list[tuple[str, str, pd.DataFrame]], output_format: OutputFormat, stream: TextIO
) -> None:
    """Several (key, title, frame) views as one output: tables and Markdown one after another,
    JSON as one object keyed by view, CSV as blocks each opened by a ``# title`` line."""
    if len(views) == 1:
        _, title, frame = views[0]
        render(frame, output_format, stream, title)
    elif output_format is OutputFormat.json:
        json.dump({key: _records(frame) for key, _, frame in views}, stream, indent=1)
        stream.write("\n")
    else:
        for position, (_, title, frame) in enumerate(views):
            if position:
                stream.write("\n")
            if output_format is OutputFormat.csv:
                stream.write(f"# {title}\n")
            render(frame, output_format, stream, title)
