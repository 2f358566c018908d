"""Memory: per layer, and the totals, peaks and allocator steps the log reports.

``memory`` columns: ``run``, ``build``, ``strategy`` (see ``Event``), ``layer``,
``host_persistent``, ``device_persistent``, ``scratch`` (bytes; scratch is missing in 7.x and
8.2, which do not print it; 7.x's per-layer weights are on the events alone), ``line``.

``memory_totals`` columns: ``run``, ``build``, ``strategy``, ``kind`` ("total": Total ... Memory
lines; "peak": [MemUsageStats]; "change": [MemUsageChange] steps; "snapshot": [MemUsageSnapshot];
"allocation": runtime allocations and engine sizes; "block assignment"), ``item`` (8.0-8.5 print
the activation total of the block assignment before its optimisation too: "activation (before
block optimisation)"), ``bytes``
(single figures), ``cpu_bytes`` and ``gpu_bytes`` (allocator figures: the change for "change"
rows), ``cpu_now_bytes`` and ``gpu_now_bytes`` (allocator use after a change), ``line``."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.columns import with_types
from trtlog.events import (
    BlockAssignment,
    BuilderNote,
    Event,
    LayerMemory,
    MemoryAllocation,
    MemoryTotal,
    MemUsageChange,
    MemUsageSnapshot,
    MemUsageStats,
)
from trtlog.events.index import indexed

MEMORY_COLUMNS = [
    "run",
    "build",
    "strategy",
    "layer",
    "host_persistent",
    "device_persistent",
    "scratch",
    "line",
]
TOTAL_COLUMNS = [
    "run",
    "build",
    "strategy",
    "kind",
    "item",
    "bytes",
    "cpu_bytes",
    "gpu_bytes",
    "cpu_now_bytes",
    "gpu_now_bytes",
    "line",
]


def memory_tables(events: Sequence[Event]) -> tuple[pd.DataFrame, pd.DataFrame]:
    layers: list[dict[str, object]] = []
    totals: list[dict[str, object]] = []
    # Whether the activation total that comes next is that of the unoptimised block assignment.
    unoptimised = False
    for event in indexed(events).of(LayerMemory, BuilderNote, *_TOTAL_KINDS):
        if isinstance(event, BuilderNote | BlockAssignment):
            stage = event.text if isinstance(event, BuilderNote) else event.phase
            if stage in _BLOCK_STAGES:
                unoptimised = _BLOCK_STAGES[stage]
            if isinstance(event, BuilderNote):
                continue
        if isinstance(event, LayerMemory):
            layers.append(
                {
                    "run": event.run,
                    "build": event.build,
                    "strategy": event.strategy,
                    "layer": event.layer,
                    "host_persistent": event.host_persistent,
                    "device_persistent": event.device_persistent,
                    "scratch": event.scratch,
                    "line": event.line,
                }
            )
        else:
            row = _total_row(event)
            if row is not None and row["item"] == "activation" and unoptimised:
                row["item"] = "activation (before block optimisation)"
                unoptimised = False
            if row is not None:
                place = {"run": event.run, "build": event.build, "strategy": event.strategy}
                totals.append({**place, **row, "line": event.line})
    places = {"run": "Int64", "build": "Int64", "strategy": "Int64"}
    memory = with_types(
        pd.DataFrame(layers, columns=MEMORY_COLUMNS), {**places, "scratch": "Int64"}
    )
    integer_columns = {**places, **dict.fromkeys(TOTAL_COLUMNS[5:10], "Int64")}
    return memory, with_types(pd.DataFrame(totals, columns=TOTAL_COLUMNS), integer_columns)


# The steps of the block assignment, as a note ("Pre-optimized block assignment.", 8.0-8.4) or a
# block count ("Total number of blocks in pre-optimized block assignment: 26", 8.5-10.x): whether
# the block assignment after it is unoptimised.
_BLOCK_STAGES = {
    "Pre-optimized block assignment.": True,
    "Optimized block assignment.": False,
    "pre-optimized": True,
    "optimized": False,
}
# The events of the totals table (``_total_row``).
_TOTAL_KINDS = (
    MemoryTotal,
    MemUsageStats,
    MemUsageChange,
    MemUsageSnapshot,
    MemoryAllocation,
    BlockAssignment,
)


def _total_row(event: Event) -> dict[str, object] | None:
    if isinstance(event, MemoryTotal):
        return {"kind": "total", "item": event.what, "bytes": event.size_bytes}
    if isinstance(event, MemUsageStats):
        return {"kind": "peak", "item": event.what, "cpu_bytes": event.cpu, "gpu_bytes": event.gpu}
    if isinstance(event, MemUsageChange):
        return {
            "kind": "change",
            "item": event.what,
            "cpu_bytes": event.cpu_delta,
            "gpu_bytes": event.gpu_delta,
            "cpu_now_bytes": event.cpu_now,
            "gpu_now_bytes": event.gpu_now,
        }
    if isinstance(event, MemUsageSnapshot):
        return {
            "kind": "snapshot",
            "item": event.what,
            "cpu_bytes": event.cpu,
            "gpu_bytes": event.gpu,
        }
    if isinstance(event, MemoryAllocation):
        return {
            "kind": "allocation",
            "item": event.what,
            "bytes": event.size_bytes,
            "cpu_bytes": event.host_bytes,
        }
    if isinstance(event, BlockAssignment) and event.phase == "done":
        return {"kind": "block assignment", "item": event.algorithm, "bytes": event.size_bytes}
    return None
