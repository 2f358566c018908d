"""Read one log file's items in one pass, reporting how far the reading has got.

One process reads a log of any size: the native core scans each chunk on a thread of its own
while this thread parses and links the pieces of the chunk before (``trtlog.parse.scanner``),
so a log is read on two cores with nothing copied between processes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import BinaryIO

from trtlog.parse.fold import Place
from trtlog.parse.items import Item, events_of
from trtlog.parse.line_counts import LineCounts
from trtlog.parse.pipeline import StreamItems, parse_lines
from trtlog.parse.reader import LogSourceError, open_log
from trtlog.parse.result import ParsedLog


@dataclass
class LogFile:
    """The items of the log at ``path`` (a file, ``-`` for standard input, or a gzip file), in
    order and linked by the fold; after they have been read, ``counts``, ``physical_lines`` and
    ``last_place`` hold the whole log's figures.

    ``on_progress`` is called now and then with how many bytes of the file have been read (of a
    gzip file: its compressed bytes), for a progress bar."""

    path: str
    on_progress: Callable[[int], None] | None = None
    counts: LineCounts = field(default_factory=LineCounts)
    physical_lines: int = 0
    # The (run, build, strategy) the log ended in, once read (see ``fold``).
    last_place: Place = (None, None, None)

    def items(self) -> Iterator[Item]:
        """Raises ``LogSourceError`` when the log cannot be read."""
        with open_log(self.path) as stream:
            reader = StreamItems()
            folded = reader.folded(stream)
            if self.on_progress is not None:
                folded = _reporting(folded, stream, self.on_progress)
            with _read_failures(self.path):
                self.last_place = yield from folded
            self.counts, self.physical_lines = reader.parser.counts, reader.physical_lines


def parse_file(path: str | os.PathLike[str], fast: bool = True) -> ParsedLog:
    """Parse a log file, ``-`` for standard input, or a gzip-compressed log; ``fast=False``
    parses every line with the grammar alone.

    Raises ``LogSourceError`` (one-line message) when the source is not a readable text log.
    """
    source = str(path)
    if not fast:
        with open_log(path) as stream, _read_failures(source):
            return parse_lines(stream, source=source, fast=False)
    log = LogFile(source)
    events = list(events_of(log.items()))
    return ParsedLog(
        source=source, events=events, counts=log.counts, physical_lines=log.physical_lines
    )


@contextmanager
def _read_failures(path: str) -> Iterator[None]:
    """A failure to read the log, said in one line."""
    try:
        yield
    except (OSError, EOFError) as error:
        raise LogSourceError(f"{path}: read failed ({error})") from error


# Items between two progress reports: a report costs a system call.
_ITEMS_PER_REPORT = 4096


def _reporting(
    items: Generator[Item, None, Place], stream: BinaryIO, report: Callable[[int], None]
) -> Generator[Item, None, Place]:
    """``items``, reporting the file's read position to ``report`` every so many items (the
    position of the file itself, beneath any buffer or decompression)."""
    try:
        descriptor: int | None = stream.fileno()
    except (OSError, ValueError):
        descriptor = None

    def position() -> int | None:
        if descriptor is None:
            return None
        try:
            return os.lseek(descriptor, 0, os.SEEK_CUR)
        except OSError:  # a pipe: no position
            return None

    count = 0
    while True:
        try:
            item = next(items)
        except StopIteration as end:
            done = position()
            if done is not None:
                report(done)
            return end.value  # type: ignore[no-any-return]
        yield item
        count += 1
        if count % _ITEMS_PER_REPORT == 0 and (done := position()) is not None:
            report(done)


__all__ = ["LogFile", "parse_file"]
