"""Parse a large log in pieces, in worker processes, with the same result as one pass.

Parsing a record never looks at another record, so a log can be cut into pieces that parse
alone (``trtlog.parse.pieces``). Each worker reads its piece from the file, splits it into
records and parses them; the main process takes the pieces back in order, runs the one
sequential pass that links them (``trtlog.parse.fold``) and hands the items on. That pass and
the table builders after it are the main process's alone, so it is the busiest: ``jobs`` counts
it as one of the parsing processes (``jobs - 1`` workers), and it parses a piece itself whenever
the next result is not ready, which also spares that piece's copying between processes. Only a
few pieces are in flight at a time, so memory stays bounded however large the log is.

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
from typing import BinaryIO

from trtlog.parse import StreamItems
from trtlog.parse.collection import rare_collections
from trtlog.parse.fold import Place, fold
from trtlog.parse.line_counts import LineCounts
from trtlog.parse.pieces import Piece, numbered_pieces
from trtlog.parse.reader import LogSourceError, open_log
from trtlog.parse.rows import Item
from trtlog.parse.transport import pack, unpack
from trtlog.processes import die_with_parent, prepare

# More processes than this do not parse one log faster: this process (which links the pieces,
# feeds the table builders and builds the tables) is then busy all the time, and further
# workers only wait or compete with it.
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
    # None: ``trtlog.parse.pieces.PIECE_BYTES``.
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
            pieces = numbered_pieces(self.path, self.piece_bytes) if self.jobs > 1 else None
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

        Once every piece has been handed out, this process would otherwise wait idle for the
        workers' last pieces one after another.
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


__all__ = [
    "MOST_USEFUL_JOBS",
    "ParallelParse",
    "default_jobs",
    "default_parse_jobs",
    "parse_piece",
]
