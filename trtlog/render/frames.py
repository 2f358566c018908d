"""One renderer per output format, all taking a DataFrame and writing text to a stream."""

from __future__ import annotations

import enum
import json
import math
import os
from collections.abc import Callable
from typing import Any, TextIO

import pandas as pd
from rich.console import Console

from trtlog.render import OutputFormat
from trtlog.render.fitting import Fitted, Kind, fit_columns, table_width
from trtlog.render.priorities import PROSE_COLUMNS, column_priority
from trtlog.render.units import column_unit, scaled_text


def cell_text(value: Any) -> str:
    """A value as a table cell: numbers compact, missing values empty, booleans as a mark."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) < 1e6 else f"{value:.0f}"
    return str(value)


# In a table too wide even for a file, text columns keep at least this many characters (or
# their longest cell, if shorter): the table runs past instead of folding names a letter a line.
_TEXT_MIN_WIDTH = 20
# Output that is not a terminal (a file, a pager, a pipe) is as wide as the table, up to this.
_FILE_MAX_WIDTH = 400
_FILE_MIN_WIDTH = 120
# The table format shows this many rows at most, and says how many it left out: rich lays out
# under a thousand rows a second, so every layer's choices of a large build (tens of
# thousands of rows) would take minutes. The other formats give every row.
TABLE_ROWS_SHOWN = 1000


def _breaks_rows(row: list[str]) -> bool:
    return any("\n" in text or "\t" in text for text in row)


def render_table(
    frame: pd.DataFrame,
    stream: TextIO,
    title: str | None,
    *,
    view: str | None = None,
    wide: bool = False,
) -> None:
    """``frame`` as a rich table. On a terminal (or where ``COLUMNS`` is set) it fits the width:
    the columns ``view`` ranks lowest are left out where they do not fit and long names are
    shortened in the middle, unless ``wide``; elsewhere it is as wide as its rows."""
    _render_table(frame, stream, title, layout=Layout.DRAWN, view=view, wide=wide)


class Layout(enum.Enum):
    """How the rows of a table that fits unfolded reach the stream (``_render_table``): each
    the same text as the one after it, in less time."""

    DRAWN = "drawn"
    JOINED = "joined"
    ROW_BY_ROW = "row by row"


def table_cells(frame: pd.DataFrame) -> tuple[list[str], list[list[str]], list[bool]]:
    """The headers, the rows' cells and which columns are numbers, as tables show them: numbers
    with a unit in that unit (named in the header), others as ``cell_text`` gives them.

    The values are read column by column: pandas 3 holds text as Arrow-backed strings, which
    ``itertuples`` fetches one scalar at a time."""
    columns = [frame.iloc[:, position].tolist() for position in range(frame.shape[1])]
    headers, texts, numeric = [], [], []
    for name, values in zip(frame.columns, columns, strict=True):
        series = frame[name]
        is_number = pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)
        unit = column_unit(str(name), values, is_number)
        headers.append(unit.header)
        numeric.append(is_number)
        if unit.unit is None:
            texts.append([cell_text(value) for value in values])
        else:
            scaled = (scaled_text(value, unit) for value in values)
            texts.append(
                [
                    cell_text(value) if text is None else text
                    for value, text in zip(values, scaled, strict=True)
                ]
            )
    rows = (
        [list(row) for row in zip(*texts, strict=True)]
        if texts
        else [[] for _ in range(len(frame))]
    )
    return headers, rows, numeric


def _fits_the_screen(console: Console, wide: bool) -> bool:
    """Whether a table is fitted to ``console.width``: on a terminal, or where the width is
    given by ``COLUMNS``; never with ``wide``."""
    return not wide and (console.is_terminal or os.environ.get("COLUMNS", "").strip().isdigit())


def _columns(
    frame: pd.DataFrame, view: str | None, screen: int | None
) -> tuple[Fitted, list[dict[str, Any]]]:
    """The columns of ``frame`` fitted to ``screen`` cells (``fit_columns``), or all of them at
    their widest where ``screen`` is None, and the rich column settings of those shown."""
    headers, cells, numeric = table_cells(frame)
    names = [str(column) for column in frame.columns]
    # Numbers and tactic ids are read whole; names and formats may be shortened, prose wraps.
    whole = [number or "tactic" in name for number, name in zip(numeric, names, strict=True)]
    if screen is None:
        every = list(range(len(names)))
        fitted = fit_columns(headers, cells, [Kind.WHOLE] * len(names), every, 10**9)
    else:
        kinds = [
            Kind.WHOLE if keep else Kind.WRAP if name in PROSE_COLUMNS else Kind.SHORTEN
            for keep, name in zip(whole, names, strict=True)
        ]
        empty = [not any(column) for column in zip(*cells, strict=False)]
        priority = column_priority(view, names, empty=empty)
        fitted = fit_columns(headers, cells, kinds, priority, screen)
    columns = [
        {
            "header": headers[position],
            "justify": "right" if numeric[position] else "left",
            "overflow": "fold",
            # A fitted column is as wide as its cells: its header may wrap.
            "no_wrap": whole[position] and screen is None,
            "min_width": None if whole[position] else min(width, _TEXT_MIN_WIDTH),
            "width": None if screen is None else width,
        }
        for position, width in zip(fitted.kept, fitted.widths, strict=True)
    ]
    return fitted, columns


def _render_table(
    frame: pd.DataFrame,
    stream: TextIO,
    title: str | None,
    *,
    layout: Layout,
    view: str | None = None,
    wide: bool = False,
) -> None:
    """``render_table``, its rows laid out as ``layout`` says where the table fits unfolded (any
    but ``DRAWN`` only for the tests that hold the layouts to the same text)."""
    from rich.table import Table
    from rich.text import Text

    console = Console(file=stream, soft_wrap=False)
    if frame.empty:
        console.print(Text(f"{title}: none in this log" if title else "none in this log"))
        return
    hidden_rows = max(0, len(frame) - TABLE_ROWS_SHOWN)
    shown = frame.iloc[:TABLE_ROWS_SHOWN] if hidden_rows else frame
    screen = console.width
    fitting = _fits_the_screen(console, wide)
    fitted, columns = _columns(shown, view, screen if fitting else None)
    cells = fitted.cells
    natural = table_width(fitted.widths)

    def new_table() -> Table:
        # Layer names and log text hold brackets ("[Convolution]", "[x]") that are not markup.
        table = Table(
            title=None if title is None else Text(title), title_justify="left", show_lines=False
        )
        for spec in columns:
            table.add_column(**spec)
        return table

    if fitting:
        # A table whose most important column alone is wider than the screen runs past it.
        console.width = max(screen, natural)
    else:
        console.width = max(_FILE_MIN_WIDTH, min(natural, _FILE_MAX_WIDTH))
    # Rich measures, wraps and pads every cell on its own, which is slow for a table of
    # thousands of rows (one layer's timings of a large log). Where the
    # table fits unfolded, every row is one line high: its rows are drawn here
    # (``trtlog.render.drawn_rows``), or else each column goes to rich as one cell holding its
    # rows' lines, which rich lays out at once. Neither where a cell
    # holds a line break, nor a tab (rich widens it, ``cell_len`` does not count it: the row
    # may fold).
    fits = natural <= console.width and not fitted.wraps and not any(map(_breaks_rows, cells))
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
    if fitting:
        console.width = screen
    if fitted.hidden:
        left_out = ", ".join(str(frame.columns[position]) for position in fitted.hidden)
        console.print(
            Text(f"Columns left out at this width: {left_out} (--wide shows every column).")
        )
    if hidden_rows:
        console.print(
            Text(
                f"{hidden_rows:,} more {'row' if hidden_rows == 1 else 'rows'} not shown:"
                " --format csv, json or markdown gives every row."
            )
        )


# Figures computed by division (a share, a gap, an interpolated time) carry binary noise in their
# last digits (3.008771929824561); JSON and CSV give them to this many significant digits, in
# the shortest text that reads back as that number. Whole numbers (byte counts in a column
# with gaps, which pandas holds as floats) are kept as they are.
_FIGURE_DIGITS = 10


def _rounded(value: float) -> float:
    value = float(value)  # a numpy float prints its type in repr
    return value if value.is_integer() else float(f"{value:.{_FIGURE_DIGITS}g}")


def _figure(value: float) -> str:
    return repr(_rounded(value))


def _read_figure(text: str) -> float:
    return _rounded(float(text))


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    # pandas turns NaN, NA and numpy scalars into JSON null and plain numbers; its floats are
    # read back to the significant digits CSV gives (``_figure``).
    text = frame.to_json(orient="records", date_format="iso", double_precision=15)
    records: list[dict[str, Any]] = json.loads(text, parse_float=_read_figure)
    return records


def render_json(frame: pd.DataFrame, stream: TextIO, title: str | None) -> None:
    json.dump(_records(frame), stream, indent=1)
    stream.write("\n")


def render_csv(frame: pd.DataFrame, stream: TextIO, title: str | None) -> None:
    frame.to_csv(stream, index=False, float_format=_figure)


def render_markdown(frame: pd.DataFrame, stream: TextIO, title: str | None) -> None:
    """A Markdown table, its numbers in the units the terminal table shows."""

    def escape(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    if title:
        stream.write(f"### {escape(title)}\n\n")
    headers, rows, _ = table_cells(frame)
    stream.write("| " + " | ".join(escape(header) for header in headers) + " |\n")
    stream.write("|" + "|".join(" --- " for _ in frame.columns) + "|\n")
    for row in rows:
        stream.write("| " + " | ".join(escape(cell) for cell in row) + " |\n")


RENDERERS: dict[OutputFormat, Callable[[pd.DataFrame, TextIO, str | None], None]] = {
    OutputFormat.table: render_table,
    OutputFormat.json: render_json,
    OutputFormat.csv: render_csv,
    OutputFormat.markdown: render_markdown,
}


def render(
    frame: pd.DataFrame,
    output_format: OutputFormat,
    stream: TextIO,
    title: str | None = None,
    *,
    view: str | None = None,
    wide: bool = False,
) -> None:
    """``frame`` in ``output_format``; a table fitted to the screen by the column ranking of
    ``view`` (``trtlog.render.priorities``) unless ``wide``."""
    if output_format is OutputFormat.table:
        render_table(frame, stream, title, view=view, wide=wide)
    else:
        RENDERERS[output_format](frame, stream, title)


def render_views(
    views: list[tuple[str, str, pd.DataFrame]],
    output_format: OutputFormat,
    stream: TextIO,
    *,
    wide: bool = False,
    family: str = "",
) -> None:
    """Several (key, title, frame) views as one output: tables and Markdown one after another,
    JSON as one object keyed by view, CSV as blocks each opened by a ``# title`` line. A table
    ranks its columns as ``family.key`` says in ``trtlog.render.priorities`` (``key`` where
    ``family`` is empty)."""
    if len(views) == 1:
        key, title, frame = views[0]
        view = f"{family}.{key}" if family else key
        render(frame, output_format, stream, title, view=view, wide=wide)
    elif output_format is OutputFormat.json:
        json.dump({key: _records(frame) for key, _, frame in views}, stream, indent=1)
        stream.write("\n")
    else:
        for position, (key, title, frame) in enumerate(views):
            if position:
                stream.write("\n")
            if output_format is OutputFormat.csv:
                stream.write(f"# {title}\n")
            view = f"{family}.{key}" if family else key
            render(frame, output_format, stream, title, view=view, wide=wide)
