"""The engine's layers: Engine Layer Information and trtexec's layer listing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event, TacticId, Tensor


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineLayerInformation(Event):
    """``Engine Layer Information:``: the engine's layers follow (``layer_count`` of them when
    they sit under this line, 0 when each has its own envelope as in 7.x)."""

    family: ClassVar[str] = "engine"
    layer_count: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineLayer(Event):
    """One layer of the built engine.

    From ``Layer(CaskConvolution): name, Tactic: 0x..., inputs -> outputs`` (7.x to 11.x), from
    a detailed ``Name: ..., LayerType: ...`` record, or, with default profiling verbosity, just
    the name. ``attributes`` keeps the other ``Key: value`` pairs of detailed records
    (ParameterType, TacticName, TacticValue, Metadata, ...) as printed."""

    family: ClassVar[str] = "engine"
    name: str
    layer_type: str | None = None
    tactic: TacticId | None = None
    kernel: str | None = None
    inputs: tuple[Tensor, ...] = ()
    outputs: tuple[Tensor, ...] = ()
    attributes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LayerInformation(Event):
    """trtexec's ``Layer Information:`` and ``Layers:`` titles (``--dumpLayerInfo``)."""

    family: ClassVar[str] = "engine"
    title: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineBinding(Event):
    """A name under ``Bindings:`` in trtexec's layer listing."""

    family: ClassVar[str] = "engine"
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LayersRunningOn(Event):
    """7.1 (DLA platforms): ``--------------- Layers running on DLA:`` / ``on GPU:``."""

    family: ClassVar[str] = "engine"
    device: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LayerPlacement(Event):
    """8.4-8.6: ``[GpuLayer] CONVOLUTION: Conv_0 + Relu_1`` under "Layers Running on GPU"
    (``device`` "GPU" or "DLA"); ``No layer is running on DLA`` leaves ``layer`` empty."""

    family: ClassVar[str] = "engine"
    device: str
    layer_kind: str | None = None
    layer: str | None = None
