"""Offsets in seconds from the log's timestamps, robust to clocks that were never set or jump.

trtexec and the Python API stamp lines to the second; Jetson boards without a network clock
print dates such as 2022-01-01, and logs of several runs pasted together jump back and forth.
Offsets are the running sum of the gaps between consecutive timestamps, where a gap that goes
backwards or is longer than a day counts as zero (a clock jump, not time that passed).
Whole-second stamps are refined by the timeline, which spreads the lines of each second evenly
across it.
"""

from __future__ import annotations

from datetime import datetime

_LONGEST_GAP_SECONDS = 24 * 3600.0


class Clock:
    """Offsets of one run's events, in the order they are read."""

    def __init__(self) -> None:
        self._previous: datetime | None = None
        self._offset = 0.0
        self.lines = 0
        self.stamped = 0
        self.jumps = 0
        self.sub_second = False

    def offset(self, timestamp: datetime | None, own: bool = True, counted: bool = True) -> float:
        """The offset of a line stamped ``timestamp``; unstamped lines share the previous one's.
        ``own`` is False for a stamp the line inherited from the line above; ``counted`` False
        for another program's line, which says nothing of whether the log's stamps measure it."""
        self.lines += counted
        if timestamp is None:
            return self._offset
        self.stamped += own and counted
        if timestamp is self._previous:
            # A second's lines share their envelope's stamp: no time passed.
            return self._offset
        if timestamp.microsecond:
            self.sub_second = True
        if self._previous is not None:
            gap = (timestamp - self._previous).total_seconds()
            if 0 <= gap <= _LONGEST_GAP_SECONDS:
                self._offset += gap
            else:
                self.jumps += 1
        self._previous = timestamp
        return self._offset

    def offset_of_lines(
        self, timestamp: datetime | None, own: bool, count: int, counted: bool = True
    ) -> float:
        """``offset`` for ``count`` consecutive lines stamped ``timestamp`` (the same offset)."""
        offset = self.offset(timestamp, own, counted)
        self.lines += (count - 1) * counted
        if timestamp is not None:
            self.stamped += (own and counted) * (count - 1)
        return offset

    @property
    def timestamped(self) -> bool:
        """Whether the timestamps can measure the run: most of its lines carry one (a custom
        logger may stamp TensorRT's few warnings and leave its progress bars bare), other
        programs' lines aside (an application's output around a stamped build)."""
        return self.stamped >= 2 and 2 * self.stamped >= self.lines

    @property
    def resolution(self) -> str:
        return "1 ms" if self.sub_second else "1 s, interpolated"
