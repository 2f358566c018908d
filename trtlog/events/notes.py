"""Messages with little data: plugin registry, progress bars, Myelin trace, fixed sentences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class PluginRegistration(Event):
    """``Registered plugin creator - ::BatchedNMS_TRT version 1`` (``already`` set for
    ``Plugin creator already registered - ...``)."""

    family: ClassVar[str] = "notes"
    plugin: str
    version: str
    namespace: str = ""
    already: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressUpdate(Event):
    """An IProgressMonitor bar: ``[=---------] Timing graph nodes 23/229``; ``indent`` is the
    number of spaces before the bar (monitors indent nested phases)."""

    family: ClassVar[str] = "notes"
    phase: str
    done: int
    total: int
    indent: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class MyelinTrace(Event):
    """A line of Myelin's compiler trace: `` (foreignNode) Pass ... is currently skipped``."""

    family: ClassVar[str] = "notes"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EmptyMessage(Event):
    """An envelope with nothing, or only whitespace, after it."""

    family: ClassVar[str] = "notes"


@dataclass(frozen=True, slots=True, kw_only=True)
class BuilderNote(Event):
    """One of TensorRT's fixed informational sentences (``Loading standard plugins``,
    ``CUDA lazy loading is enabled.``, ``Detected 1 inputs and 3 output network tensors.``...)."""

    family: ClassVar[str] = "notes"
    text: str
