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

# Rows shown at once; more are folded into a <details> element; past the limit, only counted.
SHOWN_ROWS = 25
FOLDED_ROWS = 500

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222;
       line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
nav a { margin-right: 1em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; display: block;
        overflow-x: auto; max-width: 100%; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.facts dt { font-weight: bold; }
.figure { overflow-x: auto; } .figure svg { max-width: 100%; height: auto; }
.note { color: #666; font-size: 0.9em; }
details > summary { cursor: pointer; color: #1f5fa8; }
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


def table(frame: pd.DataFrame, caption: str | None = None, command: str | None = None) -> str:
    """``frame`` as an HTML table: the first rows shown, more folded away, the rest counted."""
    if frame.empty:
        return f'<p class="note">{escape(caption or "Nothing")}: none in this log.</p>'
    numeric = [
        pd.api.types.is_numeric_dtype(frame[column])
        and not pd.api.types.is_bool_dtype(frame[column])
        for column in frame.columns
    ]
    head = "".join(f"<th>{escape(column)}</th>" for column in frame.columns)

    def rows(part: pd.DataFrame) -> str:
        return "".join(
            "<tr>"
            + "".join(
                f'<td class="number">{escape(cell_text(value))}</td>'
                if is_number
                else f"<td>{escape(cell_text(value))}</td>"
                for value, is_number in zip(row, numeric, strict=True)
            )
            + "</tr>"
            for row in part.itertuples(index=False)
        )

    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    parts = [f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{rows(frame.head(SHOWN_ROWS))}"]
    parts.append("</tbody></table>")
    folded = frame.iloc[SHOWN_ROWS:FOLDED_ROWS]
    if len(folded):
        parts.append(
            f"<details><summary>{len(folded)} more rows</summary><table><thead><tr>{head}"
            f"</tr></thead><tbody>{rows(folded)}</tbody></table></details>"
        )
    left = len(frame) - FOLDED_ROWS
    if left > 0:
        where = f" (all of them: <code>{escape(command)}</code>)" if command else ""
        parts.append(f'<p class="note">{left} further rows not shown{where}.</p>')
    return "".join(parts)


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
        f"<body><h1>{escape(title)}</h1><nav>{contents}</nav>{body}</body></html>\n"
    )
