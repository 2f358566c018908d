"""Turn the bytes of a log into numbered text segments.

Logs arrive with CRLF line ends, lone-CR progress redraws, ANSI colour and cursor codes, invalid
UTF-8 and, where a progress line was overwritten, two records run together on one line. This
module undoes all of that; it never raises on content.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, cast

from trtlog.grammars import terminal_pattern

# CSI sequences (colours, cursor moves, line erases), OSC sequences, and two-byte escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
# The envelope grammar's TIMESTAMP: a trtexec/Python timestamp that starts a new record in the
# middle of a line (a progress line that was overwritten leaves "...builder pas[08/30/2026-04:08:
# 32] [08/30/...] [I] ..."), found from its opening "[" (much faster than trying a lookbehind at
# every place): lines naming ONNX nodes ("/backbone/layer1/conv1/Conv") have the slashes of one.
_TIMESTAMP = re.compile(terminal_pattern("TIMESTAMP"))
_EMBEDDED_TIMESTAMP = re.compile(f"(?<=.)(?={_TIMESTAMP.pattern})")
# A run's opening or closing banner after a prefix that a CI runner or a wrapper writes before
# every line ("2025-03-01T10:00:00.1234567Z &&&& RUNNING ...", "2023-12-04_08:50:03#&&&& PASSED
# ..."): the banner is a record of its own, as a timestamp after such a prefix starts one.
# (run.lark's run_header and run_footer.)
_EMBEDDED_BANNER = re.compile(f"(?<=.)(?=&&&& (?:RUNNING|{terminal_pattern('RUN_STATUS')}) )")
# ROS 2's launch writes a node's name before each of its lines, and CI runners their stamp: the
# wrapper and the record after it are one line (the envelope grammar's wrapped_envelope).
_WRAPPER = re.compile(f"{terminal_pattern('LAUNCH_PREFIX')}|{terminal_pattern('WRAPPER_STAMP')}")
_SNIFF_BYTES = 8192


class LogSourceError(Exception):
    """The log cannot be read: missing, a directory, binary, or not a readable gzip file."""


def clean_line(raw: bytes | str) -> list[str]:
    """One physical line (without its "\\n") as the list of text segments it holds."""
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    if text.endswith("\r"):
        text = text[:-1]
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    # A lone CR redraws the line in a terminal; every redraw is kept as a segment of its own.
    pieces = text.split("\r") if "\r" in text else [text]
    segments: list[str] = []
    for piece in pieces:
        if "[" in piece and _TIMESTAMP.search(piece, 1):
            parts = _EMBEDDED_TIMESTAMP.split(piece)
        elif "&&&& " in piece and _EMBEDDED_BANNER.search(piece):
            parts = _EMBEDDED_BANNER.split(piece, maxsplit=1)
        else:
            segments.append(piece)
            continue
        if len(parts) > 1 and _WRAPPER.fullmatch(parts[0]):
            parts[:2] = [parts[0] + parts[1]]
        segments.extend(parts)
    return segments


def may_embed_timestamp(text: str) -> bool:
    """Whether a timestamp starts after the first character (``clean_line`` splits the line
    there). Slashes are counted first: most lines have none."""
    return text.count("/") >= 2 and _TIMESTAMP.search(text, 1) is not None


def numbered_segments(
    lines: Iterable[bytes | str], first: int = 1, split: set[int] | None = None
) -> Iterator[tuple[int, str]]:
    """(1-based physical line number, segment) for every segment of every line; ``first`` is
    the number of the first line (a piece of a larger log). The number of each line that holds
    more than one segment is added to ``split`` before its segments are handed on (its
    segments are then counted as one line: ``trtlog.parse.records.RecordParser``)."""
    for number, raw in enumerate(lines, start=first):
        text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        if text.endswith("\n"):
            text = text[:-1]
        # Most lines are one clean segment; the rest go through clean_line.
        if "\r" in text or "\x1b" in text or may_embed_timestamp(text) or text.find("&&&& ", 1) > 0:
            segments = clean_line(text)
            if split is not None and len(segments) > 1:
                split.add(number)
            for segment in segments:
                yield number, segment
        else:
            yield number, text


def _looks_binary(head: bytes) -> bool:
    """Judged by the share of control bytes (NUL included) in the first bytes: a build whose
    child printed a stray NUL is still a log; an engine, an archive or zeros are not."""
    controls = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 12, 13, 27))
    return len(head) > 0 and controls / len(head) > 0.05


def open_log(source: str | os.PathLike[str]) -> BinaryIO:
    """Open a log for reading: a path, ``-`` for standard input, or a gzip file.

    Raises ``LogSourceError`` with a one-line reason when the source cannot be a text log.
    """
    if str(source) == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise LogSourceError("standard input is closed: there is no log to read")
        stream: BinaryIO = sys.stdin.buffer
        name = "standard input"
    else:
        path = Path(source)
        name = str(path)
        if not path.exists():
            raise LogSourceError(f"{name}: no such file")
        if path.is_dir():
            raise LogSourceError(f"{name}: is a directory, not a log file")
        try:
            stream = path.open("rb")
        except OSError as error:
            raise LogSourceError(f"{name}: cannot be read ({error.strerror})") from error
    buffered: io.BufferedReader = (
        stream
        if isinstance(stream, io.BufferedReader)
        else io.BufferedReader(cast(io.RawIOBase, stream))
    )
    head = buffered.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
    if head[:2] == b"\x1f\x8b":
        unzipped = gzip.GzipFile(fileobj=buffered)
        try:
            head = unzipped.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
        except (OSError, EOFError) as error:
            raise LogSourceError(f"{name}: not a readable gzip file ({error})") from error
        buffered = io.BufferedReader(cast(io.RawIOBase, unzipped))
    if _looks_binary(head):
        raise LogSourceError(f"{name}: looks like a binary file, not a TensorRT log")
    return buffered
