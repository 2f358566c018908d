"""Millisecond times for the lines of a captured build (``trtlog build``'s ``capture.jsonl``).

trtexec and TensorRT's Python logger stamp lines to the second; a captured build knows when each
line arrived, to the microsecond, from a monotonic clock. ``capture.jsonl`` holds one object per
physical line of ``build.log``: ``{"line": N, "t_ms": T, "stream": ..., "severity": ...}`` with
T in milliseconds since the build started; ``run.json`` beside it names the wall-clock start.
Events read from such a log get those times instead of the envelope's whole seconds.
"""

from __future__ import annotations

import json
import os
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from trtlog.events.base import Event
from trtlog.parse.items import Item, events_of

_MISSING = -1.0


class CaptureTimes:
    """When each line of a captured log arrived: line number -> wall-clock time."""

    def __init__(self, start: datetime, offsets_ms: array[float]) -> None:
        self.start = start
        self._offsets = offsets_ms

    @property
    def lines(self) -> int:
        return sum(1 for offset in self._offsets if offset != _MISSING)

    def time_of(self, line: int) -> datetime | None:
        if 0 < line < len(self._offsets) and (offset := self._offsets[line]) != _MISSING:
            return self.start + timedelta(milliseconds=offset)
        return None

    def stamp(self, events: Iterable[Item]) -> Iterator[Event]:
        """``events`` (blocks made events) with the arrival time of their first line as their
        timestamp."""
        for event in events_of(events):
            time = self.time_of(event.line)
            yield event if time is None else replace(event, timestamp=time)


def read_capture(path: str | os.PathLike[str]) -> CaptureTimes:
    """The times in ``capture.jsonl``; lines that are not capture entries are skipped, so a
    capture cut short by a crash still times every line it holds."""
    capture = Path(path)
    offsets = array("d")
    last = 0.0
    with capture.open("rb") as stream:
        for raw in stream:
            entry = _entry(raw)
            if entry is None:
                continue
            line, offset = entry
            if line >= len(offsets):
                offsets.extend([_MISSING] * (line + 1 - len(offsets)))
            offsets[line] = offset
            last = max(last, offset)
    return CaptureTimes(_start_of(capture, last), offsets)


def _entry(raw: bytes) -> tuple[int, float] | None:
    try:
        entry = json.loads(raw)
        line, offset = entry["line"], float(entry["t_ms"])
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(line, int) or line <= 0 or not offset >= 0:
        return None
    return line, offset


def _start_of(capture: Path, last_offset_ms: float) -> datetime:
    """The local wall-clock time the build started, from ``run.json``; without it, the time the
    capture was last written less its last offset."""
    try:
        run = json.loads((capture.parent / "run.json").read_text())
        return datetime.fromisoformat(run["start_local"])
    except (OSError, ValueError, TypeError, KeyError):
        written = datetime.fromtimestamp(capture.stat().st_mtime)
        return written - timedelta(milliseconds=last_offset_ms)


__all__ = ["CaptureTimes", "read_capture"]
