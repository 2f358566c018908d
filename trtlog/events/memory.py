"""Memory: per-layer memory, totals, allocations, allocator usage, block assignment.

All sizes are bytes, whether the log printed "bytes", nothing, or MiB (MemUsage* lines)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class LayerMemory(Event):
    """``Layer: X Host Persistent: 1664 Device Persistent: 8192 Scratch Memory: 0`` (7.x and 8.2
    print no scratch figure, so ``scratch`` is ``None`` there; 7.x prints the layer's
    ``weights``)."""

    family: ClassVar[str] = "memory"
    layer: str
    host_persistent: int
    device_persistent: int
    scratch: int | None = None
    weights: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryTotal(Event):
    """``Total Activation Memory: 88883200``; ``what`` is "host persistent", "device persistent",
    "scratch", "activation", "weights", "per-runner device persistent" or "per-runner host
    persistent"."""

    family: ClassVar[str] = "memory"
    what: str
    size_bytes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryAllocation(Event):
    """A runtime allocation or size report: ``Allocated activation device memory of size N``,
    ``- Runner scratch: N bytes``, ``Reserving memory for activation tensors. Host: 0 bytes
    Device: N bytes``, ``Loaded engine size: 21 MiB``, ``Created engine with size: 12.8 MiB``."""

    family: ClassVar[str] = "memory"
    what: str
    size_bytes: int
    host_bytes: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockSize(Event):
    """``Block size 1073741824`` (7.x-8.4): one activation block."""

    family: ClassVar[str] = "memory"
    size_bytes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MemUsageChange(Event):
    """``[MemUsageChange] Init CUDA: CPU +157, GPU +0, now: CPU 164, GPU 506 (MiB)``."""

    family: ClassVar[str] = "memory"
    what: str
    cpu_delta: int
    gpu_delta: int
    cpu_now: int
    gpu_now: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MemUsageSnapshot(Event):
    """8.0-8.2: ``[MemUsageSnapshot] Begin constructing builder kernel library: CPU 189 MiB,
    GPU 629 MiB``."""

    family: ClassVar[str] = "memory"
    what: str
    cpu: int
    gpu: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MemUsageStats(Event):
    """``[MemUsageStats] Peak memory usage of TRT CPU/GPU memory allocators: CPU 18 MiB, GPU 463
    MiB``; the 8.6+ building-and-serialization peak gives only ``cpu``."""

    family: ClassVar[str] = "memory"
    what: str
    cpu: int
    gpu: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockAssignment(Event):
    """``[BlockAssignment]`` progress: ``phase`` "started" (with ``steps``), "done" (algorithm,
    milliseconds, blocks, nodes, size) or a block count ("pre-optimized"/"optimized")."""

    family: ClassVar[str] = "memory"
    phase: str
    steps: int | None = None
    algorithm: str | None = None
    milliseconds: float | None = None
    blocks: int | None = None
    nodes: int | None = None
    size_bytes: int | None = None
