"""The built engine's layers, with precision, formats, kernel and profile time.

``layers`` columns: ``name``, ``layer_type``, ``tactic``, ``kernel`` (from a detailed record, else
the chosen tactic's kernel from the tuning log), ``precision`` (the first input's data type as
fp32/fp16/bf16/int8/fp8/..., the output's for layers without inputs), ``input_dtypes``,
``output_dtypes``, ``input_formats``, ``output_formats`` (one entry per tensor, "; "-separated),
``time_ms``, ``average_ms``, ``median_ms``, ``percent`` (from the per-layer profile), ``line``.

Layers come from Engine Layer Information and trtexec's layer listing, merged by name; when the
log lists no layers, the per-layer profile's names are used.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.reformats import tensor_format
from trtlog.events import EngineLayer, Event, ProfileRow, Tensor
from trtlog.events.formats import precision_name

COLUMNS = [
    "name",
    "layer_type",
    "tactic",
    "kernel",
    "precision",
    "input_dtypes",
    "output_dtypes",
    "input_formats",
    "output_formats",
    "time_ms",
    "average_ms",
    "median_ms",
    "percent",
    "line",
]


def layers_table(events: Sequence[Event], choices: pd.DataFrame) -> pd.DataFrame:
    merged: dict[str, dict[str, object]] = {}
    for event in events:
        if isinstance(event, EngineLayer):
            _merge(merged.setdefault(event.name, {"name": event.name, "line": event.line}), event)
    profile = {
        event.layer: event
        for event in events
        if isinstance(event, ProfileRow) and event.layer != "Total"
    }
    if not merged:
        merged = {name: {"name": name, "line": row.line} for name, row in profile.items()}
    kernels = _chosen_kernels(choices)
    rows = []
    for name, row in merged.items():
        timed = profile.get(name)
        if not row.get("kernel") and row.get("tactic"):
            row["kernel"] = kernels.get((name, str(row["tactic"])))
        rows.append(
            {
                **row,
                "time_ms": timed.total_ms if timed else math.nan,
                "average_ms": timed.average_ms if timed else math.nan,
                "median_ms": timed.median_ms if timed and timed.median_ms is not None else math.nan,
                "percent": timed.percent if timed else math.nan,
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def _merge(row: dict[str, object], layer: EngineLayer) -> None:
    """Fill what this listing adds: the detailed record has kernels and formats, the
    Engine Layer Information has data types and vectorised dimensions."""
    if layer.layer_type and not row.get("layer_type"):
        row["layer_type"] = layer.layer_type
    if layer.tactic is not None and not row.get("tactic"):
        row["tactic"] = repr(layer.tactic)
    if layer.kernel and not row.get("kernel"):
        row["kernel"] = layer.kernel
    for side, tensors in (("input", layer.inputs), ("output", layer.outputs)):
        if tensors and not row.get(f"{side}_dtypes"):
            row[f"{side}_dtypes"] = "; ".join(str(t.dtype) for t in tensors)
            row[f"{side}_formats"] = "; ".join(tensor_format(t) for t in tensors)
    if not row.get("precision"):
        first = _first_tensor(layer)
        if first is not None:
            row["precision"] = precision_name(first.dtype)


def _first_tensor(layer: EngineLayer) -> Tensor | None:
    for tensors in (layer.inputs, layer.outputs):
        for tensor in tensors:
            if tensor.dtype:
                return tensor
    return None


def _chosen_kernels(choices: pd.DataFrame) -> dict[tuple[str, str], str]:
    known = choices[choices["kernel"].notna()]
    return dict(
        zip(zip(known["layer"], known["tactic"], strict=True), known["kernel"], strict=True)
    )
