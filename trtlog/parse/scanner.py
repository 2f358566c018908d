"""Read a log's bytes through the native core: runs of the frequent forms as blocks, the rest
as numbered lines.

In the verbose log of a 10.x build four lines in five are tactic timings and Myelin tactic-table
rows, hundreds in a row under one timing runner. The core (``trtlog._core``, the Rust crate in
``core/``) splits the lines and takes each such run as a block of columns (a ``RowBlock``);
every other line comes back as text, which this module hands on line by line as
``numbered_segments`` would. A clean line with an envelope, followed by one that opens a record
of its own, is a one-line record: the fast path is tried on it here and what it makes goes on as
a ``ParsedLine`` (format combinations, timing runners, fastest tactics: most other lines of a
build).

The core also claims the one-line records of tactic tuning (timing runners, format combinations,
fastest and chosen tactics, computing costs, skipped runners and tactics, tactic-pruning counts,
kernel names, timing-cache hits): each comes back as its grammar rule and tokens, made into its
item by ``trtlog.parse.claimed``.

The grammar stays the specification. The core's patterns are made of the grammar's terminals,
and a body is claimed only where no terminal that Lark's lexer tries before the form's first one
would match at its start (``core_guards``, read from the parser). ``tests/test_core.py`` runs
the core and the grammar alone on every corpus line and on generated lines, and fails on any
difference.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, BinaryIO

from lark import Lark

from trtlog import _core
from trtlog.events.autotuning import TacticTiming
from trtlog.events.notes import MyelinTrace
from trtlog.parse.claimed import claimed_item
from trtlog.parse.envelope import NO_ENVELOPE, Envelope
from trtlog.parse.envelope_split import envelope_splitter
from trtlog.parse.fast_path import LONGEST_REMEMBERED, FastPath
from trtlog.parse.lexer_order import start_state_terminals
from trtlog.parse.reader import may_embed_timestamp, numbered_segments
from trtlog.parse.rows import Item, RowBlock

# Bytes read from a stream at a time.
_READ_BYTES = 1 << 20
# Per grammar rule the core claims, the terminal the grammar's lexer starts it with: a literal
# as "'" and its text, else the terminal's name.
_FIRST_TERMINALS = {
    "tactic_timing": "_TACTIC_KEYWORD",
    "named_tactic_timing": "'Tactic Name: ",
    "myelin_trace": "MYELIN_PREFIX",
    "fastest_tactic": "'Fastest Tactic: ",
    "runner_profiled": "PROFILED_SUBJECT",
    "timing_runner": "'--------------- Timing Runner: ",
    "format_combination": "'*************** Autotuning format combination: ",
    "reformat_combination": "'*************** Autotuning Reformat:",
    "computing_costs": "'=============== Computing costs for",
    "computing_reformatting_costs": "'=============== Computing reformatting costs",
    "chose_runner": "'>>>>>>>>>>>>>>> Chose Runner Type: ",
    "runner_skipped": "SKIPPED_RUNNER",
    "runner_skipped_for_layer": "_SKIPPING_RUNNER",
    "onnx_importer_trace": "IMPORTER_STEP",
    "onnx_node_io": "ONNX_NODE_NAME",
    "quantization_params": "QUANTIZATION_STEP",
    "layer_removed": "'Removing ",
    "fusion_pass_running": "'Running: ",
    "plugin_registration": "PLUGIN_REGISTRY_VERB",
    "layer_count": "STAGE_NAME",
    "symbolic_shape": "SHAPE_LAYER_KIND",
    "symbolic_shape_tensor": "SHAPE_TENSOR_ROLE",
    "symbolic_shape_dimension": "SHAPE_DIMENSION",
    "layer_memory": "'Layer: ",
    "reformat_layer_added": "'Adding reformat layer: ",
    "foreign_node_metadata": "'ForeignNode ",
    "builder_note": "BUILDER_NOTE_TEXT",
    "phase_duration": "PHASE_NAME",
    "tactic_skipped": "_TACTIC_KEYWORD",
    "only_tactic": "_TACTIC_KEYWORD",
    "tactic_pruning": "PRUNED_LAYER",
    "set_tactic_name": "SET_TACTIC_SUBJECT",
    # A kernel name without a subject starts with the phrase: the core guards it on its own.
    "set_tactic_name_without_subject": "_SET_TACTIC_NAME",
    "timing_cache_hit": "CACHED_SUBJECT",
}
# The start rule of the envelopes the core claims lines in (a library's "[TRT]" tag).
_START_RULE = "message"


class ParsedLine:
    """A line that is a record of its own, already made into its item by the fast path."""

    __slots__ = ("body", "envelope", "item")

    def __init__(self, envelope: Envelope, body: str, item: Item) -> None:
        self.envelope = envelope
        self.body = body
        self.item = item


class ClaimedRecords:
    """Consecutive one-line records in one envelope that the core claimed, made into their
    items (``trtlog.parse.claimed``): lines ``first_line`` onwards, one item each."""

    __slots__ = ("envelope", "first_line", "items")

    def __init__(self, envelope: Envelope, first_line: int, items: list[Item]) -> None:
        self.envelope = envelope
        self.first_line = first_line
        self.items = items


# What the scanner hands on: (line number, segment) for a line read one by one, a line parsed
# already, records the core claimed, or a block.
Scanned = tuple[int, str] | ParsedLine | ClaimedRecords | RowBlock


def byte_chunks(stream: BinaryIO, size: int = _READ_BYTES) -> Iterator[bytes]:
    """The stream's bytes, a piece at a time."""
    while data := stream.read(size):
        yield data


@cache
def core_guards(lark: Lark) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per form the core claims, the patterns of the terminals Lark's lexer tries before the
    form's first terminal at the start of a message (in the lexer's order, which is the
    parser's own): a body one of them matches at its start is not the form's, whatever follows.
    Patterns are Python's; the core widens what Rust reads differently (``grammar.rs``)."""
    terminals = start_state_terminals(lark, _START_RULE)
    names = [
        "'" + str(terminal.pattern.value) if terminal.pattern.type == "str" else terminal.name
        for terminal in terminals
    ]
    guards: list[tuple[str, tuple[str, ...]]] = []
    for form, first in _FIRST_TERMINALS.items():
        before = terminals[: names.index(first)] if first in names else None
        if before is None:
            # The grammar no longer starts the form this way: the core must not claim it.
            guards.append((form, ("(",)))
            continue
        guards.append((form, tuple(_widened(t.pattern.to_regexp()) for t in before)))
    return tuple(guards)


@cache
def shared_guards(lark: Lark) -> _core.Guards:
    """``core_guards`` compiled once per process, for every scanner of the grammar."""
    return _core.Guards([(form, list(patterns)) for form, patterns in core_guards(lark)])


def _widened(pattern: str) -> str:
    return _core.widened(pattern)


class CoreScanner:
    """Reads bytes into blocks and numbered segments; ``lines`` counts physical lines."""

    def __init__(self, fast_path: FastPath, lark: Lark, first_line: int = 1) -> None:
        self._fast_path = fast_path
        self._core = _core.Scanner(shared_guards(lark), first_line)
        self._envelopes = envelope_splitter()
        # The lines that hold more than one segment (``numbered_segments``).
        self.split_lines: set[int] = set()

    @property
    def lines(self) -> int:
        return int(self._core.lines)

    def scan(self, chunks: Iterable[bytes]) -> Iterator[Scanned]:
        for chunk in chunks:
            for piece in self._core.feed(chunk):
                yield from self._piece(piece)
        for piece in self._core.finish():
            yield from self._piece(piece)

    def _piece(self, piece: tuple[Any, ...]) -> Iterator[Scanned]:
        kind = piece[0]
        if kind == 0:
            _, first_line, text, record_follows = piece
            yield from self._lines(first_line, text, record_follows)
            return
        envelope = self._envelope(piece[2])
        if kind == 3:
            _, first_line, _, records = piece
            stamp = (envelope.timestamp, envelope.severity, envelope.producer)
            items = [
                claimed_item(record, (line, line, *stamp))
                for line, record in enumerate(records, start=first_line)
            ]
            yield ClaimedRecords(envelope, first_line, items)
            return
        if kind == 1:
            _, first_line, _, tactics, times, kernels, parameters = piece
            yield RowBlock(
                TacticTiming,
                first_line,
                envelope,
                _array("Q", tactics),
                _array("d", times),
                kernels=kernels,
                parameters=parameters,
            )
            return
        _, first_line, _, count, bodies = piece
        yield RowBlock(
            MyelinTrace,
            first_line,
            envelope,
            array("Q"),
            array("d"),
            trace=bodies,
            trace_lines=count,
        )

    def _envelope(self, prefix: str) -> Envelope:
        split = self._envelopes.split(prefix + "Tactic")
        # The core only claims lines in envelopes it splits itself (trtexec's, a Python
        # logger's): anything else is a disagreement the tests would show.
        assert split is not None and split[0] is not NO_ENVELOPE, prefix
        return split[0]

    def _lines(
        self, number: int, text: str, record_follows: bool
    ) -> Iterator[tuple[int, str] | ParsedLine]:
        """The lines of ``text``, the first numbered ``number``; ``record_follows``: whether the
        line after them opens a record.

        A clean line with an envelope, followed by one that opens a record of its own, is a
        one-line record: the fast path is tried on it here (as ``RecordParser`` would) and its
        item handed on as a ``ParsedLine``; every other line goes on as a numbered segment."""
        lines = text.split("\n")
        message = self._fast_path.message
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

    def _opening(self, line: str) -> tuple[Envelope, str] | None:
        """The envelope and body of a line that is one clean segment opening a record."""
        if "\r" in line or "\x1b" in line or may_embed_timestamp(line):
            return None
        split = self._envelopes.split(line)
        if split is None or split[0] is NO_ENVELOPE:
            return None
        return split


def _array(typecode: str, data: bytes) -> array[Any]:
    values = array(typecode)
    values.frombytes(data)
    return values


__all__ = ["ClaimedRecords", "CoreScanner", "ParsedLine", "Scanned", "byte_chunks", "core_guards"]
