"""Fewer garbage collections while a log is parsed.

Parsing a large log makes millions of short-lived objects and keeps hundreds of thousands
(events, combinations, columns), none of them in reference cycles; with CPython's default
threshold the collector would keep walking the objects kept so far.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Allocations between young-generation collections while parsing.
_PARSING_THRESHOLD = 500_000


@contextmanager
def rare_collections() -> Iterator[None]:
    """Collect garbage less often inside the block; the thresholds are restored after it."""
    previous = gc.get_threshold()
    gc.set_threshold(max(previous[0], _PARSING_THRESHOLD), *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


__all__ = ["rare_collections"]
