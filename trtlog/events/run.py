"""Run header and footer, TensorRT version."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class RunHeader(Event):
    """``&&&& RUNNING TensorRT.trtexec [TensorRT v8502] # trtexec --onnx=...`` (or Polygraphy's
    ``RUNNING | Command: ...``): a run starts. ``version`` is dotted ("8.5.2") when printed."""

    family: ClassVar[str] = "run"
    program: str
    command: str
    version: str | None = None
    # 10.x's build tag ("b11" from "[b11]"), not an engine build.
    version_build: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RunFooter(Event):
    """``&&&& PASSED|FAILED|WAIVED ...``: a run ends with ``status``."""

    family: ClassVar[str] = "run"
    status: str
    program: str
    command: str
    version: str | None = None
    version_build: str | None = None
    runtime_seconds: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TensorrtVersion(Event):
    """``TensorRT version: 8.2.3`` (8.0.3 prints the integer code ``8003``)."""

    family: ClassVar[str] = "run"
    version: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadedModule(Event):
    """Polygraphy's ``Loaded Module: tensorrt | Version: 10.16.2.5 | Path: [...]``."""

    family: ClassVar[str] = "run"
    module: str
    version: str | None
    path: str


def version_from_code(code: int) -> str:
    """TensorRT's integer version (8003, 8510, 101601) as a dotted string.

    Before 10.0 the code is major*1000 + minor*100 + patch (8510 is 8.5.10); from 10.0 on it is
    major*10000 + minor*100 + patch (101601 is 10.16.1).
    """
    if code >= 100000:
        major, minor, patch = code // 10000, (code // 100) % 100, code % 100
    else:
        major, minor, patch = code // 1000, (code // 100) % 10, code % 100
    return f"{major}.{minor}.{patch}"
