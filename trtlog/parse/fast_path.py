"""A fast path for the message forms that make up most of a verbose log.

Tactic timings, timing runners, format combinations, fastest and chosen tactics, Myelin's tactic
tables and per-layer memory are over nine lines in ten of a large build's log (with kernel names,
tactic-pruning counts, the builder's notes and phase durations, a few more); trtexec's inference
averages and a progress monitor's bars fill runs of inference and Python builds
(``trtlog.parse.fast_forms_runs``). Parsing them with the grammar costs tens of microseconds a
line; the form parsers of ``trtlog.parse.fast_forms``, a regular expression each, cost a few.
Each one accepts a subset of what its grammar rule accepts and builds the event exactly as that
rule's transformer does, so the grammar stays the specification: ``tests/test_fast_path.py``
runs both on every line of the corpus and on generated lines and fails on any difference. A line
the fast path does not take (or takes no part of) goes to the grammar, so a new form is added to
the grammar first and may be added to ``fast_forms`` later.

Only single-line records are taken here: a record with continuation lines is the grammar's,
which decides how many of them the message spans (the lines it leaves are then offered here one
by one, as the grammar would parse each on its own). And a line is only taken when the grammar's
lexer would start it with the same terminal: Lark tries the terminals a message may start with
in a fixed order, and a lazy one such as ``PROFILED_SUBJECT`` (anything up to " (<Runner>)
profiling completed in ") comes before literals such as "=============== Computing costs for".
``trtlog.parse.lexer_order`` reads that order from the parser itself, and a line that an
earlier terminal would take is left to the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from lark import Lark

from trtlog.events.autotuning import FormatCombination, TimingRunner
from trtlog.events.base import Event
from trtlog.events.makers import HEAD_FIELDS, value_maker
from trtlog.events.notes import BuilderNote
from trtlog.events.phases import PhaseDuration
from trtlog.events.pickling import reduce_slots
from trtlog.parse.envelope import (
    FOREIGN_PRODUCERS,
    WARNING_OR_WORSE,
    Envelope,
    torch_tensorrt_only,
)
from trtlog.parse.fast_forms import (
    NUMBER,
    Head,
    chose_runner,
    computing_costs,
    fastest_tactic,
    format_combination,
    make,
    myelin_trace,
    profiling_completed,
    runner_skipped,
    set_tactic_name,
    tactic_pruning,
    tactic_timing,
    timing_cache_hit,
    timing_runner,
)
from trtlog.parse.fast_forms_layers import (
    FOREIGN_NODE_LITERAL,
    REFORMAT_LITERAL,
    foreign_node_metadata,
    layer_memory,
    reformat_layer_added,
)
from trtlog.parse.fast_forms_runs import TRACE_AVERAGE_LITERAL, progress_update, trace_average
from trtlog.parse.lexer_order import StartConflicts
from trtlog.parse.rows import Item

# By the first character of the body: the parser, and the literal or terminal the grammar's
# lexer starts that form with. Forms that start with a layer name are tried by a phrase they
# contain.
_BY_FIRST: dict[str, tuple[Callable[[str, Head], Item | None], str]] = {
    "F": (fastest_tactic, "'Fastest Tactic: "),
    "-": (timing_runner, "'--------------- Timing Runner: "),
    ">": (chose_runner, "'>>>>>>>>>>>>>>> Chose Runner Type: "),
    " ": (myelin_trace, "MYELIN_PREFIX"),
    "L": (layer_memory, "'Layer: "),
}
_BY_PHRASE: tuple[tuple[str, Callable[[str, Head], Item | None], str], ...] = (
    (" has no valid tactics for this config, skipping", runner_skipped, "SKIPPED_RUNNER"),
    (" profiling completed in ", profiling_completed, "PROFILED_SUBJECT"),
    ("Set Tactic Name: ", set_tactic_name, "SET_TACTIC_SUBJECT"),
    ("] got cached result: ", timing_cache_hit, "CACHED_SUBJECT"),
    (" available tactics, ", tactic_pruning, "PRUNED_LAYER"),
)


# What follows a phase name in "<phase> completed in X seconds." (phases.lark).
_DURATION_REST = re.compile(rf" completed in ({NUMBER}) seconds\.")

_Candidate = tuple[Callable[[str, Head], Item | None], str]


def _candidates(body: str) -> list[_Candidate]:
    """The hot forms ``body`` may be, each with the terminal (or "'literal") the grammar's lexer
    would start it with."""
    candidates: list[_Candidate] = []
    first = body[0]
    if first == "T":
        if body.startswith("Tactic Name: "):
            candidates.append((tactic_timing, "'Tactic Name: "))
        elif body.startswith("Tactic"):
            candidates.append((tactic_timing, "_TACTIC_KEYWORD"))
    elif first == "*":
        if body.startswith("*************** Autotuning format combination: "):
            candidates.append(
                (format_combination, "'*************** Autotuning format combination: ")
            )
        elif body.startswith("*************** Autotuning Reformat:"):
            candidates.append((format_combination, "'*************** Autotuning Reformat:"))
    elif first == "=":
        if body.startswith("=============== Computing costs for"):
            candidates.append((computing_costs, "'=============== Computing costs for"))
        elif body.startswith("=============== Computing reformatting costs"):
            candidates.append((computing_costs, "'=============== Computing reformatting costs"))
    elif first == "S" and body.startswith("Skipping "):
        candidates.append((runner_skipped, "_SKIPPING_RUNNER"))
    elif first == "A" and body.startswith(REFORMAT_LITERAL):
        candidates.append((reformat_layer_added, "'" + REFORMAT_LITERAL))
    elif first == "F" and body.startswith(FOREIGN_NODE_LITERAL):
        candidates.append((foreign_node_metadata, "'" + FOREIGN_NODE_LITERAL))
    elif first in _BY_FIRST:
        candidates.append(_BY_FIRST[first])
    if (first == "[" or first == " ") and body.lstrip(" ")[:1] == "[":
        candidates.append((progress_update, "PROGRESS_BAR"))
    for phrase, parse, terminal in _BY_PHRASE:
        if phrase in body:
            if parse is set_tactic_name and body.startswith(("Set Tactic Name: ", " Set")):
                terminal = "_SET_TACTIC_NAME"
            candidates.append((parse, terminal))
            break
    return candidates


class FastPath:
    """The fast path for one message grammar (built once per parser)."""

    def __init__(self, lark: Lark, start: str = "message") -> None:
        self._conflicts = StartConflicts(lark, start)
        # trtexec's own lines start with its own rule (``trtexec_message``).
        self._trtexec_conflicts = StartConflicts(lark, "trtexec_message")
        # The builder's notes and phase durations: a few lines per layer in 10.x builds
        # ("Set number of tactics to 300 at optimization level 5", "Subgraph compilation
        # completed in 0.38 seconds."), matched by the grammar's own terminals.
        self._note = re.compile(lark.get_terminal("BUILDER_NOTE_TEXT").pattern.to_regexp())
        self._phase = re.compile(lark.get_terminal("PHASE_NAME").pattern.to_regexp())
        # Message -> how its event is made again with another head (``_NOT_HOT``: none).
        self._known: dict[str, _Remake] = {}

    def message(self, envelope: Envelope, body: str, line: int) -> Item | None:
        """The event (or row, see ``trtlog.parse.rows``) of a one-line record whose message is
        one of the hot forms, else None."""
        if not body or envelope.producer in FOREIGN_PRODUCERS or torch_tensorrt_only(envelope):
            return None
        head = (line, line, envelope.timestamp, envelope.severity, envelope.producer)
        if envelope.producer == "trtexec":
            # Not remembered with the others: the same text may start another rule here.
            # (trtexec prints its trace averages at INFO; its warnings start another rule.)
            if (
                envelope.severity not in WARNING_OR_WORSE
                and body.startswith(TRACE_AVERAGE_LITERAL)
                and self._trtexec_conflicts.clear("'" + TRACE_AVERAGE_LITERAL, body)
            ):
                return trace_average(body, head)
            return None
        known = self._known.get(body)
        if known is not None:
            remake, kind, rest = known
            if remake is None:
                return (kind, *head, *rest)
            return remake(*head, *rest)
        item = self._parse(body, head)
        self._remember(body, item)
        return item

    def _remember(self, body: str, item: Item | None) -> None:
        if len(body) > LONGEST_REMEMBERED:
            return
        if item is None:
            remake = _NOT_HOT
        elif type(item) is tuple:
            if item[0] not in _REMADE_ROWS:
                return
            remake = (None, item[0], item[1 + len(HEAD_FIELDS) :])
        elif isinstance(item, Event):
            # The class and field values that pickling takes too, less the head.
            _, (kind, *values) = reduce_slots(item)
            remake = (value_maker(kind), kind, tuple(values[len(HEAD_FIELDS) :]))
        else:
            return
        known = self._known
        if len(known) >= _REMEMBERED:
            known.clear()
        known[body] = remake

    def _parse(self, body: str, head: Head) -> Item | None:
        for parse, terminal in _candidates(body):
            if self._conflicts.clear(terminal, body):
                item = parse(body, head)
                if item is not None:
                    return item
        return self._note_or_duration(body, head)

    def _note_or_duration(self, body: str, head: Head) -> Item | None:
        if body.isspace():
            # A blank message is an empty one (``RecordParser``), not a note ("\t...").
            return None
        note = self._note.match(body)
        if note is not None and note.end() == len(body):
            if self._conflicts.clear("BUILDER_NOTE_TEXT", body):
                return make[BuilderNote](*head, text=body)
            return None
        if " completed in " in body:
            # The phase is the lexer's token, the shortest text before the phrase: what follows
            # it must then be the rest of the line (no backtracking into a longer phase).
            phase = self._phase.match(body)
            if phase is None:
                return None
            rest = _DURATION_REST.fullmatch(body, phase.end())
            if rest is not None and self._conflicts.clear("PHASE_NAME", body):
                seconds = float(rest.group(1))
                return make[PhaseDuration](*head, phase=phase.group().strip(), seconds=seconds)
        return None


# Messages come back word for word: a layer's timing runner and skipped runners in each of its
# format combinations, one format combination in layer after layer, the chosen runner. Such a
# message is parsed once and its event made again with each line's head (``FastPath._known``):
# what a form parser makes of a body depends on the body alone. Tactic timings, kernel names,
# Myelin trace lines and fastest tactics carry a kernel or a measured time and seldom come
# back: they are not kept. At most ``_REMEMBERED`` messages are kept, then all forgotten at once
# (a build tunes layer after layer).
_REMEMBERED = 20_000
# Longer messages are not kept: the hot forms are short, and another program's output can hold
# lines of thousands of characters (20,000 of them would hold hundreds of MB).
LONGEST_REMEMBERED = 1000
# How an item is made again: a maker of its class taking the head and the values after it
# (None for a row, made as its class, the head and the values), its class, those values.
_Remake = tuple[Callable[..., Item | None] | None, type | None, tuple[Any, ...]]
# The row kinds that are kept (``trtlog.parse.rows``).
_REMADE_ROWS = frozenset({FormatCombination, TimingRunner})


def _nothing(*values: Any) -> None:
    return None


_NOT_HOT: _Remake = (_nothing, None, ())


@cache
def shared_fast_path(lark: Lark, start: str = "message") -> FastPath:
    """The fast path of a grammar, made once per process: what it works out about the lexer's
    order is kept for every parser after (a parallel parse makes a parser for each piece)."""
    return FastPath(lark, start)


__all__ = ["LONGEST_REMEMBERED", "FastPath", "shared_fast_path"]
