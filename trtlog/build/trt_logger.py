"""An ``ILogger`` that records every TensorRT message with its severity and a monotonic time.

TensorRT hands a custom logger every message, VERBOSE included, without a prefix; multi-line
messages (layer information blocks, ONNX node dumps) arrive as one call with embedded newlines.
``log`` is called from TensorRT's C++ code, which cannot take a Python exception, so nothing
may escape it. Works with any TensorRT Python module that has ``ILogger``: ``tensorrt``, and
the runtime-only ``tensorrt_lean`` and ``tensorrt_dispatch``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

# TensorRT's ILogger.Severity names -> the severities trtlog's events use.
SEVERITIES = {
    "INTERNAL_ERROR": "internal_error",
    "ERROR": "error",
    "WARNING": "warning",
    "INFO": "info",
    "VERBOSE": "verbose",
}
ERRORS = frozenset({"error", "internal_error"})

# Called with (severity, message, time.monotonic_ns()).
MessageSink = Callable[[str, str, int], None]


def severity_name(severity: object) -> str:
    name = getattr(severity, "name", None) or str(severity).rsplit(".", 1)[-1]
    return SEVERITIES.get(name, name.lower())


def capture_logger(trt: ModuleType, sink: MessageSink) -> Any:
    """A ``trt.ILogger`` that passes each message to ``sink`` and keeps the errors it saw."""

    class CaptureLogger(trt.ILogger):  # type: ignore[name-defined]
        def __init__(self) -> None:
            trt.ILogger.__init__(self)
            self.errors: list[str] = []

        def log(self, severity: object, msg: str) -> None:
            stamp = time.monotonic_ns()
            try:
                name = severity_name(severity)
                if name in ERRORS:
                    self.errors.append(msg)
                sink(name, msg, stamp)
            except BaseException:
                # TensorRT's C++ caller cannot take an exception; losing one message is better.
                pass

    return CaptureLogger()


__all__ = ["ERRORS", "SEVERITIES", "MessageSink", "capture_logger", "severity_name"]
