"""Read a log's bytes through the native core: runs of the frequent forms as blocks, the rest
as numbered lines.

In the verbose log of a 10.x build four lines in five are tactic timings and Myelin tactic-table
rows, hundreds in a row under one timing runner. The core (``trtlog._core``, the Rust crate in
``core/``) splits the lines and takes each such run as a block of columns (a ``LineBlock``);
every other line comes back as text, which this module hands on line by line as
``numbered_segments`` would.

The core also claims the one-line records of tactic tuning (timing runners, format combinations,
fastest and chosen tactics, computing costs, skipped runners and tactics, tactic-pruning counts,
kernel names, timing-cache hits), the layers, notes and phases around them (per-layer memory,
reformat layers added, ForeignNode metadata, the builder's notes, phase durations), and trtexec's
trace averages, per-layer profile rows and option lines in its own envelope ("[ts] [I] Average
on 10 runs - ...", "[ts] [I] Precision: FP32"): each comes back as its grammar rule and tokens,
made into its item by ``trtlog.parse.claimed``. It reads a progress monitor's bars, lines
without an envelope, too (``BareLines``): their tokens are used only where the grammar leaves
such a line to be parsed on its own (``trtlog.parse.assembly``). A one-line record that the
core could not claim as it read it (the scanner claims lines only in the envelopes the frequent
forms come in, and never a line that held escape codes) is claimed by the record parser with
``MessageClaims`` once Python has split its envelope: the same core, the same guards.

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
from trtlog.parse.items import Item, LineBlock
from trtlog.parse.lexer_starts import start_state_terminals, terminal_name
from trtlog.parse.reader import numbered_segments

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
    "progress_update": "PROGRESS_BAR",
}
# The start rule of the envelopes the core claims lines in (a library's "[TRT]" tag).
_START_RULE = "message"
# The same for trtexec's own messages, claimed in its own envelope at INFO ("[ts] [I] "), which
# the grammar reads with another start rule: its lexer tries other terminals first there.
_TRTEXEC_FIRST_TERMINALS = {
    "trace_average": "'Average on ",
    "profile_row": "PROFILE_NAME_FIRST",
    "profile_row_numbers_first": "PROFILE_NUMBERS_FIRST",
    # The lowest priority: every other terminal of the start rule is a guard.
    "option_line": "OPTION_KEY",
}
_FIRST_TERMINALS_BY_START = {
    _START_RULE: _FIRST_TERMINALS,
    "trtexec_message": _TRTEXEC_FIRST_TERMINALS,
}


class ClaimedRecords:
    """Consecutive one-line records in one envelope that the core claimed, made into their
    items (``trtlog.parse.claimed``): lines ``first_line`` onwards, one item each."""

    __slots__ = ("envelope", "first_line", "items")

    def __init__(self, envelope: Envelope, first_line: int, items: list[Item]) -> None:
        self.envelope = envelope
        self.first_line = first_line
        self.items = items


class BareLines:
    """Consecutive lines without an envelope that the core read (a progress monitor's bars):
    lines ``first_line`` onwards, each its text as the reader cleans it and its record's rule and
    tokens. Where each goes, and whether it is parsed on its own, is the record parser's to
    decide (``trtlog.parse.assembly``)."""

    __slots__ = ("first_line", "records")

    def __init__(self, first_line: int, records: list[tuple[Any, ...]]) -> None:
        self.first_line = first_line
        self.records = records

    def lines(self) -> Iterator[tuple[int, str, tuple[Any, ...]]]:
        """(line number, text, record) of each line; the text is the record's last token."""
        for number, record in enumerate(self.records, start=self.first_line):
            yield number, record[-1], record


# What the scanner hands on: (line number, segment) for a line read one by one, records the core
# claimed, bare lines it read, or a block.
Scanned = tuple[int, str] | ClaimedRecords | BareLines | LineBlock


def byte_chunks(stream: BinaryIO, size: int = _READ_BYTES) -> Iterator[bytes]:
    """The stream's bytes, a piece at a time."""
    while data := stream.read(size):
        yield data


@cache
def core_guards(lark: Lark) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per form the core claims, the patterns of the terminals Lark's lexer tries before the
    form's first terminal at the start of a message (in the lexer's order, which is the
    parser's own): a body one of them matches at its start is not the form's, whatever follows.
    Each form's are read for the start rule its envelope's messages are parsed with. Patterns
    are Python's; the core widens what Rust reads differently (``grammar.rs``)."""
    guards: list[tuple[str, tuple[str, ...]]] = []
    for start, first_terminals in _FIRST_TERMINALS_BY_START.items():
        terminals = start_state_terminals(lark, start)
        names = [terminal_name(terminal) for terminal in terminals]
        for form, first in first_terminals.items():
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


class MessageClaims:
    """One message at a time claimed by the core as it claims a line of its own read: for a
    one-line record that Python split from its envelope (one the scanner does not claim lines
    in, or a line that held escape codes: ``RecordParser``)."""

    def __init__(self, lark: Lark) -> None:
        self._core = _core.Scanner(shared_guards(lark))

    def claim(self, envelope: Envelope, body: str, line: int, trtexec: bool) -> Item | None:
        """The item of the record, or None; ``trtexec``: trtexec's own message."""
        piece = self._core.claim(body, trtexec, line)
        if piece is None:
            return None
        made = _made(piece, envelope)
        return made.items[0] if isinstance(made, ClaimedRecords) else made


class CoreScanner:
    """Reads bytes into blocks and numbered segments; ``lines`` counts physical lines."""

    def __init__(self, lark: Lark, first_line: int = 1) -> None:
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
            _, first_line, text = piece
            yield from numbered_segments(text.split("\n"), first_line, self.split_lines)
        elif kind == 3 and not piece[2]:
            # No envelope: lines under the record above, or records of their own.
            yield BareLines(piece[1], piece[3])
        else:
            yield _made(piece, self._envelope(piece[2]))

    def _envelope(self, prefix: str) -> Envelope:
        split = self._envelopes.split(prefix + "Tactic")
        # The core only claims lines in envelopes it splits itself (trtexec's, a Python
        # logger's): anything else is a disagreement the tests would show.
        assert split is not None and split[0] is not NO_ENVELOPE, prefix
        return split[0]


def _made(piece: tuple[Any, ...], envelope: Envelope) -> ClaimedRecords | LineBlock:
    """Claimed records, or a block, of a piece the core made of lines in ``envelope``."""
    kind = piece[0]
    if kind == 3:
        _, first_line, _, records = piece
        stamp = (envelope.timestamp, envelope.severity, envelope.producer)
        items = [
            claimed_item(record, (line, line, *stamp))
            for line, record in enumerate(records, start=first_line)
        ]
        return ClaimedRecords(envelope, first_line, items)
    if kind == 1:
        _, first_line, _, tactics, times, kernels, parameters = piece
        return LineBlock(
            TacticTiming,
            first_line,
            envelope,
            _array("Q", tactics),
            _array("d", times),
            kernels=kernels,
            parameters=parameters,
        )
    _, first_line, _, count, bodies = piece
    return LineBlock(
        MyelinTrace,
        first_line,
        envelope,
        array("Q"),
        array("d"),
        trace=bodies,
        trace_lines=count,
    )


def _array(typecode: str, data: bytes) -> array[Any]:
    values = array(typecode)
    values.frombytes(data)
    return values


__all__ = [
    "BareLines",
    "ClaimedRecords",
    "CoreScanner",
    "MessageClaims",
    "Scanned",
    "byte_chunks",
    "core_guards",
]
