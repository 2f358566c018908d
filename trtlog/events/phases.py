"""Durations the builder and the tools report, and phase markers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseDuration(Event):
    """A duration TensorRT or a tool reported itself, in seconds.

    ``phase`` is the phase as the log names it ("Engine generation", "Formats and tactics
    selection", "Graph optimization", "Engine built", "Parse", "Deserialization", ...)."""

    family: ClassVar[str] = "timing"
    phase: str
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseMarker(Event):
    """A line that opens or closes a phase: ``Start parsing network model``,
    ``Starting inference``, ``Skipped inference phase since --skipInference is added.``"""

    family: ClassVar[str] = "timing"
    text: str
