"""The parse pipeline: reader -> envelopes -> records -> grammar -> fold (``trtlog.parse``)."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from typing import BinaryIO

from trtlog.events.base import Event
from trtlog.parse.assembly import Record, assemble_records
from trtlog.parse.fold import Place, fold
from trtlog.parse.items import Item, LineBlock, events_of
from trtlog.parse.reader import LogSourceError, numbered_segments
from trtlog.parse.records import RecordParser
from trtlog.parse.result import ParsedLog
from trtlog.parse.scanner import ClaimedRecords, CoreScanner, byte_chunks

__all__ = [
    "LineCounter",
    "LogSourceError",
    "ParsedLog",
    "StreamItems",
    "iter_events",
    "iter_items",
    "parse_lines",
    "parse_text",
]


class LineCounter:
    """Counts the physical lines it passes on."""

    def __init__(self, lines: Iterable[bytes | str]) -> None:
        self._lines = lines
        self.count = 0

    def __iter__(self) -> Iterator[bytes | str]:
        for line in self._lines:
            self.count += 1
            yield line


def iter_events(
    lines: Iterable[bytes | str], parser: RecordParser | None = None
) -> Iterator[Event]:
    """Stream the folded events of ``lines`` (bytes or text, with or without "\\n")."""
    yield from events_of(iter_items(lines, parser))


def iter_items(lines: Iterable[bytes | str], parser: RecordParser | None = None) -> Iterator[Item]:
    """Like ``iter_events``, with runs of the bulk kinds left as blocks (``trtlog.parse.items``):
    what the table builders read. ``parser.fast``: read by the native core, as a file is;
    otherwise line by line with the grammar alone. Either way a text is read as its UTF-8 bytes
    would be (a lone surrogate is invalid UTF-8, replaced), and a line given with "\\n" inside is
    read as the lines it holds."""
    parser = parser or RecordParser()
    if parser.fast:
        yield from fold(StreamItems(parser).of_chunks(_byte_pieces(_physical_lines(lines))))
        return
    segments = numbered_segments(_physical_lines(lines), split=parser.split_lines)
    records = assemble_records(segments, fast=False)
    yield from fold(_record_events(records, parser))


def _physical_lines(lines: Iterable[bytes | str]) -> Iterator[bytes]:
    """Each physical line of ``lines`` as bytes, without its "\\n"."""
    for line in lines:
        data = line.encode("utf-8", errors="surrogatepass") if isinstance(line, str) else line
        if data.endswith(b"\n"):
            data = data[:-1]
        if b"\n" in data:
            yield from data.split(b"\n")
        else:
            yield data


# Lines are handed to the core in pieces of about this many bytes.
_PIECE_BYTES = 1 << 20


def _byte_pieces(lines: Iterable[bytes]) -> Iterator[bytes]:
    """The lines, each ended by "\\n", joined in pieces of about ``_PIECE_BYTES``."""
    piece: list[bytes] = []
    size = 0
    for line in lines:
        piece.append(line)
        size += len(line) + 1
        if size >= _PIECE_BYTES:
            yield b"\n".join(piece) + b"\n"
            piece.clear()
            size = 0
    if piece:
        yield b"\n".join(piece) + b"\n"


class StreamItems:
    """The items of a log read from a stream in large pieces, runs of tactic timings and
    Myelin trace lines as blocks (``trtlog.parse.scanner``); after they have been read,
    ``physical_lines`` holds the number of lines. The same events as ``iter_items``."""

    def __init__(self, parser: RecordParser | None = None, first_line: int = 1) -> None:
        self.parser = parser or RecordParser()
        if not self.parser.fast:
            raise ValueError(
                "a stream is read by the native core: fast=False reads lines one by one"
            )
        self._scanner = CoreScanner(self.parser.lark, first_line)
        self._scanner.split_lines = self.parser.split_lines

    @property
    def physical_lines(self) -> int:
        return self._scanner.lines

    def of_chunks(self, chunks: Iterable[bytes]) -> Iterator[Item]:
        """Items of the log's bytes, given in pieces of any size."""
        records = assemble_records(self._scanner.scan(chunks))
        return _record_events(records, self.parser)

    def folded(self, stream: BinaryIO) -> Generator[Item, None, Place]:
        """The linked items of a stream's lines; returns the place the log ended in (``fold``)."""
        return fold(self.of_chunks(byte_chunks(stream)))


# Lines before the first envelope are TensorRT's only if the log never uses envelopes (5.x
# trtexec); otherwise they are a program's banner or a human's elision ("......").
_LEADING_LINES_LIMIT = 1000


def _record_events(
    records: Iterable[Record | ClaimedRecords | LineBlock], parser: RecordParser
) -> Iterator[Item]:
    leading: list[Item] | None = []
    for record in records:
        events = parser.parse(record)
        if leading is None:
            yield from events
            continue
        if not parser.seen_envelope and len(leading) < _LEADING_LINES_LIMIT:
            leading.extend(events)
            continue
        if parser.seen_envelope:
            leading = parser.reclassify_as_foreign(leading)
        yield from leading
        yield from events
        leading = None
    if leading:
        yield from leading


def parse_lines(
    lines: Iterable[bytes | str], source: str = "<lines>", fast: bool = True
) -> ParsedLog:
    """Parse a log's lines (``iter_items``); ``fast=False`` parses every line with the grammar
    alone."""
    parser = RecordParser(fast=fast)
    if fast:
        stream = StreamItems(parser)
        items = fold(stream.of_chunks(_byte_pieces(_physical_lines(lines))))
        events = list(events_of(items))
        return ParsedLog(
            source=source, events=events, counts=parser.counts, physical_lines=stream.physical_lines
        )
    counter = LineCounter(_physical_lines(lines))
    events = list(iter_events(counter, parser))
    return ParsedLog(
        source=source, events=events, counts=parser.counts, physical_lines=counter.count
    )


def parse_text(text: str | bytes, source: str = "<text>", fast: bool = True) -> ParsedLog:
    separator = b"\n" if isinstance(text, bytes) else "\n"
    lines = text.split(separator)  # type: ignore[arg-type]
    if lines and not lines[-1]:
        lines.pop()
    return parse_lines(lines, source=source, fast=fast)
