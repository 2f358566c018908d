"""The Python backend, seen from trtlog: is TensorRT importable, the worker's command line, and
the reader that turns the worker's messages into log lines.

The worker's messages carry no prefix (a custom ``ILogger`` gets none); ``build.log`` gives each
the Python API's envelope, ``[MM/DD/YYYY-HH:MM:SS] [TRT] [V] message``, so the log reads like
any Python-API log, while ``capture.jsonl`` keeps the exact time and severity.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

# The TensorRT Python module the worker imports ("tensorrt"; a runtime-only package such as
# "tensorrt_lean" can only check that a GPU is usable).
TENSORRT_MODULE_VARIABLE = "TRTLOG_TENSORRT_MODULE"
INSTALL_HINT = "pip install 'trtlog[tensorrt]' --extra-index-url https://pypi.nvidia.com"
# The worker's exit status when the build itself failed (see trtlog.build.worker).
WORKER_BUILD_FAILED = 1
_TAGS = {
    "verbose": "V",
    "info": "I",
    "warning": "W",
    "error": "E",
    "internal_error": "F",
}

# Called with (raw line, monotonic ns, stream, severity).
LineSink = Callable[[bytes, int, str, str | None], None]


def tensorrt_module() -> str:
    return os.environ.get(TENSORRT_MODULE_VARIABLE) or "tensorrt"


def has_tensorrt(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it (that starts CUDA)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def parse_shapes(text: str) -> list[tuple[str, list[int]]]:
    """trtexec's shape syntax: ``input:8x3x224x224,mask:8x128``; a name may hold colons
    (``input:0:1x3``) or be quoted (``'input:0':1x3``)."""
    shapes = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, separator, dims = item.rpartition(":")
        name = name.strip().strip("'\"")
        try:
            values = [int(value) for value in dims.lower().split("x")]
        except ValueError:
            values = []
        if not separator or not name or not values or min(values) < 0:
            raise ValueError(f"--shapes: {item!r} is not NAME:DIMS such as input:8x3x224x224")
        shapes.append((name, values))
    return shapes


def worker_command(spec: dict[str, Any], fd: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "trtlog.build.worker",
        "--fd",
        str(fd),
        "--spec",
        json.dumps(spec),
    ]


class WorkerMessages:
    """Reads the worker's JSON lines: TensorRT's messages become log lines, the worker's own
    reports are kept."""

    def __init__(self, sink: LineSink, start_local: datetime, started_ns: int) -> None:
        self._sink = sink
        self._start_local = start_local
        self._started_ns = started_ns
        self.version: str | None = None
        self.failure: dict[str, Any] | None = None

    def __call__(self, raw: bytes, read_ns: int) -> None:
        try:
            message = json.loads(raw)
            kind = message["kind"]
        except (ValueError, TypeError, KeyError):
            self._sink(raw, read_ns, "logger", None)
            return
        if kind == "log":
            self._log(message, read_ns)
        elif kind == "version":
            self.version = str(message.get("version"))
        elif kind == "failure":
            self.failure = message

    def _log(self, message: dict[str, Any], read_ns: int) -> None:
        stamp_ns = message.get("t_ns")
        stamp_ns = stamp_ns if isinstance(stamp_ns, int) else read_ns
        severity = str(message.get("severity", "info"))
        when = self._start_local + timedelta(microseconds=(stamp_ns - self._started_ns) / 1000)
        lines = str(message.get("text", "")).split("\n")
        if len(lines) > 1 and not lines[-1]:
            lines.pop()
        tag = _TAGS.get(severity, severity.upper())
        lines[0] = f"[{when:%m/%d/%Y-%H:%M:%S}] [TRT] [{tag}] {lines[0]}"
        for line in lines:
            self._sink(
                (line + "\n").encode("utf-8", errors="replace"), stamp_ns, "logger", severity
            )


__all__ = [
    "INSTALL_HINT",
    "TENSORRT_MODULE_VARIABLE",
    "WorkerMessages",
    "has_tensorrt",
    "parse_shapes",
    "tensorrt_module",
    "worker_command",
]
