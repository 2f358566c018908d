"""How each line of a log was classified, and the envelope styles its records used."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trtlog.parse.envelope import FOREIGN_PRODUCERS, Envelope


@dataclass
class LineCounts:
    """How each line of the log was classified, and which envelope styles it used.

    ``segments`` counts the records' lines: a physical line that a lone CR redrew, or on which
    a record started in the middle (an overwritten progress line), holds several. Such a line
    is still counted once, so that the four classes add up to the physical lines: unrecognised
    if any of its segments is, else recognised if any is, else foreign, else blank.
    ``style_spans`` lists, in line order, stretches of records in one envelope style as
    [first line, last line, style, records]; bare lines and other programs' own messages are
    left out (the style of each run in the summary comes from them)."""

    segments: int = 0
    recognized: int = 0
    unrecognized: int = 0
    foreign: int = 0
    blank: int = 0
    # Numbers beyond 64 bits (a corrupted log): their events keep None in their place.
    out_of_range: int = 0
    envelope_styles: dict[str, int] = field(default_factory=dict)
    style_spans: list[list[Any]] = field(default_factory=list)

    def note_style(self, envelope: Envelope, line: int, last_line: int, records: int = 1) -> None:
        style = envelope.style
        styles = self.envelope_styles
        styles[style] = styles.get(style, 0) + records
        if style == "none" or envelope.producer in FOREIGN_PRODUCERS:
            return
        spans = self.style_spans
        if spans and spans[-1][2] == style:
            last = spans[-1]
            last[1] = last_line
            last[3] += records
        else:
            spans.append([line, last_line, style, records])


# Which class a line holding several segments is counted in: the highest of its segments'
# (an unknown segment is not hidden by a known one beside it).
CLASS_RANK = {"blank": 0, "foreign": 1, "recognized": 2, "unrecognized": 3}


__all__ = ["CLASS_RANK", "LineCounts"]
