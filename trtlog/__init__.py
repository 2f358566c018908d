"""trtlog: turn TensorRT build logs into typed events and answers."""

from __future__ import annotations

__version__ = "0.1.0"
