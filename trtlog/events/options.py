"""Option echoes, section titles and device information (trtexec), and Polygraphy's builder
configuration."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event

# The section of the rows Polygraphy prints under "Building engine with configuration:".
BUILDER_CONFIGURATION = "Builder Configuration"
# The builder flags that enable a precision, as Polygraphy names them (0.49 "Flags | [FP16,
# INT8]", 0.33 "Precision | TF32: False, FP16: True, INT8: False, Strict Types: False", 0.2x
# "Configuration | ... | tf32=False, fp16=True, int8=False, strict_types=False | 1 profiles").
_PRECISION_FLAGS = ("FP16", "BF16", "INT8", "FP8", "INT4", "FP4")
_FLAG_NAME = re.compile(r"[A-Z0-9_]+")
_ENABLED = re.compile(r"(\w+)(?:: |=)True\b")


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


def builder_precisions(option: OptionLine) -> list[str] | None:
    """The reduced precisions a Polygraphy builder configuration row enables (["FP16"]; [] for
    none), or None where ``option`` is not the row that says."""
    if option.section != BUILDER_CONFIGURATION:
        return None
    if option.key == "Flags":
        names = _FLAG_NAME.findall(option.value)
    elif option.key in ("Precision", "Configuration"):
        names = [name.upper() for name in _ENABLED.findall(option.value)]
    else:
        return None
    return [name for name in _PRECISION_FLAGS if name in names]
