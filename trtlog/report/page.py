"""HTML pieces of the report: tables that stay readable at any length, inline SVG, the page."""

from __future__ import annotations

import html
import io
import re
from typing import TYPE_CHECKING

import pandas as pd

from trtlog.render.frames import cell_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Rows a table holds (it scrolls inside its box); past the limit, the rest are only counted.
ROW_LIMIT = 500
# Tables longer than this get a filter box.
FILTER_ROWS = 10
# Bookkeeping columns go last, so that what a row is about and what it measured come first.
TRAILING_COLUMNS = (
    "run",
    "build",
    "strategy",
    "kept",
    "step",
    "iterations",
    "source",
    "lines",
    "line",
    "first_line",
)

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222;
       line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
h1, h2, p, dd, caption { overflow-wrap: anywhere; }
nav a { margin-right: 1em; display: inline-block; }
.table-box { overflow: auto; max-height: 32em; width: fit-content; max-width: 100%;
             margin: 0.3em 0 1em; border: 1px solid #ddd; }
table { border-collapse: separate; border-spacing: 0; font-size: 0.85em; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0.5em; }
th, td { border-right: 1px solid #ddd; border-bottom: 1px solid #ddd; padding: 0.2em 0.5em;
         text-align: left; vertical-align: top; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
thead th { position: sticky; top: 0; z-index: 1; background: #f3f3f3; white-space: nowrap;
           cursor: pointer; user-select: none; }
thead th:hover { background: #e6eef8; }
thead th[aria-sort="ascending"]::after { content: " \\25B2"; font-size: 0.8em; }
thead th[aria-sort="descending"]::after { content: " \\25BC"; font-size: 0.8em; }
tbody tr:nth-child(even) { background: #fafafa; }
.filter { margin: 0.5em 0 0; padding: 0.2em 0.4em; width: 20em; max-width: 100%; }
.shown-rows { color: #666; font-size: 0.85em; margin-left: 0.5em; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.2em 1em; }
dl.facts dt { font-weight: bold; }
.figure { overflow-x: auto; } .figure svg { max-width: 100%; height: auto; }
.note { color: #666; font-size: 0.9em; }
"""

# Sorting on a click on a header (again: the other way; empty cells last either way) and
# filtering on the words typed in a table's box. Cells of number columns sort by their
# ``data-sort`` value, the number before it was formatted.
SCRIPT = """
(function () {
  function sortKey(cell, numeric) {
    if (!numeric) { return cell.textContent.trim().toLowerCase(); }
    var raw = cell.getAttribute("data-sort");
    var value = parseFloat(raw === null ? cell.textContent : raw);
    return isNaN(value) ? "" : value;
  }
  function sortBy(table, header, column) {
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    var headers = table.tHead.rows[0].cells;
    for (var i = 0; i < headers.length; i++) { headers[i].removeAttribute("aria-sort"); }
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var numeric = header.classList.contains("number");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, index) {
      return { row: row, key: sortKey(row.cells[column], numeric), index: index };
    });
    rows.sort(function (a, b) {
      if (a.key === b.key) { return a.index - b.index; }
      if (a.key === "") { return 1; }
      if (b.key === "") { return -1; }
      return (a.key < b.key ? -1 : 1) * (ascending ? 1 : -1);
    });
    rows.forEach(function (item) { body.appendChild(item.row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.data"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, column) {
      header.tabIndex = 0;
      header.title = "Sort by " + header.textContent;
      header.addEventListener("click", function () { sortBy(table, header, column); });
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          sortBy(table, header, column);
        }
      });
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll("input.filter"), function (input) {
    var wrap = input.parentNode;
    var table = wrap.querySelector("table.data");
    var shown = wrap.querySelector(".shown-rows");
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
      var rows = table.tBodies[0].rows;
      var count = 0;
      for (var i = 0; i < rows.length; i++) {
        var text = Array.prototype.map.call(rows[i].cells, function (cell) {
          return cell.textContent;
        }).join("\\t").toLowerCase();
        var keep = words.every(function (word) { return text.indexOf(word) >= 0; });
        rows[i].hidden = !keep;
        if (keep) { count++; }
      }
      shown.textContent = words.length ? count + " of " + rows.length + " rows" : "";
    });
  });
})();
"""

_XML_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.DOTALL)


def escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def svg(figure: Figure) -> str:
    """The figure as inline SVG, text kept as text (no glyph definitions to clash)."""
    from matplotlib import rc_context

    buffer = io.StringIO()
    with rc_context({"svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", bbox_inches="tight")
    return f'<div class="figure">{_XML_PROLOGUE.sub("", buffer.getvalue(), count=1)}</div>'


def key_columns_first(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its bookkeeping columns (run, build, line, ...) moved to the end."""
    trailing = [column for column in TRAILING_COLUMNS if column in frame.columns]
    leading = [column for column in frame.columns if column not in trailing]
    return frame[leading + trailing]


def table(frame: pd.DataFrame, caption: str | None = None, command: str | None = None) -> str:
    """``frame`` as an HTML table that sorts on a click on a header, scrolls inside its box
    under a header that stays in sight, and, when long, has a filter box; past ``ROW_LIMIT``
    rows the rest are counted."""
    if frame.empty:
        return f'<p class="note">{escape(caption or "Nothing")}: none in this log.</p>'
    frame = key_columns_first(frame)
    numeric = [
        pd.api.types.is_numeric_dtype(frame[column])
        and not pd.api.types.is_bool_dtype(frame[column])
        for column in frame.columns
    ]
    head = "".join(
        f'<th class="number">{escape(column)}</th>' if is_number else f"<th>{escape(column)}</th>"
        for column, is_number in zip(frame.columns, numeric, strict=True)
    )
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    parts = ['<div class="table-wrap">']
    if len(frame) > FILTER_ROWS:
        label = escape(f"Filter {caption or 'rows'}")
        parts.append(
            f'<input type="search" class="filter" placeholder="Filter rows" aria-label="{label}">'
            '<span class="shown-rows"></span>'
        )
    parts.append(
        f'<div class="table-box"><table class="data">{title}<thead><tr>{head}</tr></thead>'
        f"<tbody>{_rows(frame.head(ROW_LIMIT), numeric)}</tbody></table></div>"
    )
    left = len(frame) - ROW_LIMIT
    if left > 0:
        where = f" (all of them: <code>{escape(command)}</code>)" if command else ""
        parts.append(f'<p class="note">{left} further rows not shown{where}.</p>')
    parts.append("</div>")
    return "".join(parts)


def _rows(frame: pd.DataFrame, numeric: list[bool]) -> str:
    return "".join(
        "<tr>"
        + "".join(
            _number_cell(value) if is_number else f"<td>{escape(cell_text(value))}</td>"
            for value, is_number in zip(row, numeric, strict=True)
        )
        + "</tr>"
        for row in frame.itertuples(index=False)
    )


def _number_cell(value: object) -> str:
    text = escape(cell_text(value))
    if not text:
        return '<td class="number"></td>'
    # The number itself, to sort by: the text may be rounded.
    return f'<td class="number" data-sort="{float(value)!r}">{text}</td>'  # type: ignore[arg-type]


def facts(pairs: list[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{escape(label)}</dt><dd>{escape(text)}</dd>" for label, text in pairs)
    return f'<dl class="facts">{items}</dl>'


def page(title: str, sections: list[tuple[str, str, str]]) -> str:
    """The whole document: (anchor, heading, body) sections under a table of contents."""
    contents = "".join(
        f'<a href="#{anchor}">{escape(heading)}</a>' for anchor, heading, _ in sections
    )
    body = "".join(
        f'<section id="{anchor}"><h2>{escape(heading)}</h2>{content}</section>'
        for anchor, heading, content in sections
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><h1>{escape(title)}</h1><nav>{contents}</nav>{body}"
        f"<script>{SCRIPT}</script></body></html>\n"
    )
