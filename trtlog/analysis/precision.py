"""Which engine layers run in which precision, and which run wider than the build asked for.

``precision`` columns: ``run``, ``build``, ``strategy`` (see ``Event``), ``name``, ``layer_type``,
``precision``, ``input_dtypes``,
``output_dtypes``, ``input_formats_short``, ``output_formats_short``, ``input_formats``,
``output_formats`` (TensorRT's own wording), ``weights_type``,
``weights_count``, ``sparse_weights``, ``sparse_eligible``, ``sparse_tactic`` (from ``layers``),
``activation``, ``requested`` (the precisions the build
enabled, "fp32+fp16+int8"; missing where the log does not say), ``wider`` (the layer computes
in a floating-point or quantised type wider than the narrowest the build enabled: FP32 in an
FP16 build, FP16 in an INT8 one; layers that only hold or move data, such as constants,
shuffles and reformats, are never flagged), ``reason`` (why, where the log says: TensorRT chose a
non-conforming implementation, or a tensor had no INT8 scale), ``converts`` (for reformat
layers that change the data type: "fp32 -> int8"), ``time_ms``, ``percent``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.columns import with_types
from trtlog.analysis.layers import COLUMN_TYPES
from trtlog.analysis.names import reformat_target
from trtlog.events import (
    EngineLayer,
    Event,
    MissingQuantizationScale,
    NonConformingImplementation,
    OptionLine,
)
from trtlog.events.index import indexed
from trtlog.events.options import builder_precisions

COLUMNS = [
    "run",
    "build",
    "strategy",
    "name",
    "layer_type",
    "precision",
    "input_dtypes",
    "output_dtypes",
    "input_formats_short",
    "output_formats_short",
    "input_formats",
    "output_formats",
    "weights_type",
    "weights_count",
    "sparse_weights",
    "sparse_eligible",
    "sparse_tactic",
    "activation",
    "requested",
    "wider",
    "reason",
    "converts",
    "time_ms",
    "percent",
]
# Layers that move or hold data rather than compute: their type follows their neighbours.
_NOT_COMPUTING = {
    "Constant",
    "NoOp",
    "Reformat",
    "Shuffle",
    "Slice",
    "Concatenation",
    "TrainStation",
    "DeviceToShapeHost",
    "ShapeHostToDevice",
    "shape_call",
    "signal",
    "wait",
}
# Narrowest first. Integer index types (int32, int64, bool) carry shapes and indices, not
# arithmetic whose precision a build chooses.
_WIDTH = {"fp4": 0, "int4": 0, "fp8": 1, "int8": 1, "fp16": 2, "bf16": 2, "fp32": 3}
_FLAG_PRECISIONS = {
    "--fp16": ("fp16",),
    "--bf16": ("bf16",),
    "--int8": ("int8",),
    "--fp8": ("fp8",),
    "--int4": ("int4",),
    "--fp4": ("fp4",),
    "--best": ("fp16", "int8"),
}
_NAMES = "FP32|FP16|BF16|INT8|FP8|INT4|FP4"
_PRECISION_ECHO = re.compile(rf"^({_NAMES})(\+({_NAMES}))*$")
_DTYPE_PRECISIONS = {
    "Float": "fp32",
    "Half": "fp16",
    "BFloat16": "bf16",
    "Int8": "int8",
    "FP8": "fp8",
    "Int4": "int4",
    "FP4": "fp4",
}


def requested_precisions(events: Sequence[Event], flags: Sequence[str]) -> list[str]:
    """The precisions the build enabled: trtexec's "Precision: FP32+FP16" echo or Polygraphy's
    builder configuration, else the precision flags on the command line; empty where the log
    says none of them."""
    for event in indexed(events).of(OptionLine):
        if (builder := builder_precisions(event)) is not None:
            return ["fp32", *(name.lower() for name in builder)]
        if event.key == "Precision":
            value = event.value.strip().upper()
            if _PRECISION_ECHO.match(value):
                return [part.lower() for part in value.split("+")]
    enabled = {"fp32"}
    for flag in flags:
        # The summary's "Precision: FP32+FP16" (an exporter's banner) or a command-line flag.
        echoed = flag.removeprefix("Precision: ").strip().upper()
        if flag.startswith("Precision: ") and _PRECISION_ECHO.match(echoed):
            enabled.update(part.lower() for part in echoed.split("+"))
        enabled.update(_FLAG_PRECISIONS.get(flag.split("=")[0], ()))
    return sorted(enabled, key=lambda name: -_WIDTH[name]) if len(enabled) > 1 else []


def precision_table(
    events: Sequence[Event], layers: pd.DataFrame, requested: list[str]
) -> pd.DataFrame:
    reasons = _reasons(events)
    narrowest = min((_WIDTH[name] for name in requested if name in _WIDTH), default=None)
    rows = []
    for layer in layers.itertuples(index=False):
        precision = layer.precision if isinstance(layer.precision, str) else None
        width = _WIDTH.get(precision or "")
        computes = (
            layer.layer_type not in _NOT_COMPUTING and reformat_target(str(layer.name)) is None
        )
        wider = computes and narrowest is not None and width is not None and width > narrowest
        rows.append(
            {
                **{column: getattr(layer, column) for column in COLUMNS if hasattr(layer, column)},
                "requested": "+".join(requested) or None,
                "wider": wider,
                "reason": reasons.get(str(layer.name)) if wider else None,
                "converts": _conversion(layer),
            }
        )
    frame = pd.DataFrame(rows, columns=COLUMNS)
    return with_types(frame, {**COLUMN_TYPES, "wider": bool})


def _reasons(events: Sequence[Event]) -> dict[str, str]:
    """Why a layer may not run in the requested precision, by engine layer name."""
    reasons: dict[str, list[str]] = {}
    unscaled: list[str] = []
    index = indexed(events)
    for event in index.of(NonConformingImplementation, MissingQuantizationScale):
        if isinstance(event, NonConformingImplementation):
            why = (
                "no implementation obeys the requested precision (strict mode)"
                if event.strict
                else "TensorRT chose a faster implementation than the requested precision"
            )
            reasons.setdefault(event.layer, []).append(why)
        elif isinstance(event, MissingQuantizationScale):
            unscaled.append(event.tensor)
    if unscaled:
        for event in index.of(EngineLayer):
            tensors = {tensor.name for tensor in (*event.inputs, *event.outputs)}
            for tensor in unscaled:
                if tensor in tensors:
                    why = f"no INT8 scale for tensor {tensor}"
                    reasons.setdefault(event.name, []).append(why)
    return {layer: "; ".join(dict.fromkeys(why)) for layer, why in reasons.items()}


def _conversion(layer: object) -> str | None:
    """ "fp32 -> int8" for a reformat layer whose input and output data types differ."""
    name = str(getattr(layer, "name", ""))
    if getattr(layer, "layer_type", None) != "Reformat" and reformat_target(name) is None:
        return None
    inputs, outputs = getattr(layer, "input_dtypes", None), getattr(layer, "output_dtypes", None)
    if not isinstance(inputs, str) or not isinstance(outputs, str):
        return None
    source = _DTYPE_PRECISIONS.get(inputs.split("; ")[0], inputs.split("; ")[0].lower())
    target = _DTYPE_PRECISIONS.get(outputs.split("; ")[0], outputs.split("; ")[0].lower())
    return None if source == target else f"{source} -> {target}"
