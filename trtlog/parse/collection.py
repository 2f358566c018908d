"""Fewer garbage collections while a log is parsed.

Parsing a large log makes millions of short-lived objects and keeps hundreds of thousands
(events, combinations, columns), none of them in reference cycles. With CPython's default
threshold (a young-generation collection every 700 allocations) the collector keeps walking
the objects kept so far: 5% of a one-process parse of a 200 MB log, 15% of a two-process one,
where each piece's results are unpickled at once. Even a collection every 50,000 allocations
took this process 2.4-3.1 s of a two-process parse of the 10.x-style 1 GB benchmark log (20-100
ms a young collection, with the objects of the pieces read back all young at once); every
500,000 it took 0.5-0.6 s, and the peak memory rose by 12 MB (every 2,000,000: 0.4 s).
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
