"""The envelopes of nearly every line, split by the native core (``trtlog._core``): the same
``(Envelope, body)`` as the envelope grammar (``split_envelope``), or None where only the
grammar can tell (``tests/test_grammar_rules.py`` and ``tests/test_claims.py`` compare the
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
# and its level words. ONNX Runtime's prefix relaying TensorRT's message carries the level of
# TensorRT's logger.
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
    "paddle": ("paddle", parse_triton_stamp, LEVELS),
    "glog": ("glog", parse_triton_stamp, LEVELS),
    "torch-tensorrt": ("torch-tensorrt", None, LEVELS),
    "python-logging": ("python-logging", None, LEVELS),
}


def envelope_splitter() -> _core.EnvelopeSplitter[Envelope]:
    """A splitter of lines into ``(Envelope, body)``, None where the grammar must decide (one
    per log: it keeps the envelope of each prefix it met, so that the lines of one second at
    one level share one)."""
    return _core.EnvelopeSplitter(_envelope, NO_ENVELOPE)


def _envelope(style_name: str, stamp: str | None, level: str | None, producer: str) -> Envelope:
    """The envelope of a prefix the core split off, from its pieces as printed."""
    style, read_stamp, levels = _STYLES[style_name]
    return Envelope(
        style,
        None if stamp is None or read_stamp is None else read_stamp(stamp),
        None if level is None else levels[level],
        producer,
    )


__all__ = ["envelope_splitter"]
