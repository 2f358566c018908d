"""``trtlog watch``: follow a log another program is writing, like ``tail -f``, and say what the
build is doing.

The lines are read as they are written (a partial last line waits for its newline), fed to the
same ``ProgressState`` that ``trtlog build`` shows, and timed: by the log's own timestamps where
its lines carry them (trtexec, the Python logger), else by when they were read. A file that does
not exist yet is waited for; one that shrinks or is replaced (truncated, rotated) is read again
from its start.

Time left is estimated only while layers are tuned, from the layer total the log states before
tuning (the last "After <stage>: 57 layers" count before "Computing costs for") and the average
time per layer tuned so far: layers left times that average.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from trtlog.build.progress import ProgressState
from trtlog.grammars import terminal_pattern
from trtlog.parse.envelope import parse_timestamp

# trtexec's and the Python logger's stamp ("[07/07/2026-02:11:00] "): the envelope grammar's
# TIMESTAMP.
_STAMP = re.compile(terminal_pattern("TIMESTAMP"))
_WARNING_TAGS = ("[W]", "WARNING")
_ERROR_TAGS = ("[E]", "[F]", "ERROR", "INTERNAL_ERROR")
# Lines after which nothing more of the build comes: trtexec's verdict (ProgressState.finished),
# Polygraphy's ("[I] PASSED | Runtime: 16.888s | Command: ..."; its comparisons' verdicts are
# indented), TensorRT-LLM's total build time.
_POLYGRAPHY_VERDICT = re.compile(r"^\[[IEW!]\] (PASSED|FAILED) \| ")
_BUILT = "Total time of building all engines"
_READ_BYTES = 1 << 20
_RECENT = 5


class LogFollower:
    """The new complete lines of a file that is being written, each time ``lines`` is called."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._position = 0
        self._identity: tuple[int, int] | None = None
        self._partial = b""
        self.restarts = 0
        # Bytes of the file not read yet, as of the last call.
        self.behind = 0

    def lines(self) -> list[str]:
        """The complete lines written since the last call (at most 64 MB of them: call again
        until ``behind`` is 0 to catch up with a large file)."""
        try:
            with open(self.path, "rb") as stream:
                # The file that was opened, not the path's file of a moment before or after:
                # a rotation between the two is seen next time.
                status = os.fstat(stream.fileno())
                identity = (status.st_dev, status.st_ino)
                if self._identity is not None and (
                    identity != self._identity or status.st_size < self._position
                ):
                    # Truncated or replaced: the build starts over.
                    self._position, self._partial = 0, b""
                    self.restarts += 1
                self._identity = identity
                self.behind = status.st_size - self._position
                if self.behind <= 0:
                    return []
                stream.seek(self._position)
                data = stream.read(min(self.behind, 64 * _READ_BYTES))
        except OSError:
            # Not there (yet), or not readable for a moment (being rotated): tried again.
            return []
        self._position += len(data)
        self.behind -= len(data)
        data = self._partial + data
        complete, newline, rest = data.rpartition(b"\n")
        if not newline:
            self._partial = data
            return []
        self._partial = rest
        text = complete.decode("utf-8", errors="replace").replace("\r\n", "\n")
        # A carriage return redraws a line: the last drawing is what it says.
        return [line.rsplit("\r", 1)[-1] for line in text.split("\n")]

    def rest(self) -> list[str]:
        """The last line, when the writer stopped without its newline."""
        partial, self._partial = self._partial, b""
        return [partial.decode("utf-8", errors="replace")] if partial else []


@dataclass
class WatchState:
    """What a watched build has done so far."""

    progress: ProgressState = field(default_factory=ProgressState)
    # Seconds each tuned layer took, by the log's clock.
    layer_seconds: dict[str, float] = field(default_factory=dict)
    warnings: int = 0
    # Warning and error lines seen, and the last few of them.
    notes: int = 0
    recent: list[str] = field(default_factory=list)
    ended: str | None = None
    first_time: float | None = None
    last_time: float | None = None
    tuning_started: float | None = None
    _layer: str | None = None
    _layer_started: float | None = None
    _tuned: int = 0
    _stamped: bool = False

    def feed(self, line: str, read_at: float) -> None:
        stamp = _stamp_of(line)
        if stamp is not None:
            if not self._stamped:
                # The lines before the first stamp (a command line) were read now, not then.
                self.first_time = stamp
            self._stamped = True
            now = stamp
        elif self._stamped and self.last_time is not None:
            # A bare line of a stamped log (a layer listing): the time of the line before it.
            now = self.last_time
        else:
            now = read_at
        if self.first_time is None:
            self.first_time = now
        self.last_time = now
        progress = self.progress
        errors = progress.errors
        progress.feed(line)
        if progress.layers_tuned != self._tuned or progress.layer != self._layer:
            self._switch_layer(now)
        if progress.errors != errors:
            self._note(line)
        elif any(tag in line for tag in _WARNING_TAGS):
            self.warnings += 1
            self._note(line)
        verdict = _POLYGRAPHY_VERDICT.match(line)
        if progress.finished:
            self.ended = progress.finished
        elif verdict:
            self.ended = verdict.group(1).lower()
        elif _BUILT in line:
            self.ended = "built"

    def _switch_layer(self, now: float) -> None:
        progress = self.progress
        if progress.layers_tuned < self._tuned:
            # Another build started (a new "Original:" count).
            self.tuning_started = None
        if self._layer is not None and self._layer_started is not None:
            spent = self.layer_seconds.get(self._layer, 0.0) + now - self._layer_started
            self.layer_seconds[self._layer] = spent
        if progress.layer is not None and self.tuning_started is None:
            self.tuning_started = now
        self._layer, self._layer_started = progress.layer, now
        self._tuned = progress.layers_tuned

    def _note(self, line: str) -> None:
        self.notes += 1
        self.recent = [*self.recent[-(_RECENT - 1) :], line.strip()[:200]]

    @property
    def elapsed(self) -> float:
        if self.first_time is None or self.last_time is None:
            return 0.0
        return self.last_time - self.first_time

    def slowest(self, count: int = 3) -> list[tuple[str, float]]:
        ranked = sorted(self.layer_seconds.items(), key=lambda item: item[1], reverse=True)
        return ranked[:count]

    def time_left(self) -> float | None:
        """Seconds of tuning left: layers not yet tuned times the average so far; None
        outside tuning or before a layer total and a tuned layer are known."""
        progress = self.progress
        total, tuned = progress.layers_total, progress.layers_tuned - 1
        if progress.phase != "autotuning" or not total or tuned < 1 or self.tuning_started is None:
            return None
        assert self.last_time is not None
        spent = self.last_time - self.tuning_started
        return max(total - tuned, 0) * spent / tuned

    def describe(self) -> list[str]:
        """The state as a few lines of text."""
        lines = [self.progress.describe().rsplit("  ", 1)[0] + f"  {_clock(self.elapsed)} elapsed"]
        left = self.time_left()
        if left is not None:
            lines.append(f"about {_clock(left)} of tuning left")
        slowest = self.slowest()
        if slowest:
            named = ", ".join(f"{_short(name)} {seconds:.0f} s" for name, seconds in slowest)
            lines.append(f"slowest layers: {named}")
        counts = f"{self.warnings} warnings, {self.progress.errors} errors"
        lines.append(counts + (f"; last: {self.recent[-1]}" if self.recent else ""))
        return lines


@dataclass
class WatchResult:
    state: WatchState
    # "passed", "failed", "built", "timeout", "interrupted", "once", "missing"
    reason: str
    restarts: int = 0


def watch(
    path: Path,
    *,
    timeout: float | None = None,
    once: bool = False,
    engine: Path | None = None,
    poll: float = 0.25,
    on_line: Callable[[str, WatchState], None] | None = None,
    on_poll: Callable[[WatchState], None] | None = None,
) -> WatchResult:
    """Follow ``path`` until its build ends, ``timeout`` seconds pass, or Ctrl-C; with
    ``once``, read what is there and stop. ``engine``: the file the build writes its engine
    to; once it is there and has stopped growing, the build has ended (a Python-API script
    prints no verdict). ``on_line`` sees each warning and error line as it
    comes, ``on_poll`` the state after each read."""
    follower = LogFollower(path)
    state = WatchState()
    started = time.monotonic()
    reason = "interrupted"
    written = _EngineWritten(engine) if engine is not None else None
    try:
        while True:
            restarts = follower.restarts
            lines = follower.lines()
            while once and follower.behind > 0:
                # A snapshot reads the whole file, however large.
                lines += follower.lines()
            if follower.restarts != restarts:
                state = WatchState()
            if once:
                lines += follower.rest()
            for line in lines:
                notes = state.notes
                state.feed(line, time.time())
                if on_line is not None and state.notes != notes:
                    on_line(line, state)
            if on_poll is not None:
                on_poll(state)
            if state.ended:
                reason = state.ended
                break
            if written is not None and written.done():
                # The log may still get its last lines: read them before ending.
                for line in follower.lines() + follower.rest():
                    state.feed(line, time.time())
                reason = "built"
                break
            if once:
                reason = "once" if path.exists() else "missing"
                break
            if timeout is not None and time.monotonic() - started >= timeout:
                reason = "timeout"
                break
            time.sleep(poll)
    except KeyboardInterrupt:
        reason = "interrupted"
    return WatchResult(state, reason, follower.restarts)


class _EngineWritten:
    """Whether an engine file is there and has kept its size over two looks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._size: int | None = None

    def done(self) -> bool:
        try:
            size = self.path.stat().st_size
        except OSError:
            return False
        settled = size > 0 and size == self._size
        self._size = size
        return settled


def _stamp_of(line: str) -> float | None:
    match = _STAMP.search(line[:40])
    if match is None:
        return None
    stamp = parse_timestamp(match.group().rstrip())
    return None if stamp is None else stamp.timestamp()


def _clock(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes}:{rest:02d}"


def _short(name: str, width: int = 40) -> str:
    return (
        name if len(name) <= width else name[: width // 2 - 2] + "..." + name[-(width // 2 - 1) :]
    )


__all__ = ["LogFollower", "WatchResult", "WatchState", "watch"]
