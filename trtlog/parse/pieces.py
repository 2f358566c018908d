"""Where to cut a log into pieces that parse alone (``trtlog.parse.parallel``).

Parsing a record never looks at another record (``trtlog.parse.records``), so a log can be cut
before any line that opens a record: a line with an envelope of its own, whose bare lines follow
it, unless the line before announces a list on the lines under it. Each piece's first line
number is counted only when the piece is first asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, overload

from trtlog import _core
from trtlog.parse.announced import announces
from trtlog.parse.envelope import NO_ENVELOPE, Envelope, split_envelope
from trtlog.parse.envelope_split import envelope_splitter
from trtlog.parse.reader import numbered_segments

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


@dataclass(frozen=True)
class Piece:
    """Bytes ``start`` to ``end`` of a log, whose first line is line ``first_line``."""

    start: int
    end: int
    first_line: int


def cut(path: str, piece_bytes: int | None = None) -> list[Piece] | None:
    """Where to cut the log into pieces of about ``piece_bytes``; None when it cannot be cut
    (not a plain file, compressed, or too small to be worth it)."""
    pieces = numbered_pieces(path, piece_bytes)
    return None if pieces is None else list(pieces)


def numbered_pieces(path: str, piece_bytes: int | None = None) -> NumberedPieces | None:
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
        envelopes = envelope_splitter()
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
    return NumberedPieces(path, starts, size)


def _next_opening(
    stream: BinaryIO, offset: int, envelopes: _core.EnvelopeSplitter[Envelope], size: int
) -> int | None:
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


def _announces(line: bytes, envelopes: _core.EnvelopeSplitter[Envelope]) -> bool:
    """Whether ``line`` may announce a list on the line after it (``trtlog.parse.announced``)."""
    text = line.decode("utf-8", errors="replace").rstrip("\r\n")
    if not text:
        return False
    return announces((envelopes.split(text) or split_envelope(text))[1])


def _opens_record(line: bytes, envelopes: _core.EnvelopeSplitter[Envelope]) -> bool:
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


class NumberedPieces(Sequence[Piece]):
    """The pieces between ``starts``, each with the number of its first line.

    A piece's first line is counted when the piece is first asked for, so the newlines of a
    large log are not all counted before its first piece is handed to a worker (no worker would
    start meanwhile). Pieces are asked for in order
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

    numpy counts over a reused buffer without making a bytes object per block. (A memory map
    would spare the copy, but a
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


__all__ = ["FIRST_PIECE_BYTES", "PIECE_BYTES", "NumberedPieces", "Piece", "cut", "numbered_pieces"]
