"""Find runs of tactic timings and Myelin trace lines in a log's text and take each as one block.

In the verbose log of a 10.x build four lines in five are tactic timings (``Tactic Name: <kernel>
Tactic: 0x... Time: 0.0123``, or 8.x's ``Tactic: 0x... Time: ...``) and Myelin's tactic
tables (`` (foreignNode) ...``), hundreds in a row under one timing runner. Reading them line by
line, even through the fast path, costs more than everything else the parser does. Here a
regular expression finds each run of such lines that share one envelope (one second's stamp)
in a whole piece of text, a second one checks every line of the run at once, and the run goes
on as one ``RowBlock`` whose ``rows()`` are exactly what the fast path makes of the lines one by
one (``tests/test_blocks.py`` checks that on every corpus log). Every other line, and every
run that fails a check, is handed on as text, line by line, as ``numbered_segments`` would.

A run is only taken where nothing the line-by-line reading does could turn out differently:
- each line is one record: it has the envelope of every line of the run, the line after the
  run opens a record of its own (so no bare line is a continuation of the run's last line);
- each line is one clean segment (no CR, no ANSI escape, no timestamp inside it);
- the grammar's lexer would start each body with the fast path's terminal
  (``StartConflicts.clear_all``; phrases that would make it start otherwise but that no line
  of the form can hold are not searched for, ``trtlog.parse.containment``);
- each body matches the fast path's expression for its form in full.

Between runs, a clean line with an envelope whose next line opens a record of its own is a
one-line record whatever the parser does: the fast path is tried on it as the scanner reads it,
and what it makes goes on as a ``ParsedLine`` (format combinations, timing runners, fastest and
chosen tactics: most other lines of a build), sparing the record assembly a line costs.

In 7.x-8.5 logs a kernel-name line ("<layer> Set Tactic Name: <kernel> Tactic: <id>") comes
before most timings; such lines join the run, each parsed by the fast path as it would be on
its own, so that the run is not cut into blocks of one line.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO, cast

from trtlog.events.autotuning import SetTacticName, TacticTiming
from trtlog.events.base import TacticId
from trtlog.events.notes import MyelinTrace
from trtlog.parse.envelope import NO_ENVELOPE, Envelope
from trtlog.parse.envelope_cache import EnvelopeCache
from trtlog.parse.fast_forms import KERNEL_PARAMETERS, NUMBER, TACTIC_ID
from trtlog.parse.fast_path import LONGEST_REMEMBERED, FastPath
from trtlog.parse.reader import may_embed_timestamp, numbered_segments
from trtlog.parse.rows import Item, Row, RowBlock

_STAMP = r"\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\]"
# The envelopes of tactic timings: trtexec's (8.x-11.x) and the Python API's, both VERBOSE.
_PREFIX = rf"{_STAMP} \[V\] \[TRT\] |{_STAMP} \[TRT\] \[V\] "
# A line that opens a record of its own (``EnvelopeCache.split`` gives it an envelope).
_OPENS_RECORD = rf"\n{_STAMP} ?\[(?:[VIWEFXSU!]|TRT|TRT-LLM)\]"
# A run: lines of one form with one envelope, each after the newline that ends the line above.
_RUN = re.compile(
    rf"\n({_PREFIX})(?:"
    r"(?P<named>Tactic Name: [^\n]*(?:\n\1Tactic Name: [^\n]*)*)"
    r"|(?P<plain>(?:Tactic:? (?!Name: )|[^\n]* Set Tactic Name: )[^\n]*"
    r"(?:\n\1(?:Tactic:? (?!Name: )|[^\n]* Set Tactic Name: )[^\n]*)*)"
    r"|(?P<myelin> \([^\n]*(?:\n\1 \([^\n]*)*)"
    rf")(?={_OPENS_RECORD})"
)
# Each body of a run (envelopes removed), in full: the fast path's expressions (``_TACTIC``,
# ``_NAMED_TACTIC``, ``_MYELIN``) less bodies holding what would make their line more than one
# clean segment.
_NAMED_LINE = re.compile(
    rf"^Tactic Name: ([^\s\[\x1b]+)({KERNEL_PARAMETERS})?"
    rf" Tactic: ({TACTIC_ID}) Time: ({NUMBER})$",
    re.M,
)
# In a run holding no whitespace but spaces and newlines, no "[" and no escape (so in every
# run of the logs seen), a kernel name is any text up to a space: the same names as
# ``_NAMED_LINE`` finds, found in a third of the time (sre tests a class holding a category
# member by member at each character). "[^ ]+" may run on past a newline, but then the run has
# fewer matches than lines and is not taken, as with ``_NAMED_LINE`` (``_named_timings``).
_PLAIN_NAMED_LINE = re.compile(
    rf"^Tactic Name: ([^ ]+)({KERNEL_PARAMETERS})? Tactic: ({TACTIC_ID}) Time: ({NUMBER})$",
    re.M,
)
_NOT_IN_PLAIN_NAMES = ("\t", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", "[", "\x1b")
_PLAIN_LINE = re.compile(rf"^Tactic:? ({TACTIC_ID}) [Tt]ime:? ({NUMBER})$", re.M)
_MYELIN_LINE = re.compile(
    r"^ \((?:foreignNode|myelin|Myelin)\)"
    r"([^\n\r\x1b\[]*(?:\[(?!\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\])[^\n\r\x1b\[]*)*)$",
    re.M,
)
# Per form: the terminal the grammar's lexer starts it with, what every body starts with, and
# the expression every body matches in full.
_TERMINALS = {
    "named": ("'Tactic Name: ", ("Tactic Name: ",), _NAMED_LINE),
    "plain": (
        "_TACTIC_KEYWORD",
        tuple(f"Tactic{colon} {first}" for colon in ("", ":") for first in "-0123456789"),
        _PLAIN_LINE,
    ),
    "myelin": ("MYELIN_PREFIX", (" (foreignNode)", " (myelin)", " (Myelin)"), _MYELIN_LINE),
}
_STAMP_IN = re.compile(_STAMP)
# What a Myelin trace line's message starts with (``_MYELIN_LINE``), after the newline before it.
_MYELIN_STARTS = ("\n (foreignNode)", "\n (myelin)", "\n (Myelin)")
_CHUNK_BYTES = 1 << 20
# Kernel names and tactic ids a scanner remembers (``BlockScanner._shared``, ``_values``).
_KNOWN_TEXTS = 100_000


class ParsedLine:
    """A line that is a record of its own, already made into its item by the fast path."""

    __slots__ = ("body", "envelope", "item")

    def __init__(self, envelope: Envelope, body: str, item: Item) -> None:
        self.envelope = envelope
        self.body = body
        self.item = item


# What the scanner hands on: (line number, segment) for a line read one by one, a line parsed
# already, or a block.
Scanned = tuple[int, str] | ParsedLine | RowBlock


def text_chunks(stream: BinaryIO, size: int = _CHUNK_BYTES) -> Iterator[str]:
    """The stream's text in pieces of about ``size`` bytes that end at a line's end (but for
    the last one). Invalid UTF-8 becomes U+FFFD, as when lines are decoded one by one."""
    rest = b""
    while True:
        data = stream.read(size)
        if not data:
            break
        if rest:
            data, rest = rest + data, b""
        end = data.rfind(b"\n") + 1
        if end == 0:
            rest = data
            continue
        rest = data[end:]
        yield data[:end].decode("utf-8", errors="replace")
    if rest:
        yield rest.decode("utf-8", errors="replace")


def _whole_trace(bodies: str, count: int) -> bool:
    """Whether each of the ``count`` lines of ``bodies`` matches ``_MYELIN_LINE`` in full: it
    starts with a Myelin prefix, holds no CR and no escape, and no "[" in it opens a
    timestamp. The same answer as matching every line, without making each line's text (a
    10.x build logs tens of thousands of these lines per layer it hands to Myelin)."""
    if "\r" in bodies or "\x1b" in bodies or _STAMP_IN.search(bodies) is not None:
        return False
    lines = "\n" + bodies
    return sum(lines.count(start) for start in _MYELIN_STARTS) == count


def _named_timings(bodies: str) -> list[tuple[str, str, str, str]]:
    """``_NAMED_LINE.findall(bodies)`` wherever each line of ``bodies`` matches it (so
    wherever a run is taken); otherwise fewer matches than lines, as there."""
    if bodies.isascii() and not any(odd in bodies for odd in _NOT_IN_PLAIN_NAMES):
        return cast("list[tuple[str, str, str, str]]", _PLAIN_NAMED_LINE.findall(bodies))
    return cast("list[tuple[str, str, str, str]]", _NAMED_LINE.findall(bodies))


class BlockScanner:
    """Reads text chunks into blocks and numbered segments; ``lines`` counts physical lines."""

    def __init__(self, fast_path: FastPath, first_line: int = 1) -> None:
        self._fast_path = fast_path
        self._envelopes = EnvelopeCache()
        self._texts: dict[str, str] = {}
        self._tactic_values: dict[str, int] = {}
        self.line = first_line
        self.lines = 0
        # The lines that hold more than one segment (``numbered_segments``).
        self.split_lines: set[int] = set()

    def scan(self, chunks: Iterable[str]) -> Iterator[Scanned]:
        for chunk in chunks:
            yield from self._scan_chunk(chunk)

    def _scan_chunk(self, chunk: str) -> Iterator[Scanned]:
        text = "\n" + chunk
        # ``done``: the position of the newline before the first line not yet handed on.
        done = 0
        for run in _RUN.finditer(text):
            if run.start() > done:
                # The run's first line has an envelope of its own.
                yield from self._lines(text[done + 1 : run.start()], True)
            block = self._block(run)
            if block is None:
                after = text.find("\n", run.end() + 1)
                following = text[run.end() + 1 : after if after >= 0 else len(text)]
                yield from self._lines(run.group()[1:], self._opening(following) is not None)
            else:
                self.line += len(block)
                self.lines += len(block)
                yield block
            done = run.end()
        rest = text[done + 1 :]
        if rest:
            # The chunk ends with a newline (but for a log's unterminated last line).
            yield from self._lines(rest[:-1] if rest.endswith("\n") else rest, False)

    def _lines(self, text: str, record_follows: bool) -> Iterator[tuple[int, str] | ParsedLine]:
        """The lines of ``text``; ``record_follows``: whether the line after it opens a record.

        A clean line with an envelope, followed by one that opens a record of its own, is a
        one-line record: the fast path is tried on it here (as ``RecordParser`` would) and its
        item handed on as a ``ParsedLine``; every other line goes on as a numbered segment."""
        lines = text.split("\n")
        message = self._fast_path.message
        number = self.line
        following = self._opening(lines[0])
        last = len(lines) - 1
        for index, line in enumerate(lines):
            split = following
            if index < last:
                following = self._opening(lines[index + 1])
                follows = following is not None
            else:
                follows = record_follows
            if split is None:
                yield from numbered_segments((line,), number, self.split_lines)
            else:
                envelope, body = split
                # A longer message is not remembered by the fast path: where it is none of
                # the hot forms, the record parser would try it all over again.
                taken = follows and len(body) <= LONGEST_REMEMBERED
                item = message(envelope, body, number) if taken else None
                # A clean line is one segment.
                yield (number, line) if item is None else ParsedLine(envelope, body, item)
            number += 1
        self.line += len(lines)
        self.lines += len(lines)

    def _opening(self, line: str) -> tuple[Envelope, str] | None:
        """The envelope and body of a line that is one clean segment opening a record."""
        if "\r" in line or "\x1b" in line or may_embed_timestamp(line):
            return None
        split = self._envelopes.split(line)
        if split is None or split[0] is NO_ENVELOPE:
            return None
        return split

    def _block(self, run: re.Match[str]) -> RowBlock | None:
        prefix = run.group(1)
        kind = run.lastgroup
        assert kind is not None
        whole = run.group()
        count = whole.count("\n")
        if whole.count(prefix) != count:
            return None
        bodies = whole.replace(prefix, "")[1:]
        split = self._envelopes.split(prefix + "Tactic")
        if split is None:
            return None
        envelope = split[0]
        if kind == "plain" and " Set Tactic Name: " in bodies:
            return self._named_block(envelope, bodies)
        terminal, starts, line = _TERMINALS[kind]
        # Each body is matched against ``line`` in full below before the run is taken.
        if not self._fast_path.clear_all(terminal, starts, bodies, line.pattern):
            return None
        if kind == "myelin":
            if not _whole_trace(bodies, count):
                return None
            return RowBlock(
                MyelinTrace,
                self.line,
                envelope,
                array("Q"),
                array("d"),
                trace=bodies,
                trace_lines=count,
            )
        if kind == "plain":
            found = _PLAIN_LINE.findall(bodies)
            if len(found) != count:
                return None
            tactics, times = zip(*found, strict=True)
            return self._timings(envelope, tactics, times)
        named = _named_timings(bodies)
        if len(named) != count:
            return None
        kernels, parameters, tactics, times = zip(*named, strict=True)
        return self._timings(
            envelope,
            tactics,
            times,
            kernels=cast("list[str | None]", self._shared(kernels)),
            parameters=[value.strip() or None for value in parameters],
        )

    def _timings(
        self, envelope: Envelope, tactics: Sequence[str], times: Iterable[str], **rest: Any
    ) -> RowBlock:
        """A block of tactic timings: ids and times as printed, read as numbers once."""
        return RowBlock(
            TacticTiming,
            self.line,
            envelope,
            self._values(tactics),
            array("d", map(float, times)),
            **rest,
        )

    def _shared(self, texts: Iterable[str]) -> list[str]:
        """``texts`` with each text seen before replaced by the same object: a few thousand
        kernel names fill millions of lines, and a worker's pickled results then hold each
        once."""
        known = self._texts
        if len(known) > _KNOWN_TEXTS:
            known.clear()
        return [known.setdefault(text, text) for text in texts]

    def _values(self, tactics: Sequence[str]) -> array[int]:
        """The tactic ids as printed, as TensorRT's unsigned values (``TacticId``): a few
        thousand ids fill millions of lines, each read once."""
        known = self._tactic_values
        if len(known) > _KNOWN_TEXTS:
            known.clear()
        for text in set(tactics).difference(known):
            known[text] = TacticId.parse(text)
        return array("Q", map(known.__getitem__, tactics))

    def _named_block(self, envelope: Envelope, bodies: str) -> RowBlock | None:
        """A 7.x-8.5 run of timings with kernel-name lines among them: each name line is
        parsed by the fast path as it would be on its own, the timings checked together."""
        timings: list[str] = []
        names: list[Row] = []
        offsets: list[int] = []
        # A line holding a CR, an escape or a stamp is more than one clean segment (a timing
        # line cannot hold one); the others' envelope is the prefix, whatever body follows it.
        if "\r" in bodies or "\x1b" in bodies or _STAMP_IN.search(bodies) is not None:
            return None
        for offset, body in enumerate(bodies.split("\n")):
            if body.startswith("Tactic") and " Set Tactic Name: " not in body:
                timings.append(body)
                continue
            row = self._fast_path.message(envelope, body, self.line + offset)
            if type(row) is not tuple or row[0] is not SetTacticName:
                return None
            names.append(row)
            offsets.append(offset)
        if not timings:
            return None
        text = "\n".join(timings)
        terminal, starts, line = _TERMINALS["plain"]
        if not self._fast_path.clear_all(terminal, starts, text, line.pattern):
            return None
        found = _PLAIN_LINE.findall(text)
        if len(found) != len(timings):
            return None
        tactics, times = zip(*found, strict=True)
        return self._timings(envelope, tactics, times, names=names, name_offsets=offsets)


__all__ = ["BlockScanner", "ParsedLine", "Scanned", "text_chunks"]
