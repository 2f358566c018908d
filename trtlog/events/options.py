"""Option echoes, section titles and device information (trtexec)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class SectionHeader(Event):
    """``=== Build Options ===``, ``=== Performance summary ===`` and the like."""

    family: ClassVar[str] = "options"
    title: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionLine(Event):
    """A ``Key: value`` line of trtexec; ``section`` is the title of the section it sits in
    (set when the log is folded), ``None`` outside any section."""

    family: ClassVar[str] = "options"
    key: str
    value: str
    section: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DynamicShapeOverride(Event):
    """trtexec's ``Dynamic dimensions required for input: X, but no shapes were provided.
    Automatically overriding shape to: 1x3x224x224``: the engine is built for ``shape``."""

    family: ClassVar[str] = "options"
    input: str
    shape: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceProperty(Event):
    """A line of ``=== Device Information ===``: ``Selected Device: NVIDIA H100 PCIe``,
    ``Compute Capability: 9.0``, or an ``Available Devices`` entry (key ``Device 0``)."""

    family: ClassVar[str] = "device"
    key: str
    value: str
