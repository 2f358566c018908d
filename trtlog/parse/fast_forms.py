"""The hot message forms of the fast path (``trtlog.parse.fast_path``), one parser each.

Each parser takes a message body and the fields every event has (``Head``) and returns the event
(or the row of a kind in ``trtlog.parse.rows.ROW_CLASSES``, its field values in order) exactly as
the grammar rule's transformer builds it, or None when the body is not wholly that form. The
expressions are put together from the grammar's own terminals (``common.lark``,
``autotuning.lark``, read from the parser) and the literals of its rules; where a terminal is
lazy, the text is taken as the lexer takes it, the shortest that lets the rest follow. Which
parser is tried on a body, and whether the lexer would start the body with that form at all, is
``fast_path``'s.
"""

from __future__ import annotations

import re
from typing import Any

from trtlog.events.autotuning import (
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    RunnerSkipped,
    SetTacticName,
    TacticPruning,
    TacticSkipped,
    TacticTiming,
    TimingCacheHit,
    TimingRunner,
)
from trtlog.events.base import KeywordMakers, TacticId, tactic_number, time_ms
from trtlog.events.notes import MyelinTrace
from trtlog.parse.grammar import terminal_regexp
from trtlog.parse.rows import NO_PLACE, Item
from trtlog.parse.transform.autotuning import layer_and_variant, runner_parts
from trtlog.parse.transform.context import split_formats

# The grammar's terminals (common.lark, autotuning.lark), as regular expression text that
# captures nothing of its own.
TACTIC_ID = terminal_regexp("TACTIC_ID")
NUMBER = terminal_regexp("NUMBER")
KERNEL_PARAMETERS = terminal_regexp("KERNEL_PARAMETERS")
_RUNNER = terminal_regexp("RUNNER_SUFFIX")
_RUNNER_NAME = terminal_regexp("RUNNER_NAME")
_KERNEL_NAME = terminal_regexp("KERNEL_NAME")
_TIME_KEYWORD = terminal_regexp("_TIME_KEYWORD")
_SCRATCH_KEYWORD = terminal_regexp("_SCRATCH_KEYWORD")
_SET_TACTIC_NAME = terminal_regexp("_SET_TACTIC_NAME")

_TACTIC = re.compile(rf"Tactic:? ({TACTIC_ID}){_TIME_KEYWORD}({NUMBER})")
_NAMED_TACTIC = re.compile(
    rf"Tactic Name: ({_KERNEL_NAME})({KERNEL_PARAMETERS})? Tactic: ({TACTIC_ID}) Time: ({NUMBER})"
)
_FASTEST = re.compile(rf"Fastest Tactic: ({TACTIC_ID}) Time: ({NUMBER})")
_PROFILED_AT = re.compile(rf"{_RUNNER} profiling completed in ")
_PROFILED_REST = re.compile(
    rf"({_RUNNER}) profiling completed in ({NUMBER}) seconds\. Fastest Tactic: ({TACTIC_ID}) "
    rf"Time: ({NUMBER})"
)
_TIMING_RUNNER = re.compile(rf"--------------- Timing Runner: (.+?)?({_RUNNER})")
_RUNNER_SUFFIX = re.compile(_RUNNER)
_CHOSE = re.compile(rf">>>>>>>>>>>>>>> Chose Runner Type: ({_RUNNER_NAME}) Tactic: ({TACTIC_ID})")
_COSTS = re.compile(r"=============== Computing (costs for|reformatting costs)([: ].*)?")
_TACTIC_SKIPPED = re.compile(rf"Tactic:? ({TACTIC_ID}){_SCRATCH_KEYWORD}(\d+), available: (\d+)")
_ONLY_TACTIC = re.compile(rf"Tactic:? ({TACTIC_ID}) is the only option, timing skipped")
_RUNNER_SKIPPED = re.compile(rf"Skipping ({_RUNNER_NAME}): No valid tactics for ([^\n]+)")
_RUNNER_HAS_NONE = re.compile(
    f"({terminal_regexp('SKIPPED_RUNNER')}) has no valid tactics for this config, skipping"
)
_COMBINATION = re.compile(
    r"\*{15} Autotuning (format combination: |Reformat: ?)"
    r"(?:([A-Za-z].*?))? -> (?:([A-Za-z].*?))? \*{15}"
)
# 8.6+: "<layer>: 69 available tactics, 44 unparsable, 11 pruned, 14 remaining after tactic
# pruning." The layer is the lexer's PRUNED_LAYER: the shortest text before the first phrase.
_PRUNING_AT = re.compile(r": \d+ available tactics, ")
_PRUNING_REST = re.compile(
    r": (\d+) available tactics, (\d+) unparsable, (\d+) pruned, (\d+) remaining after tactic"
    r" pruning\."
)
# "[<subject>] Set Tactic Name: <kernel> [Tactic: <id>][<parameters>]", the subject being the
# shortest text before the phrase that lets the rest match (``split_set_tactic_name``).
_SET_TACTIC_NAME_PHRASE = "Set Tactic Name: "
_SET_TACTIC_NAME_REST = re.compile(
    rf"{_SET_TACTIC_NAME}({_KERNEL_NAME})(?: Tactic: ({TACTIC_ID}))?({KERNEL_PARAMETERS})?"
)
_MYELIN = re.compile(terminal_regexp("MYELIN_PREFIX") + "(.*)")
_CACHE_HIT = re.compile(
    rf"(.+?) \[(?:([A-Za-z].*?))? -> (?:([A-Za-z].*?))?\] got cached result: ({_RUNNER_NAME}), "
    rf"tactic ({TACTIC_ID}), ({NUMBER}) ms"
)

# (line, end_line, timestamp, severity, producer): the fields every event has, in order.
Head = tuple[Any, ...]
# An autotuning row's context before the fold links it: run, build, strategy, layer, formats,
# runner, runner_id.
_NO_CONTEXT = (None, None, None, None, None, None, None)
# The events of the forms, made from a head and keywords (``trtlog.events.makers``).
make = KeywordMakers()


def tactic_timing(body: str, head: Head) -> Item | None:
    if "ime" not in body:
        return tactic_skipped(body, head)
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


def tactic_skipped(body: str, head: Head) -> Item | None:
    match = _TACTIC_SKIPPED.fullmatch(body)
    if match is not None:
        tactic, requested, available = match.groups()
        return make[TacticSkipped](
            *head,
            tactic=TacticId.parse(tactic),
            reason="scratch",
            scratch_requested=int(requested),
            scratch_available=int(available),
        )
    match = _ONLY_TACTIC.fullmatch(body)
    if match is None:
        return None
    return make[TacticSkipped](*head, tactic=TacticId.parse(match.group(1)), reason="only option")


def runner_skipped(body: str, head: Head) -> Item | None:
    match = _RUNNER_SKIPPED.fullmatch(body)
    if match is not None:
        return make[RunnerSkipped](
            *head, skipped_runner=match.group(1), layer=match.group(2).strip()
        )
    match = _RUNNER_HAS_NONE.fullmatch(body)
    if match is None:
        return None
    return make[RunnerSkipped](*head, skipped_runner=match.group(1))


def fastest_tactic(body: str, head: Head) -> Item | None:
    match = _FASTEST.fullmatch(body)
    if match is None:
        return None
    tactic, time = match.groups()
    return (FastestTactic, *head, *_NO_CONTEXT, tactic_number(tactic), time_ms(time), None)


def profiling_completed(body: str, head: Head) -> Item | None:
    # The layer runs up to the first " (<Runner>) profiling completed in ", as the grammar's
    # lazy terminal takes it; what follows must then match in full.
    at = _PROFILED_AT.search(body)
    if at is None or at.start() == 0:
        return None
    match = _PROFILED_REST.fullmatch(body, at.start())
    if match is None:
        return None
    suffix, seconds, tactic, time = match.groups()
    runner, runner_id = runner_parts(suffix)
    return (
        FastestTactic,
        *head,
        *NO_PLACE,
        body[: at.start()],
        None,
        runner,
        runner_id,
        tactic_number(tactic),
        time_ms(time),
        float(seconds),
    )


def tactic_pruning(body: str, head: Head) -> Item | None:
    at = _PRUNING_AT.search(body, 1)
    if at is None:
        return None
    match = _PRUNING_REST.fullmatch(body, at.start())
    if match is None:
        return None
    available, unparsable, pruned, remaining = (int(value) for value in match.groups())
    return make[TacticPruning](
        *head,
        layer=body[: at.start()],
        available=available,
        unparsable=unparsable,
        pruned=pruned,
        remaining=remaining,
    )


def timing_runner(body: str, head: Head) -> Item | None:
    match = _TIMING_RUNNER.fullmatch(body)
    if match is None:
        return None
    subject, suffix = match.groups()
    if subject is not None and _RUNNER_SUFFIX.search(subject + " "):
        # A subject holding another runner suffix: leave the split to the grammar.
        return None
    runner, runner_id = runner_parts(suffix)
    return (TimingRunner, *head, *NO_PLACE, subject, None, runner, runner_id)


def format_combination(body: str, head: Head) -> Item | None:
    match = _COMBINATION.fullmatch(body)
    if match is None:
        return None
    kind, inputs, outputs = match.groups()
    # (Outputs ending in " ->" make an arrow with the space before the stars.)
    if (inputs and (" -> " in inputs or "***************" in inputs)) or (
        outputs and (" -> " in outputs or outputs.endswith(" ->"))
    ):
        return None
    return (
        FormatCombination,
        *head,
        *_NO_CONTEXT,
        split_formats(inputs),
        split_formats(outputs),
        kind.startswith("Reformat"),
    )


def computing_costs(body: str, head: Head) -> Item | None:
    match = _COSTS.fullmatch(body)
    if match is None:
        return None
    if match.group(1) == "reformatting costs":
        return make[ComputingCosts](*head, reformatting=True)
    return make[ComputingCosts](*head, layer=(match.group(2) or "").strip() or None)


def chose_runner(body: str, head: Head) -> Item | None:
    match = _CHOSE.fullmatch(body)
    if match is None:
        return None
    return make[ChoseRunner](
        *head, chosen_runner=match.group(1), tactic=TacticId.parse(match.group(2))
    )


def myelin_trace(body: str, head: Head) -> Item | None:
    match = _MYELIN.fullmatch(body)
    if match is None:
        return None
    return (MyelinTrace, *head, *NO_PLACE, match.group(1).strip())


def split_set_tactic_name(body: str) -> tuple[str | None, re.Match[str]] | None:
    """The subject and the rest of a kernel-name line, as the expression
    "(?:(.+?)(?=_SET_TACTIC_NAME))?_SET_TACTIC_NAME..." matches it in full (trying every
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


def set_tactic_name(body: str, head: Head) -> Item | None:
    split = split_set_tactic_name(body)
    if split is None:
        return None
    subject, rest = split
    kernel, tactic, parameters = rest.groups()
    if body.startswith(" Set Tactic Name: "):
        # The grammar's lexer takes " Set Tactic Name: " whole: no subject, not a blank one.
        subject = None
    layer, variant = subject, None
    if tactic is None:
        layer, variant = layer_and_variant(layer)
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


def timing_cache_hit(body: str, head: Head) -> Item | None:
    match = _CACHE_HIT.fullmatch(body)
    if match is None:
        return None
    subject, inputs, outputs, runner, tactic, time = match.groups()
    if " [" in subject:
        return None
    return make[TimingCacheHit](
        *head,
        subject=subject,
        formats=f"{inputs or ''} -> {outputs or ''}",
        cached_runner=runner,
        tactic=TacticId.parse(tactic),
        time_ms=time_ms(time),
    )


__all__ = [
    "KERNEL_PARAMETERS",
    "NUMBER",
    "TACTIC_ID",
    "Head",
    "chose_runner",
    "computing_costs",
    "fastest_tactic",
    "format_combination",
    "make",
    "myelin_trace",
    "profiling_completed",
    "runner_skipped",
    "set_tactic_name",
    "split_set_tactic_name",
    "tactic_pruning",
    "tactic_skipped",
    "tactic_timing",
    "timing_cache_hit",
    "timing_runner",
]
