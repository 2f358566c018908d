"""Memory: per-layer, totals, allocations, allocator usage, block assignment."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from trtlog.events.base import KIB, MIB
from trtlog.events.memory import (
    BlockAssignment,
    BlockSize,
    LayerMemory,
    MemoryAllocation,
    MemoryTotal,
    MemUsageChange,
    MemUsageSnapshot,
    MemUsageStats,
)
from trtlog.parse.transform.context import RecordTransformer, text

# 8.0 prints "MB" where later versions print "MiB" for the same binary unit.
_UNIT_BYTES = {
    "B": 1,
    "bytes": 1,
    "KiB": KIB,
    "MiB": MIB,
    "GiB": 1024 * MIB,
    "KB": KIB,
    "MB": MIB,
    "GB": 1024 * MIB,
}


def layer_memory_fields(layer: str, host: str, device: str, scratch: str | None) -> dict[str, Any]:
    """The fields of ``layer_memory`` past the head, from its tokens' text (shared with the
    native core's records, ``trtlog.parse.claimed``)."""
    return {
        "layer": layer,
        "host_persistent": int(host),
        "device_persistent": int(device),
        "scratch": None if scratch is None else int(scratch),
    }


@v_args(inline=True)
class MemoryRules(RecordTransformer):
    def layer_memory(
        self, layer: Token, host: Token, device: Token, scratch: Token | None
    ) -> LayerMemory:
        return LayerMemory(
            **self.fields(),
            **layer_memory_fields(str(layer), str(host), str(device), text(scratch)),
        )

    def layer_memory_with_weights(
        self, layer: Token, weights: Token, host: Token, device: Token
    ) -> LayerMemory:
        fields = layer_memory_fields(str(layer), str(host), str(device), None)
        return LayerMemory(**self.fields(), **fields, weights=int(weights))

    def memory_total(self, kind: Token, size: Token) -> MemoryTotal:
        what = str(kind).removeprefix("Total ").lower()
        # 7.x says "Total Weight Memory", later versions "Total Weights Memory".
        what = "weights" if what == "weight" else what
        return MemoryTotal(**self.fields(), what=what, size_bytes=int(size))

    def per_runner_memory_total(self, kind: Token, size: Token) -> MemoryTotal:
        return MemoryTotal(
            **self.fields(), what=f"per-runner {kind} persistent", size_bytes=int(size)
        )

    def memory_allocation(self, what: Token, size: Token) -> MemoryAllocation:
        return MemoryAllocation(**self.fields(), what=str(what), size_bytes=int(size))

    def runner_scratch_allocation(self, size: Token) -> MemoryAllocation:
        return MemoryAllocation(**self.fields(), what="Runner scratch", size_bytes=int(size))

    def memory_reservation(
        self, what: Token, host: Token, device: Token | None
    ) -> MemoryAllocation:
        return MemoryAllocation(
            **self.fields(),
            what=f"Reserving memory for {what}",
            size_bytes=0 if device is None else int(device),
            host_bytes=int(host),
        )

    def engine_size(self, what: Token, size: Token, unit: Token) -> MemoryAllocation:
        return MemoryAllocation(
            **self.fields(),
            what=str(what).rstrip(": "),
            size_bytes=round(float(size) * _UNIT_BYTES[str(unit)]),
        )

    def block_size(self, size: Token) -> BlockSize:
        return BlockSize(**self.fields(), size_bytes=int(size))

    def mem_usage_change(
        self, what: Token, cpu_delta: Token, gpu_delta: Token, cpu_now: Token, gpu_now: Token
    ) -> MemUsageChange:
        return MemUsageChange(
            **self.fields(),
            what=str(what),
            cpu_delta=int(cpu_delta) * MIB,
            gpu_delta=int(gpu_delta) * MIB,
            cpu_now=int(cpu_now) * MIB,
            gpu_now=int(gpu_now) * MIB,
        )

    def mem_usage_snapshot(self, what: Token, cpu: Token, gpu: Token) -> MemUsageSnapshot:
        return MemUsageSnapshot(
            **self.fields(), what=str(what), cpu=int(cpu) * MIB, gpu=int(gpu) * MIB
        )

    def mem_usage_stats(self, what: Token, cpu: Token, gpu: Token) -> MemUsageStats:
        return MemUsageStats(
            **self.fields(), what=str(what), cpu=int(cpu) * MIB, gpu=int(gpu) * MIB
        )

    def mem_usage_stats_cpu(self, what: Token, cpu: Token) -> MemUsageStats:
        return MemUsageStats(**self.fields(), what=str(what), cpu=int(cpu) * MIB)

    def block_assignment(self, steps: Token) -> BlockAssignment:
        return BlockAssignment(**self.fields(), phase="started", steps=int(steps))

    def block_assignment_done(
        self, algorithm: Token, ms: Token, blocks: Token, nodes: Token, size: Token
    ) -> BlockAssignment:
        return BlockAssignment(
            **self.fields(),
            phase="done",
            algorithm=str(algorithm),
            milliseconds=float(ms),
            blocks=int(blocks),
            nodes=int(nodes),
            size_bytes=int(size),
        )

    def block_count(self, stage: Token, count: Token) -> BlockAssignment:
        return BlockAssignment(**self.fields(), phase=str(stage), blocks=int(count))
