"""Parse a large log in pieces, in worker processes, with the same result as one pass.

Parsing a record never looks at another record (``trtlog.parse.records``), so a log can be cut
before any line that opens a record: a line with an envelope of its own, whose bare lines
follow it. Each worker reads its piece from the file, splits it into records and parses them;
the main process takes the pieces back in order, runs the one sequential pass that links them
(``trtlog.parse.fold``) and hands the items on. That pass and the table builders after it are
the main process's alone, so it is the busiest: ``jobs`` counts it as one of the parsing
processes (``jobs - 1`` workers), and it parses a piece itself whenever the next result is not
ready, which also spares that piece's copying between processes. Only a few pieces are in
flight at a time, so memory stays bounded however large the log is.

Standard input and gzip files cannot be cut without reading them first; they are parsed in
one pass (standard input is spooled to a file by the commands that parse it twice).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import BinaryIO, overload

from trtlog.parse import StreamItems
from trtlog.parse.announced import announces
from trtlog.parse.collection import rare_collections
from trtlog.parse.envelope import NO_ENVELOPE, split_envelope
from trtlog.parse.envelope_cache import EnvelopeCache
from trtlog.parse.fold import Place, fold
from trtlog.parse.reader import LogSourceError, numbered_segments, open_log
from trtlog.parse.records import LineCounts
from trtlog.parse.rows import Item
from trtlog.parse.transport import pack, unpack
from trtlog.processes import die_with_parent, prepare

# Pieces this size keep every worker busy and each result small; a log under two pieces is
# parsed in one pass (starting workers would cost more than it saves).
PIECE_BYTES = 8 << 20
# The first piece is parsed here before the workers are forked (``_linked_pieces``), while no
# other core parses: it is kept just large enough to warm the parser (a first MB meets most of
# the lexer's states), so that the workers do not wait long to start.
FIRST_PIECE_BYTES = 1 << 20
# How far past a cut point to look for a line that opens a record.
_SEARCH_BYTES = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"


# More processes than this do not parse one log faster: from about four jobs on, this process
# (which links the pieces, feeds the table builders and builds the tables) is busy all the
# time, and further workers only wait or compete with it.
MOST_USEFUL_JOBS = 8


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS and Windows
        return max(1, os.cpu_count() or 1)


def default_parse_jobs() -> int:
    """The processes that parse one log unless told: the cores, at most ``MOST_USEFUL_JOBS``."""
    return min(default_jobs(), MOST_USEFUL_JOBS)


@dataclass(frozen=True)
class Piece:
    """Bytes ``start`` to ``end`` of a log, whose first line is line ``first_line``."""

    start: int
    end: int
    first_line: int


@dataclass
class PieceResult:
    """A piece's records parsed but not yet linked, and how its lines were classified."""

    items: list[Item]
    counts: LineCounts
    lines: int


@dataclass
class ParallelParse:
    """The items of one log, parsed by ``jobs`` processes (this one and ``jobs - 1`` workers);
    after the items have been read, ``counts`` and ``physical_lines`` hold the whole log's
    figures.

    ``once_forked`` is called once the workers have started, where there are any: work this
    process would otherwise do while no worker runs (the table builders import pandas there,
    after the fork, so that the workers neither wait for nor carry it).

    ``on_progress`` is called now and then with how many bytes of the file have been read
    (of a gzip file: its compressed bytes), for a progress bar."""

    path: str
    jobs: int
    # None: ``PIECE_BYTES``.
    piece_bytes: int | None = None
    once_forked: Callable[[], object] | None = None
    on_progress: Callable[[int], None] | None = None
    counts: LineCounts = field(default_factory=LineCounts)
    physical_lines: int = 0
    # The (run, build, strategy) the log ended in, once read (see ``fold``).
    last_place: Place = (None, None, None)

    def items(self) -> Iterator[Item]:
        """The log's items in order, linked by the fold. Raises ``LogSourceError`` when the log
        cannot be read."""
        with rare_collections():
            yield from self._items()

    def _items(self) -> Iterator[Item]:
        with open_log(self.path) as stream:
            size = self.piece_bytes or PIECE_BYTES
            pieces = _numbered_pieces(self.path, size) if self.jobs > 1 else None
            if not pieces or len(pieces) < 2:
                yield from self._one_pass(stream)
                return
        try:
            self.last_place = yield from fold(self._linked_pieces(pieces))
        except BrokenProcessPool as error:
            raise LogSourceError(f"{self.path}: a parsing worker process died") from error

    def _one_pass(self, stream: BinaryIO) -> Iterator[Item]:
        items = StreamItems()
        folded = items.folded(stream)
        if self.on_progress is not None:
            folded = _reporting(folded, stream, self.on_progress)
        try:
            self.last_place = yield from folded
        except (OSError, EOFError) as error:
            raise LogSourceError(f"{self.path}: read failed ({error})") from error
        self.counts, self.physical_lines = items.parser.counts, items.physical_lines

    def _linked_pieces(self, pieces: Sequence[Piece]) -> Iterator[Item]:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        workers = self.jobs - 1
        # The first piece is parsed before the workers start, so that they are forked with the
        # parser it has warmed: the grammar's lexer builds a scanner for each state when it is
        # first met, and the first piece (the options, the network, the first layers' tuning)
        # meets most of them.
        first = parse_piece(self.path, pieces[0])
        prepare()
        with (
            tempfile.TemporaryDirectory(prefix="trtlog-pieces-") as folder,
            ProcessPoolExecutor(
                max_workers=workers,
                mp_context=context,
                initializer=die_with_parent,
                initargs=(os.getpid(),),
            ) as pool,
        ):
            ahead = _PiecesAhead(self.path, pieces, pool, 4 * workers, folder, first)
            for index in range(len(pieces)):
                result = ahead.take(index)
                if index == 0 and self.once_forked is not None:
                    # Taking the first piece handed the next ones to the pool, which forked.
                    self.once_forked()
                self._add_counts(result)
                yield from result.items
                if self.on_progress is not None:
                    self.on_progress(pieces[index].end)

    def _add_counts(self, result: PieceResult) -> None:
        self.physical_lines += result.lines
        total, piece = self.counts, result.counts
        for name in (f.name for f in fields(LineCounts)):
            mine, theirs = getattr(total, name), getattr(piece, name)
            if isinstance(mine, dict):
                for key, count in theirs.items():
                    mine[key] = mine.get(key, 0) + count
            elif isinstance(mine, list):
                # Style spans: a piece's first joins the last before it where one pass would.
                for span in theirs:
                    if mine and mine[-1][2] == span[2]:
                        mine[-1][1] = span[1]
                        mine[-1][3] += span[3]
                    else:
                        mine.append(list(span))
            else:
                setattr(total, name, mine + theirs)


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


class _PiecesAhead:
    """The pieces' results in order: workers parse the pieces ahead, and this process parses
    one itself whenever the next result is not ready yet (instead of waiting, and with no
    copying between processes), so that it is never idle and the workers never wait."""

    def __init__(
        self,
        path: str,
        pieces: Sequence[Piece],
        pool: ProcessPoolExecutor,
        in_flight: int,
        folder: str,
        first: PieceResult,
    ) -> None:
        self._path = path
        self._folder = folder
        self._pieces = pieces
        self._pool = pool
        self._in_flight = in_flight
        self._submitted: dict[int, Future[str]] = {}
        self._parsed_here: dict[int, PieceResult] = {0: first}
        # The first piece neither submitted nor parsed here.
        self._next = 1

    def take(self, index: int) -> PieceResult:
        self._submit()
        future = self._submitted.pop(index, None)
        if future is None:
            if index in self._parsed_here:
                return self._parsed_here.pop(index)
            self._next = max(self._next, index + 1)
            return parse_piece(self._path, self._pieces[index])
        # Parse later pieces here while the worker is still at this one (a bounded number).
        while not future.done() and len(self._parsed_here) < 2 * self._in_flight:
            if self._next < len(self._pieces):
                self._parsed_here[self._next] = parse_piece(self._path, self._pieces[self._next])
                self._next += 1
            elif not self._take_back(index):
                break
        if future.cancel():
            return parse_piece(self._path, self._pieces[index])
        return _read_result(future.result())

    def _take_back(self, index: int) -> bool:
        """Parse here the last piece after ``index`` that was submitted but that no worker has
        started yet; False when there is none.

        Once every piece has been handed out, this process would otherwise wait for the
        workers' last pieces one after another: on the 10.x 200 MB log with two jobs it waited
        0.4 s at the end of a 6.4 s parse.
        """
        for later in sorted(self._submitted, reverse=True):
            if later > index and self._submitted[later].cancel():
                del self._submitted[later]
                self._parsed_here[later] = parse_piece(self._path, self._pieces[later])
                return True
        return False

    def _submit(self) -> None:
        while len(self._submitted) < self._in_flight and self._next < len(self._pieces):
            self._submitted[self._next] = self._pool.submit(
                _parse_piece_to_file, self._path, self._pieces[self._next], self._folder
            )
            self._next += 1


def parse_piece(path: str, piece: Piece) -> PieceResult:
    """Parse one piece into its records' items (the worker's job)."""
    with open(path, "rb") as stream:
        stream.seek(piece.start)
        data = stream.read(piece.end - piece.start)
    reader = StreamItems(first_line=piece.first_line)
    with rare_collections():
        items = list(reader.of_chunks((data,)))
    return PieceResult(items, reader.parser.counts, reader.physical_lines)


def _parse_piece_to_file(path: str, piece: Piece, folder: str) -> str:
    """Parse a piece in a worker and leave the result in a file; its name goes back.

    A result of several MB sent back through the pool's pipe is read by the main process in
    pipe-sized pieces, each waiting for the interpreter lock its busy main thread holds: the
    worker stalls on the write. Read from a file, it comes back in one call.
    """
    result = parse_piece(path, piece)
    name = os.path.join(folder, f"{piece.start}.pickle")
    with open(name, "wb") as stream:
        sent = (pack(result.items), result.counts, result.lines)
        pickle.dump(sent, stream, protocol=pickle.HIGHEST_PROTOCOL)
    return name


def _read_result(name: str) -> PieceResult:
    with open(name, "rb") as stream:
        data = stream.read()
    os.remove(name)
    packed, counts, lines = pickle.loads(data)
    return PieceResult(unpack(packed), counts, lines)


def cut(path: str, piece_bytes: int | None = None) -> list[Piece] | None:
    """Where to cut the log into pieces of about ``piece_bytes``; None when it cannot be cut
    (not a plain file, compressed, or too small to be worth it)."""
    pieces = _numbered_pieces(path, piece_bytes)
    return None if pieces is None else list(pieces)


def _numbered_pieces(path: str, piece_bytes: int | None = None) -> _NumberedPieces | None:
    """``cut``, with each piece's first line counted only when the piece is first asked for."""
    piece_bytes = piece_bytes or PIECE_BYTES
    file = Path(path)
    if path == "-" or not file.is_file():
        return None
    size = file.stat().st_size
    if size < 2 * piece_bytes:
        return None
    with file.open("rb") as stream:
        if stream.read(2) == _GZIP_MAGIC:
            return None
        envelopes = EnvelopeCache()
        # Lines before the first envelope may be reclassified by what follows them
        # (``_record_events``): the first piece holds them and the first envelope.
        first_opening = _next_opening(stream, 0, envelopes, size)
        if first_opening is None:
            return None
        starts = [0]
        target = max(min(piece_bytes, FIRST_PIECE_BYTES), first_opening + 1)
        while target < size:
            opening = _next_opening(stream, target, envelopes, size)
            if opening is None:
                break
            if opening > starts[-1]:
                starts.append(opening)
            target = opening + piece_bytes
    return _NumberedPieces(path, starts, size)


def _next_opening(stream: BinaryIO, offset: int, envelopes: EnvelopeCache, size: int) -> int | None:
    """The offset of the first line at or after ``offset`` (at a line start, or after the next
    newline) that opens a record; None if none does within reach."""
    stream.seek(offset)
    position = offset
    if offset > 0:
        stream.seek(offset - 1)
        if stream.read(1) != b"\n":
            skipped = stream.readline()
            position = offset + len(skipped)
    limit = min(size, offset + _SEARCH_BYTES)
    previous = _line_before(stream, position)
    while position < limit:
        line = stream.readline()
        if not line:
            return None
        # A line after one that announces a list on it is parsed with what came before.
        if _opens_record(line, envelopes) and not _announces(previous, envelopes):
            return position
        position += len(line)
        previous = line
    return None


def _line_before(stream: BinaryIO, position: int) -> bytes:
    """The line that ends just before ``position`` (a line start), up to 4 KB of it; the
    stream is left at ``position``."""
    start = max(0, position - 4096)
    stream.seek(start)
    data = stream.read(position - start)
    stream.seek(position)
    return data[data.rfind(b"\n", 0, len(data) - 1) + 1 :]


def _announces(line: bytes, envelopes: EnvelopeCache) -> bool:
    """Whether ``line`` may announce a list on the line after it (``trtlog.parse.announced``)."""
    text = line.decode("utf-8", errors="replace").rstrip("\r\n")
    if not text:
        return False
    return announces((envelopes.split(text) or split_envelope(text))[1])


def _opens_record(line: bytes, envelopes: EnvelopeCache) -> bool:
    """A plain line (one segment) with an envelope: it cannot belong to the record above."""
    body = line.rstrip(b"\n")
    if body.endswith(b"\r"):
        body = body[:-1]
    if not body.startswith(b"[") or b"\r" in body or b"\x1b" in body:
        return False
    text = body.decode("utf-8", errors="replace")
    segments = list(numbered_segments([text]))
    if len(segments) != 1:
        return False
    split = envelopes.split(text)
    return split is not None and split[0] is not NO_ENVELOPE


class _NumberedPieces(Sequence[Piece]):
    """The pieces between ``starts``, each with the number of its first line.

    A piece's first line is counted when the piece is first asked for, so the newlines of a
    large log are not all counted before its first piece is handed to a worker: counting a
    1 GB log took 0.24-0.37 s, while no worker had started. Pieces are asked for in order
    (``_PiecesAhead`` hands them out so), and each is then counted once."""

    def __init__(self, path: str, starts: list[int], size: int) -> None:
        self._path = path
        self._bounds = [*starts, size]
        self._first_lines = [1]
        self._counter: _NewlineCounter | None = None

    def __len__(self) -> int:
        return len(self._bounds) - 1

    @overload
    def __getitem__(self, index: int) -> Piece: ...
    @overload
    def __getitem__(self, index: slice) -> list[Piece]: ...
    def __getitem__(self, index: int | slice) -> Piece | list[Piece]:
        if isinstance(index, slice):
            return [self[each] for each in range(len(self))[index]]
        index = range(len(self))[index]
        if index >= len(self._first_lines):
            self._count_to(index)
        return Piece(self._bounds[index], self._bounds[index + 1], self._first_lines[index])

    def _count_to(self, index: int) -> None:
        counter = self._counter = self._counter or _NewlineCounter()
        bounds, first_lines = self._bounds, self._first_lines
        with open(self._path, "rb") as stream:
            while len(first_lines) <= index:
                known = len(first_lines) - 1
                lines = counter.count(stream, bounds[known], bounds[known + 1])
                first_lines.append(first_lines[-1] + lines)


class _NewlineCounter:
    """Counts the newlines of stretches of a file, read into one reused buffer.

    Counting with numpy over the buffer took 0.13 s for a 1 GB log where reading it in blocks
    and counting with ``bytes.count`` took 0.85 s. (A memory map would spare the copy, but a
    log truncated while it is read would then end the process with SIGBUS.)
    """

    def __init__(self, size: int = 1 << 22) -> None:
        import numpy as np

        self._buffer = bytearray(size)
        self._view = memoryview(self._buffer)
        self._bytes = np.frombuffer(self._buffer, dtype=np.uint8)

    def count(self, stream: BinaryIO, start: int, end: int) -> int:
        import numpy as np

        stream.seek(start)
        count, left = 0, end - start
        while left > 0:
            # (Files opened "rb" have ``readinto``; ``typing.BinaryIO`` does not list it.)
            read = stream.readinto(self._view[: min(left, len(self._buffer))])  # type: ignore[attr-defined]
            if not read:
                break
            count += int(np.count_nonzero(self._bytes[:read] == ord("\n")))
            left -= read
        return count


__all__ = [
    "FIRST_PIECE_BYTES",
    "MOST_USEFUL_JOBS",
    "PIECE_BYTES",
    "ParallelParse",
    "Piece",
    "cut",
    "default_jobs",
    "default_parse_jobs",
    "parse_piece",
]
