"""The envelopes of nearly every line, split by the native core (``trtlog._core``): the same
``(Envelope, body)`` as the envelope grammar (``split_envelope``), or None where only the
grammar can tell (``tests/test_grammar_rules.py`` and ``tests/test_fast_path.py`` compare the
two on every corpus line and on generated lines)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from trtlog import _core
from trtlog.parse.envelope import (
    EDGE_LLM_LEVELS,
    LEVELS,
    NO_ENVELOPE,
    RELAYED_LEVELS,
    Envelope,
    parse_clock_stamp,
    parse_iso_stamp,
    parse_timestamp,
    parse_triton_stamp,
)

StampReader = Callable[[str], datetime | None]

# Per style the core names: the envelope's style, how its stamp is read (None: it has none)
# and its level words.
# ONNX Runtime's prefix relaying TensorRT's message carries the level of TensorRT's logger.
_STYLES: dict[str, tuple[str, StampReader | None, Mapping[str, str]]] = {
    "trtexec": ("trtexec", parse_timestamp, LEVELS),
    "python-api": ("python-api", parse_timestamp, LEVELS),
    "level": ("level", None, LEVELS),
    "python-legacy": ("python-legacy", None, LEVELS),
    "edge-llm": ("edge-llm", parse_clock_stamp, EDGE_LLM_LEVELS),
    "deepstream": ("deepstream", None, RELAYED_LEVELS),
    "onnx-tensorrt": ("onnx-tensorrt", parse_iso_stamp, RELAYED_LEVELS),
    "onnxruntime": ("onnxruntime", parse_iso_stamp, LEVELS),
    "onnxruntime-relayed": ("onnxruntime", parse_iso_stamp, RELAYED_LEVELS),
    "triton": ("triton", parse_triton_stamp, LEVELS),
    "torch-tensorrt": ("torch-tensorrt", None, LEVELS),
    "python-logging": ("python-logging", None, LEVELS),
}
# Envelopes kept before all are forgotten (a stamped log moves on second by second).
_KEPT = 4096


class EnvelopeSplitter:
    """Splits lines with the core; builds each distinct envelope once, by its prefix (the
    lines of one second at one level share one)."""

    def __init__(self) -> None:
        self._envelopes: dict[str, Envelope] = {}

    def split(self, line: str) -> tuple[Envelope, str] | None:
        """The envelope and body of a line; None where the grammar must decide."""
        end = _core.envelope_end(line)
        if end > 0:
            prefix = line[:end]
            envelope = self._envelopes.get(prefix)
            if envelope is None:
                envelope = self._new(prefix)
            return envelope, line[end:]
        if end == 0:
            return NO_ENVELOPE, line
        return None

    def _new(self, prefix: str) -> Envelope:
        fields = _core.envelope_fields(prefix)
        # The core found this prefix a moment ago: it reads it again.
        assert fields is not None, prefix
        style_name, stamp, level, producer = fields
        style, read_stamp, levels = _STYLES[style_name]
        envelope = Envelope(
            style,
            None if stamp is None or read_stamp is None else read_stamp(stamp),
            None if level is None else levels[level],
            producer,
        )
        if len(self._envelopes) > _KEPT:
            self._envelopes.clear()
        self._envelopes[prefix] = envelope
        return envelope


__all__ = ["EnvelopeSplitter"]
