"""The items of the tuning records the native core claims besides the frequent ones
(``core/src/tuning.rs``): skipped tactics, tactic-pruning counts, kernel names and timing-cache
hits, each made from its grammar rule's tokens as the rule's transformer makes it
(``trtlog.parse.transform.autotuning``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trtlog.events.autotuning import SetTacticName, TacticPruning, TacticSkipped, TimingCacheHit
from trtlog.events.base import KeywordMakers, TacticId, timed_ms
from trtlog.parse.items import Item
from trtlog.parse.transform.autotuning import layer_and_variant

# (line, end_line, timestamp, severity, producer): the fields every event has, in order.
Head = tuple[Any, ...]
_make = KeywordMakers()


def _tactic_skipped(head: Head, tactic: int, requested: int, available: int) -> Item:
    return _make[TacticSkipped](
        *head,
        tactic=TacticId(tactic),
        reason="scratch",
        scratch_requested=requested,
        scratch_available=available,
    )


def _only_tactic(head: Head, tactic: int, _requested: None, _available: None) -> Item:
    return _make[TacticSkipped](*head, tactic=TacticId(tactic), reason="only option")


def _tactic_pruning(
    head: Head, layer: str, available: int, unparsable: int, pruned: int, remaining: int
) -> Item:
    return _make[TacticPruning](
        *head,
        layer=layer,
        available=available,
        unparsable=unparsable,
        pruned=pruned,
        remaining=remaining,
    )


def _set_tactic_name(
    head: Head, subject: str | None, kernel: str, tactic: int | None, parameters: str | None
) -> Item:
    layer, variant = subject, None
    if tactic is None:
        # 7.x: "<layer> (<variant>) Set Tactic Name: <kernel>".
        layer, variant = layer_and_variant(layer)
    return _make[SetTacticName](
        *head,
        subject=layer,
        kernel=kernel,
        tactic=None if tactic is None else TacticId(tactic),
        kernel_parameters=None if parameters is None else parameters.strip(),
        variant=variant,
    )


def _timing_cache_hit(
    head: Head, subject: str, inputs: str | None, outputs: str | None, runner: str, tactic: int,
    time: float,
) -> Item:  # fmt: skip
    return _make[TimingCacheHit](
        *head,
        subject=subject,
        formats=f"{inputs or ''} -> {outputs or ''}",
        cached_runner=runner,
        tactic=TacticId(tactic),
        time_ms=timed_ms(time),
    )


# Per grammar rule (the core names each record by its rule), how its item is made.
TUNING_BUILDERS: dict[str, Callable[..., Item]] = {
    "tactic_skipped": _tactic_skipped,
    "only_tactic": _only_tactic,
    "tactic_pruning": _tactic_pruning,
    "set_tactic_name": _set_tactic_name,
    "timing_cache_hit": _timing_cache_hit,
}

__all__ = ["TUNING_BUILDERS"]
