"""Progress bars on standard error, for a long parse or ingest, shown only to a person.

A bar is drawn only when standard error is a terminal (never into a file, a pipe or a CI
log) and ``--quiet`` is not given; it is removed when the work ends, as uv's and pip's are,
so that what stays on the screen is the command's own output. A parse shows bytes, their rate
and the time left; an ingest shows files.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn, Task
    from rich.text import Text

    from trtlog.dataset import LogResult

# A log smaller than this parses in well under a second: a bar would only flicker.
LARGE_LOG_BYTES = 8 << 20


def _console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


class Bar:
    """A transient progress bar of ``total`` units (bytes or files) with the label
    ``description``, or nothing (``shown`` is False) where it would not be seen by a person.
    Use as a context manager; ``advance_to(done)`` and ``advance(step)`` move it on, from any
    thread."""

    def __init__(
        self,
        description: str,
        total: int,
        unit: str,
        quiet: bool = False,
        console: Console | None = None,
    ) -> None:
        self.console = console or _console()
        self.shown = not quiet and self.console.is_terminal and total > 0
        self._progress: Progress | None = None
        self._task = None
        if self.shown:
            from rich.progress import Progress

            # What the command itself writes is left alone (a JSON-lines stream on standard
            # output is no message for the terminal): ``say`` writes above the bar.
            self._progress = Progress(
                *_columns(unit),
                console=self.console,
                transient=True,
                refresh_per_second=8,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._task = self._progress.add_task(description, total=total)

    def __enter__(self) -> Bar:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()

    def advance_to(self, done: int) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=done)

    def advance(self, step: int = 1) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, step)

    def say(self, message: str) -> None:
        """Write a line to standard error, above the bar where it is shown."""
        if self._progress is not None:
            self.console.print(message, markup=False, highlight=False, soft_wrap=True)
        else:
            print(message, file=sys.stderr)

    @property
    def callback(self) -> Callable[[int], None] | None:
        """``advance_to`` where the bar is shown, else None (the parse then skips the calls)."""
        return self.advance_to if self.shown else None


def bytes_bar(description: str, total: int, quiet: bool = False) -> Bar:
    """A bar of bytes for a log of ``total`` bytes: shown only for a large one."""
    return Bar(description, total if total >= LARGE_LOG_BYTES else 0, "bytes", quiet)


class IngestProgress:
    """What ``trtlog ingest`` shows while it works: a line per log (added or failed) and, on
    a terminal, a bar of the logs parsed; nothing with ``quiet``."""

    def __init__(self, quiet: bool = False, console: Console | None = None) -> None:
        self.quiet = quiet
        self.console = console
        self.bar: Bar | None = None

    def __enter__(self) -> IngestProgress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.bar is not None:
            self.bar.__exit__(kind, error, traceback)

    def start(self, total: int) -> None:
        """The logs to parse are known: ``total`` of them."""
        self.bar = Bar("ingesting", total, "files", self.quiet, self.console).__enter__()

    def done(self, result: LogResult) -> None:
        if self.bar is None:
            self.start(0)
        assert self.bar is not None
        if not self.quiet:
            status = "failed" if result.error else "added"
            self.bar.say(f"{status}: {result.error or result.source_path}")
        self.bar.advance()


def _columns(unit: str) -> list[ProgressColumn | str]:
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        MofNCompleteColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    if unit == "bytes":
        amount: list[ProgressColumn | str] = [DownloadColumn(), TransferSpeedColumn()]
    else:
        amount = [MofNCompleteColumn(), _rate_column(unit)]
    return [
        "[progress.description]{task.description}",
        BarColumn(),
        *amount,
        "eta",
        TimeRemainingColumn(),
    ]


def _rate_column(unit: str) -> ProgressColumn:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        """Units a second, as the average so far (a file's parse time varies widely)."""

        def render(self, task: Task) -> Text:
            elapsed = task.elapsed or 0.0
            if not elapsed or not task.completed:
                return Text(f"? {unit}/s", style="progress.data.speed")
            return Text(f"{task.completed / elapsed:.1f} {unit}/s", style="progress.data.speed")

    return Rate()


__all__ = ["LARGE_LOG_BYTES", "Bar", "IngestProgress", "bytes_bar"]
