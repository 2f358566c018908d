"""Where the build's time went: the phases of each run (``phases``), their spans and rows
(``spans``), where each line goes (``placement``) and the table read from the log in order
(``builder``)."""

from __future__ import annotations

from trtlog.analysis.timeline.builder import COLUMNS, TimelineBuilder, timeline_table

__all__ = ["COLUMNS", "TimelineBuilder", "timeline_table"]
