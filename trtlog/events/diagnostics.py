"""Warnings and errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic(Event):
    """A warning or error that no more specific rule claims.

    ``location`` is the source position TensorRT printed ("onnx2trt_utils.cpp:374"); for
    ``Error Code N: Category (detail)`` messages ``error_code``, ``category``, ``origin`` (the API
    or bracketed location before it) and ``detail`` are split out. ``continuation`` holds the
    envelope-less lines under the message (an ONNX node dump, a failed assertion)."""

    family: ClassVar[str] = "diagnostics"
    text: str
    location: str | None = None
    error_code: int | None = None
    category: str | None = None
    origin: str | None = None
    detail: str | None = None
    continuation: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class AffectedWeights(Event):
    """``  List of affected weights: Conv-1 + ReLU-2.weight, ...`` under the FP16 weight
    conversion warning (8.6 and later)."""

    family: ClassVar[str] = "diagnostics"
    weights: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AnnouncedNodes(Event):
    """The line of names that the message on the line before it announced: 10.x's ``Detected
    layernorm nodes in FP16.`` warning is followed by the nodes, comma-separated, at VERBOSE
    (9.x prints them after the warning on its own line); 7.1 on DLA platforms follows
    ``--------------- Layers running on GPU:`` with the layers. ``announcement`` is that
    message's text. Recognised by its place in the log (``trtlog.parse.announced``), not by a
    grammar rule."""

    family: ClassVar[str] = "diagnostics"
    announcement: str
    nodes: tuple[str, ...]
