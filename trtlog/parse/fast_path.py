"""A fast path for the message forms that make up most of a verbose log.

Tactic timings, timing runners, format combinations, fastest and chosen tactics, Myelin's tactic
tables and per-layer memory are over nine lines in ten of a large build's log (with kernel names,
tactic-pruning counts, the builder's notes and phase durations, a few more). Parsing them with
the grammar costs tens of microseconds a line; the regular expressions here cost one. Each one
accepts a subset of what its grammar rule accepts and builds the event exactly as that rule's
transformer does, so the grammar stays the specification: ``tests/test_fast_path.py`` runs both
on every line of the corpus and on generated lines and fails on any difference. A line the fast
path does not take (or takes no part of) goes to the grammar, so a new form is added to the
grammar first and may be added here later.

Only single-line records are taken here: a record with continuation lines is the grammar's,
which decides how many of them the message spans. And a line is only taken when the grammar's
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

from trtlog.events.autotuning import (
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    ReformatLayerAdded,
    RunnerSkipped,
    SetTacticName,
    TacticPruning,
    TacticSkipped,
    TacticTiming,
    TimingCacheHit,
    TimingRunner,
)
from trtlog.events.base import TacticId, time_ms
from trtlog.events.graph import ForeignNodeMetadata
from trtlog.events.memory import LayerMemory
from trtlog.events.notes import BuilderNote, MyelinTrace
from trtlog.events.phases import PhaseDuration
from trtlog.parse.envelope import (
    FOREIGN_PRODUCERS,
    Envelope,
)
from trtlog.parse.lexer_order import StartConflicts
from trtlog.parse.rows import Item

# The grammar's terminals (common.lark, autotuning.lark), as regular expression text.
TACTIC_ID = r"0x[0-9a-fA-F]+|-?\d+"
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan"
_RUNNER = r" \(([A-Za-z]\w*)(?:\[(0x[0-9a-fA-F]+)\])?\)"
KERNEL_PARAMETERS = r" numSplitK: \d+ numBuffers: \d+ numKernels: \d+"

_TACTIC = re.compile(rf"Tactic:? ({TACTIC_ID}) [Tt]ime:? ({NUMBER})")
_NAMED_TACTIC = re.compile(
    rf"Tactic Name: (\S+)({KERNEL_PARAMETERS})? Tactic: ({TACTIC_ID}) Time: ({NUMBER})"
)
_FASTEST = re.compile(rf"Fastest Tactic: ({TACTIC_ID}) Time: ({NUMBER})")
_PROFILED_AT = re.compile(rf"{_RUNNER} profiling completed in ")
_PROFILED_REST = re.compile(
    rf"{_RUNNER} profiling completed in ({NUMBER}) seconds\. Fastest Tactic: ({TACTIC_ID}) Time: "
    rf"({NUMBER})"
)
_TIMING_RUNNER = re.compile(rf"--------------- Timing Runner: (.+?)?({_RUNNER})")
_RUNNER_PARTS = re.compile(_RUNNER)
_CHOSE = re.compile(rf">>>>>>>>>>>>>>> Chose Runner Type: ([A-Za-z]\w*) Tactic: ({TACTIC_ID})")
_COSTS = re.compile(r"=============== Computing (costs for|reformatting costs)([: ].*)?")
_TACTIC_SKIPPED = re.compile(
    rf"Tactic:? ({TACTIC_ID})(?: skipped\. Scratch requested: | scratch requested: )(\d+), "
    r"available: (\d+)"
)
_ONLY_TACTIC = re.compile(rf"Tactic:? ({TACTIC_ID}) is the only option, timing skipped")
_RUNNER_SKIPPED = re.compile(r"Skipping ([A-Za-z]\w*): No valid tactics for ([^\n]+)")
_RUNNER_HAS_NONE = re.compile(r"([A-Za-z]\w*) has no valid tactics for this config, skipping")
_COMBINATION = re.compile(
    r"\*{15} Autotuning (format combination: |Reformat: ?)"
    r"(?:([A-Za-z].*?))? -> (?:([A-Za-z].*?))? \*{15}"
)
_FORMAT_SEPARATOR = re.compile(r"(?<=\)), ")
# 8.2+: "Adding reformat layer: <tensor> (<source>) from <format> to <format>", each part the
# shortest text the grammar's lexer takes for it (REFORMAT_TENSOR, REFORMAT_SOURCE, REFORMAT_FROM),
# one after the other with no going back.
_REFORMAT = "Adding reformat layer: "
_REFORMAT_TENSOR = re.compile(r"[^\n]+?(?= \([^\n]*\) from [A-Za-z])")
_REFORMAT_SOURCE = re.compile(r"[^\n]+?(?=\) from [A-Za-z])")
_REFORMAT_FROM = re.compile(r"[A-Za-z][^\n]*?(?= to [A-Za-z])")
# 10.x: "ForeignNode {ForeignNode[a...b]} metadata: [ONNX Layer: a][ONNX Layer: b]", once per
# Myelin region; the name is the lexer's FOREIGN_NODE_NAME, the shortest one before " metadata:".
_FOREIGN_NODE = "ForeignNode "
_FOREIGN_NODE_NAME = re.compile(r"\{ForeignNode\[[^\n]*?\]\}(?= metadata:)")
_ONNX_LAYER = re.compile(r"\[ONNX Layer: ([^\]]*)\]")
# 8.6+: "<layer>: 69 available tactics, 44 unparsable, 11 pruned, 14 remaining after tactic
# pruning." The layer is the lexer's PRUNED_LAYER: the shortest text before the first phrase.
_PRUNING_AT = re.compile(r": \d+ available tactics, ")
_PRUNING_REST = re.compile(
    r": (\d+) available tactics, (\d+) unparsable, (\d+) pruned, (\d+) remaining after tactic"
    r" pruning\."
)
# "[<subject>] Set Tactic Name: <kernel> [Tactic: <id>][<parameters>]", the subject being the
# shortest text before the phrase that lets the rest match (``_split_set_tactic_name``).
_SET_TACTIC_NAME_PHRASE = "Set Tactic Name: "
_SET_TACTIC_NAME_REST = re.compile(
    rf" ?Set Tactic Name: (\S+)(?: Tactic: ({TACTIC_ID}))?({KERNEL_PARAMETERS})?"
)
_SUBJECT_VARIANT = re.compile(r"^(?P<layer>.*) \((?P<variant>\w+)\)$")
_MYELIN = re.compile(r" \((?:foreignNode|myelin|Myelin)\)(.*)")
_LAYER_MEMORY = re.compile(
    r"Layer: (.+?) Host ?Persistent: (\d+)(?: bytes)? Device ?Persistent: (\d+)(?: bytes)?"
    r"(?: Scratch Memory: (\d+)(?: bytes)?)?"
)
_CACHE_HIT = re.compile(
    rf"(.+?) \[(?:([A-Za-z].*?))? -> (?:([A-Za-z].*?))?\] got cached result: ([A-Za-z]\w*), "
    rf"tactic ({TACTIC_ID}), ({NUMBER}) ms"
)

# (line, end_line, timestamp, severity, producer): the fields every event has, in order.
Head = tuple[Any, ...]
_HEAD_NAMES = ("line", "end_line", "timestamp", "severity", "producer")
# An autotuning row's context before the fold links it: layer, formats, runner, runner_id, build.
_NO_CONTEXT = (None, None, None, None, 0)


def _fields(head: Head) -> dict[str, Any]:
    return dict(zip(_HEAD_NAMES, head, strict=True))


def _tactic(body: str, head: Head) -> Item | None:
    if "ime" not in body:
        return _tactic_skipped(body, head)
    if body.startswith("Tactic Name: "):
        match = _NAMED_TACTIC.fullmatch(body)
        if match is None:
            return None
        kernel, parameters, tactic, time = match.groups()
        return (
            TacticTiming,
            *head,
            *_NO_CONTEXT,
            TacticId.parse(tactic),
            time_ms(time),
            kernel,
            None if parameters is None else parameters.strip(),
        )
    match = _TACTIC.fullmatch(body)
    if match is None:
        return None
    tactic, time = match.groups()
    return (TacticTiming, *head, *_NO_CONTEXT, TacticId.parse(tactic), time_ms(time), None, None)


def _tactic_skipped(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _TACTIC_SKIPPED.fullmatch(body)
    if match is not None:
        tactic, requested, available = match.groups()
        return TacticSkipped(
            **fields,
            tactic=TacticId.parse(tactic),
            reason="scratch",
            scratch_requested=int(requested),
            scratch_available=int(available),
        )
    match = _ONLY_TACTIC.fullmatch(body)
    if match is None:
        return None
    return TacticSkipped(**fields, tactic=TacticId.parse(match.group(1)), reason="only option")


def _runner_skipped(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _RUNNER_SKIPPED.fullmatch(body)
    if match is not None:
        return RunnerSkipped(**fields, skipped_runner=match.group(1), layer=match.group(2).strip())
    match = _RUNNER_HAS_NONE.fullmatch(body)
    if match is None:
        return None
    return RunnerSkipped(**fields, skipped_runner=match.group(1))


def _fastest(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _FASTEST.fullmatch(body)
    if match is None:
        return None
    tactic, time = match.groups()
    return FastestTactic(**fields, tactic=TacticId.parse(tactic), time_ms=time_ms(time))


def _profiled(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    # The layer runs up to the first " (<Runner>) profiling completed in ", as the grammar's
    # lazy terminal takes it; what follows must then match in full.
    at = _PROFILED_AT.search(body)
    if at is None or at.start() == 0:
        return None
    match = _PROFILED_REST.fullmatch(body, at.start())
    if match is None:
        return None
    runner, runner_id, seconds, tactic, time = match.groups()
    return FastestTactic(
        **fields,
        layer=body[: at.start()],
        runner=runner,
        runner_id=None if runner_id is None else int(runner_id, 16),
        tactic=TacticId.parse(tactic),
        time_ms=time_ms(time),
        profiling_seconds=float(seconds),
    )


def _reformat_added(body: str, head: Head) -> Item | None:
    tensor = _REFORMAT_TENSOR.match(body, len(_REFORMAT))
    if tensor is None:
        return None
    source = _REFORMAT_SOURCE.match(body, tensor.end() + len(" ("))
    if source is None:
        return None
    from_format = _REFORMAT_FROM.match(body, source.end() + len(") from "))
    if from_format is None:
        return None
    return ReformatLayerAdded(
        **_fields(head),
        tensor=tensor.group(),
        source=source.group(),
        from_format=from_format.group(),
        to_format=body[from_format.end() + len(" to ") :].strip(),
    )


def _foreign_node_metadata(body: str, head: Head) -> Item | None:
    name = _FOREIGN_NODE_NAME.match(body, len(_FOREIGN_NODE))
    if name is None:
        return None
    # After " metadata:" the line ends, or a blank and at least one more character follow.
    metadata = body[name.end() + len(" metadata:") :]
    if metadata and (metadata[0] != " " or len(metadata) == 1):
        return None
    return ForeignNodeMetadata(
        **_fields(head),
        node=name.group(),
        onnx_layers=tuple(_ONNX_LAYER.findall(metadata)),
    )


def _tactic_pruning(body: str, head: Head) -> Item | None:
    at = _PRUNING_AT.search(body, 1)
    if at is None:
        return None
    match = _PRUNING_REST.fullmatch(body, at.start())
    if match is None:
        return None
    available, unparsable, pruned, remaining = (int(value) for value in match.groups())
    return TacticPruning(
        **_fields(head),
        layer=body[: at.start()],
        available=available,
        unparsable=unparsable,
        pruned=pruned,
        remaining=remaining,
    )


def _timing_runner(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _TIMING_RUNNER.fullmatch(body)
    if match is None:
        return None
    subject, _suffix, runner, runner_id = match.groups()
    if subject is not None and _RUNNER_PARTS.search(subject + " "):
        # A subject holding another runner suffix: leave the split to the grammar.
        return None
    return TimingRunner(
        **fields,
        layer=subject,
        runner=runner,
        runner_id=None if runner_id is None else int(runner_id, 16),
    )


def _formats(text: str | None) -> tuple[str, ...]:
    if text is None or not text.strip():
        return ()
    return tuple(_FORMAT_SEPARATOR.split(text.strip()))


def _combination(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _COMBINATION.fullmatch(body)
    if match is None:
        return None
    kind, inputs, outputs = match.groups()
    if (inputs and (" -> " in inputs or "***************" in inputs)) or (
        outputs and " -> " in outputs
    ):
        return None
    return FormatCombination(
        **fields,
        inputs=_formats(inputs),
        outputs=_formats(outputs),
        reformat=kind.startswith("Reformat"),
    )


def _costs(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _COSTS.fullmatch(body)
    if match is None:
        return None
    if match.group(1) == "reformatting costs":
        return ComputingCosts(**fields, reformatting=True)
    return ComputingCosts(**fields, layer=(match.group(2) or "").strip() or None)


def _chose(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _CHOSE.fullmatch(body)
    if match is None:
        return None
    return ChoseRunner(
        **fields, chosen_runner=match.group(1), tactic=TacticId.parse(match.group(2))
    )


def _myelin(body: str, head: Head) -> Item | None:
    match = _MYELIN.fullmatch(body)
    if match is None:
        return None
    return (MyelinTrace, *head, match.group(1).strip())


def _layer_memory(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _LAYER_MEMORY.fullmatch(body)
    if match is None:
        return None
    layer, host, device, scratch = match.groups()
    return LayerMemory(
        **fields,
        layer=layer,
        host_persistent=int(host),
        device_persistent=int(device),
        scratch=None if scratch is None else int(scratch),
    )


def _split_set_tactic_name(body: str) -> tuple[str | None, re.Match[str]] | None:
    """The subject and the rest of a kernel-name line, as the expression
    "(?:(.+?)(?= ?Set Tactic Name: ))? ?Set Tactic Name: ..." matches it in full (trying every
    place before the phrase costs microseconds on lines with long layer names): each
    occurrence of the phrase in turn, the shorter subject first, then no subject."""
    start = 0
    # (The subject, like "." in an expression, holds no newline.)
    newline = body.find("\n")
    last_end = len(body) if newline < 0 else newline
    while (found := body.find(_SET_TACTIC_NAME_PHRASE, start)) >= 0:
        ends = (found - 1, found) if found >= 1 and body[found - 1] == " " else (found,)
        for end in ends:
            if 1 <= end <= last_end:
                rest = _SET_TACTIC_NAME_REST.fullmatch(body, end)
                if rest is not None:
                    return body[:end], rest
        start = found + 1
    rest = _SET_TACTIC_NAME_REST.fullmatch(body)
    return None if rest is None else (None, rest)


def _set_tactic_name(body: str, head: Head) -> Item | None:
    split = _split_set_tactic_name(body)
    if split is None:
        return None
    subject, rest = split
    kernel, tactic, parameters = rest.groups()
    if body.startswith(" Set Tactic Name: "):
        # The grammar's lexer takes " Set Tactic Name: " whole: no subject, not a blank one.
        subject = None
    layer, variant = subject, None
    variant_match = _SUBJECT_VARIANT.match(layer or "") if tactic is None else None
    if variant_match:
        layer, variant = variant_match.group("layer"), variant_match.group("variant")
    return (
        SetTacticName,
        *head,
        *_NO_CONTEXT,
        layer,
        kernel,
        None if tactic is None else TacticId.parse(tactic),
        None if parameters is None else parameters.strip(),
        variant,
    )


def _cache_hit(body: str, head: Head) -> Item | None:
    fields = _fields(head)
    match = _CACHE_HIT.fullmatch(body)
    if match is None:
        return None
    subject, inputs, outputs, runner, tactic, time = match.groups()
    if " [" in subject:
        return None
    return TimingCacheHit(
        **fields,
        subject=subject,
        formats=f"{inputs or ''} -> {outputs or ''}",
        cached_runner=runner,
        tactic=TacticId.parse(tactic),
        time_ms=time_ms(time),
    )


# By the first character of the body: the parser, and the literal or terminal the grammar's
# lexer starts that form with. Forms that start with a layer name are tried by a phrase they
# contain.
_BY_FIRST: dict[str, tuple[Callable[[str, Head], Item | None], str]] = {
    "F": (_fastest, "'Fastest Tactic: "),
    "-": (_timing_runner, "'--------------- Timing Runner: "),
    ">": (_chose, "'>>>>>>>>>>>>>>> Chose Runner Type: "),
    " ": (_myelin, "MYELIN_PREFIX"),
    "L": (_layer_memory, "'Layer: "),
}
_BY_PHRASE: tuple[tuple[str, Callable[[str, Head], Item | None], str], ...] = (
    (" has no valid tactics for this config, skipping", _runner_skipped, "SKIPPED_RUNNER"),
    (" profiling completed in ", _profiled, "PROFILED_SUBJECT"),
    ("Set Tactic Name: ", _set_tactic_name, "SET_TACTIC_SUBJECT"),
    ("] got cached result: ", _cache_hit, "CACHED_SUBJECT"),
    (" available tactics, ", _tactic_pruning, "PRUNED_LAYER"),
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
            candidates.append((_tactic, "'Tactic Name: "))
        elif body.startswith("Tactic"):
            candidates.append((_tactic, "_TACTIC_KEYWORD"))
    elif first == "*":
        if body.startswith("*************** Autotuning format combination: "):
            candidates.append((_combination, "'*************** Autotuning format combination: "))
        elif body.startswith("*************** Autotuning Reformat:"):
            candidates.append((_combination, "'*************** Autotuning Reformat:"))
    elif first == "=":
        if body.startswith("=============== Computing costs for"):
            candidates.append((_costs, "'=============== Computing costs for"))
        elif body.startswith("=============== Computing reformatting costs"):
            candidates.append((_costs, "'=============== Computing reformatting costs"))
    elif first == "S" and body.startswith("Skipping "):
        candidates.append((_runner_skipped, "_SKIPPING_RUNNER"))
    elif first == "A" and body.startswith(_REFORMAT):
        candidates.append((_reformat_added, "'" + _REFORMAT))
    elif first == "F" and body.startswith(_FOREIGN_NODE):
        candidates.append((_foreign_node_metadata, "'" + _FOREIGN_NODE))
    elif first in _BY_FIRST:
        candidates.append(_BY_FIRST[first])
    for phrase, parse, terminal in _BY_PHRASE:
        if phrase in body:
            if parse is _set_tactic_name and body.startswith(("Set Tactic Name: ", " Set")):
                terminal = "_SET_TACTIC_NAME"
            candidates.append((parse, terminal))
            break
    return candidates


class FastPath:
    """The fast path for one message grammar (built once per parser)."""

    def __init__(self, lark: Lark, start: str = "message") -> None:
        self._conflicts = StartConflicts(lark, start)
        # The builder's notes and phase durations: a few lines per layer in 10.x builds
        # ("Set number of tactics to 300 at optimization level 5", "Subgraph compilation
        # completed in 0.38 seconds."), matched by the grammar's own terminals.
        self._note = re.compile(lark.get_terminal("BUILDER_NOTE_TEXT").pattern.to_regexp())
        self._phase = re.compile(lark.get_terminal("PHASE_NAME").pattern.to_regexp())

    def message(self, envelope: Envelope, body: str, line: int) -> Item | None:
        """The event (or row, see ``trtlog.parse.rows``) of a one-line record whose message is
        one of the hot forms, else None."""
        if not body or envelope.producer == "trtexec" or envelope.producer in FOREIGN_PRODUCERS:
            return None
        head = (line, line, envelope.timestamp, envelope.severity, envelope.producer)
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
                return BuilderNote(**_fields(head), text=body)
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
                return PhaseDuration(**_fields(head), phase=phase.group().strip(), seconds=seconds)
        return None

    def clear_all(self, terminal: str, starts: tuple[str, ...], bodies: str) -> bool:
        """Whether the lexer would start each of ``bodies`` (joined by newlines, each starting
        with one of ``starts``) with ``terminal``; False may also mean "ask line by line"."""
        return self._conflicts.clear_all(terminal, starts, bodies)


@cache
def shared_fast_path(lark: Lark, start: str = "message") -> FastPath:
    """The fast path of a grammar, made once per process: what it works out about the lexer's
    order is kept for every parser after (a parallel parse makes a parser for each piece, and
    working it out again cost 70 ms a piece)."""
    return FastPath(lark, start)


__all__ = [
    "KERNEL_PARAMETERS",
    "NUMBER",
    "TACTIC_ID",
    "FastPath",
    "shared_fast_path",
]
