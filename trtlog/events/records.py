"""Lines the grammar does not claim: unrecognised TensorRT lines and other programs' output."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class Unrecognized(Event):
    """A line from TensorRT or trtexec that matches no rule, kept as it was (envelope removed)."""

    family: ClassVar[str] = "unrecognized"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Foreign(Event):
    """A line another program wrote between TensorRT's lines (plugin prints, Python logging of
    other loggers, Polygraphy's own reports, tracebacks), kept as it was."""

    family: ClassVar[str] = "foreign"
    text: str
