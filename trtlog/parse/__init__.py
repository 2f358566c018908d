"""Parse TensorRT logs into events: reader -> envelopes -> records -> grammar -> fold.

The pipeline (``trtlog.parse.pipeline``) is imported when one of its names is first used, so
that what needs only a light module of this package (a stored log's summary, the reader's
errors) does not load the grammar and every event class.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trtlog.parse.envelope import ERROR_OR_WORSE, WARNING_OR_WORSE
    from trtlog.parse.fold import build_marker
    from trtlog.parse.log_file import parse_file
    from trtlog.parse.pipeline import (
        LineCounter,
        StreamItems,
        iter_events,
        iter_items,
        parse_lines,
        parse_text,
    )
    from trtlog.parse.reader import LogSourceError
    from trtlog.parse.result import ParsedLog
    from trtlog.parse.summarize import described
    from trtlog.parse.summary import Summary

__all__ = [
    "ERROR_OR_WORSE",
    "WARNING_OR_WORSE",
    "LineCounter",
    "LogSourceError",
    "ParsedLog",
    "StreamItems",
    "Summary",
    "build_marker",
    "described",
    "iter_events",
    "iter_items",
    "parse_file",
    "parse_lines",
    "parse_text",
]

_HOMES = {
    "LogSourceError": "trtlog.parse.reader",
    "parse_file": "trtlog.parse.log_file",
    "ParsedLog": "trtlog.parse.result",
    "Summary": "trtlog.parse.summary",
    "ERROR_OR_WORSE": "trtlog.parse.envelope",
    "WARNING_OR_WORSE": "trtlog.parse.envelope",
    "build_marker": "trtlog.parse.fold",
    "described": "trtlog.parse.summarize",
}


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_HOMES.get(name, "trtlog.parse.pipeline")), name)
