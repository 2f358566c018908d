"""Rules about what the builder warns may cost accuracy: normalisation in FP16, tensors of an
INT8 build without a quantisation scale."""

from __future__ import annotations

from collections.abc import Iterator

from trtlog.analysis import BuildLog
from trtlog.check.rule import Finding, Rule
from trtlog.events import AnnouncedNodes, Diagnostic, MissingQuantizationScale

# 8.6 to 10.x, once per build: "Detected layernorm nodes in FP16." then "Running layernorm after
# self-attention in FP16 may cause overflow. ...", with the nodes on the line after the first at
# VERBOSE level (``AnnouncedNodes``).
_LAYERNORM_WARNING = "Detected layernorm nodes in FP16"
# Tensors named in a finding's message, the rest counted.
_NAMED = 3


class Fp16Layernorm(Rule):
    id = "fp16-layernorm"
    severity = "warning"
    title = "Layer normalisation runs in FP16"
    why = (
        "TensorRT warns that layernorm after self-attention may overflow in FP16 (8.6 and later): "
        "a transformer's accuracy can drop or its outputs turn to NaN."
    )
    advice = (
        "Export with ONNX opset 17 or later (TensorRT's INormalizationLayer), or keep the "
        "layernorm layers in FP32 (--layerPrecisions, a strongly typed network)."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        events = log.events
        warned = [
            event
            for event in events
            if isinstance(event, Diagnostic) and event.text.startswith(_LAYERNORM_WARNING)
        ]
        # The nodes come on the line after the warning.
        nodes = {
            event.line: event.nodes
            for event in events
            if isinstance(event, AnnouncedNodes)
            and event.announcement.startswith(_LAYERNORM_WARNING)
        }
        for warning in warned:
            listed = nodes.get(warning.end_line + 1, ())
            detail = f": {_names(listed)}" if listed else ""
            builds = f" (build {warning.build})" if warning.build is not None else ""
            yield self.found(f"layernorm nodes in FP16{builds}{detail}", None, warning.line)


class Int8MissingScales(Rule):
    id = "int8-missing-scales"
    severity = "warning"
    title = "Tensors without an INT8 scale in an INT8 build"
    why = (
        "TensorRT runs every layer that reads or writes such a tensor in a wider precision: "
        "the engine is slower than the INT8 build it was meant to be."
    )
    advice = (
        "Calibrate (or set dynamic ranges for) every tensor, or add Q/DQ nodes around the "
        "layers; trtlog precision shows which layers run wider."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        missing: dict[str, int] = {}
        for event in log.events:
            if isinstance(event, MissingQuantizationScale):
                missing.setdefault(event.tensor, event.line)
        if missing:
            count = f"{len(missing)} tensor{'s' if len(missing) > 1 else ''}"
            message = f"{count} without a scale: {_names(tuple(missing))}"
            yield self.found(message, None, min(missing.values()))


def _names(names: tuple[str, ...]) -> str:
    shown = ", ".join(names[:_NAMED])
    return shown if len(names) <= _NAMED else f"{shown} and {len(names) - _NAMED} more"
