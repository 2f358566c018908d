"""ONNX parser phase: model header, network inputs and outputs, importer trace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class OnnxModelBanner(Event):
    """One of the two dashed lines around the ONNX model header."""

    family: ClassVar[str] = "onnx"


@dataclass(frozen=True, slots=True, kw_only=True)
class OnnxModelInfo(Event):
    """``ONNX IR version:  0.0.8``, ``Opset version:    17``, ``Producer name:    pytorch``..."""

    family: ClassVar[str] = "onnx"
    key: str
    value: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkInput(Event):
    """``Adding network input: x with dtype: float32, dimensions: (-1, 1, 28, 28)``."""

    family: ClassVar[str] = "onnx"
    name: str
    dtype: str
    dims: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkOutput(Event):
    """``Marking y_6 as output: y``: TensorRT tensor ``tensor`` becomes network output ``name``."""

    family: ClassVar[str] = "onnx"
    tensor: str
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OnnxImporterTrace(Event):
    """One step of the ONNX importer's VERBOSE trace.

    ``step`` names the message ("Parsing node", "Registering tensor", "node inputs", ...);
    ``subject`` is what it is about (node, tensor or layer name) and ``detail`` the rest;
    ``location`` the importer's source position, where it printed one (7.0)."""

    family: ClassVar[str] = "onnx"
    step: str
    subject: str
    detail: str | None = None
    location: str | None = None
