"""The built engine's layers, with precision, formats, weights, kernel and profile time.

``layers`` columns: ``run``, ``build``, ``strategy`` (see ``Event``; a ``--loadEngine`` run's
layers belong to no build), ``name``, ``layer_type``, ``tactic``, ``kernel`` (from a detailed
record, else the chosen tactic's kernel from the tuning log), ``tactic_ms`` and ``gap_percent``
(what tuning measured for the engine's tactic and how much slower the runner-up was: the
``choices`` row that is ``in_engine``), ``precision`` (the first input's data
type as fp32/fp16/bf16/int8/fp8/..., the output's for layers without inputs; Int32, Int64 and
Bool tensors only where the layer has no other), ``input_dtypes``,
``output_dtypes``, ``input_formats``, ``output_formats`` (TensorRT's wording, one entry per tensor,
"; "-separated), ``input_formats_short``, ``output_formats_short`` (``FP16 NHWC8``, ``Int8
NC/32HW32``), ``input_names``, ``output_names`` (the tensors, "; "-separated), ``input_shapes``,
``output_shapes`` (``1x3x224x224``, -1 for a dynamic dimension), ``weights_type``,
``weights_count``, ``sparse_weights``, ``sparse_eligible``, ``sparse_tactic`` (named in the build's
sparsity notes: ``trtlog.analysis.sparsity``), ``activation``, ``origin`` (what put a Reformat
layer there: REFORMAT, QDQ, ...), ``reformat`` (for reformat layers the builder inserted: "input
of <layer>: <from> -> <to>", from ``reformats``), ``original_layers`` (the network layers it
holds, "; "-separated, from ``provenance``), ``time_ms``, ``average_ms``, ``median_ms``,
``percent`` (from the per-layer profile), ``line``, then the kernel's anatomy
(``trtlog.analysis.kernel_names``): ``kernel_arch``, ``kernel_generation``, ``kernel_family``,
``kernel_operation``, ``kernel_input``, ``kernel_output``, ``kernel_math``,
``kernel_accumulator``, ``kernel_layout``, ``kernel_tile``, ``kernel_stages``,
``kernel_warps``, ``kernel_cluster``, ``kernel_tensor_cores``, ``kernel_split_k``,
``kernel_unknown``.

Layers come from Engine Layer Information, trtexec's layer listing and ``--exportLayerInfo`` JSON,
merged by build and name (a log that builds several engines lists each one's layers); a listing
that names tensor formats wins over one that only gives data types. When nothing lists the layers,
the per-layer profile's names are used. The profile of the same build (the last one printed) is
joined by name, never by position; a name the profile repeats has its times added up."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.columns import with_types
from trtlog.analysis.kernel_names import KERNEL_COLUMNS, with_kernel_columns
from trtlog.analysis.reformats import tensor_format
from trtlog.analysis.sparsity import sparse_columns
from trtlog.events import EngineLayer, Event, ProfileHeader, ProfileRow, Tensor
from trtlog.events.formats import precision_name, short_format
from trtlog.events.index import indexed

# The columns built from the listings; the kernel's anatomy is added to them (``COLUMNS``).
_LISTED_COLUMNS = [
    "run",
    "build",
    "strategy",
    "name",
    "layer_type",
    "tactic",
    "kernel",
    "tactic_ms",
    "gap_percent",
    "precision",
    "input_dtypes",
    "output_dtypes",
    "input_formats",
    "output_formats",
    "input_formats_short",
    "output_formats_short",
    "input_names",
    "output_names",
    "input_shapes",
    "output_shapes",
    "weights_type",
    "weights_count",
    "sparse_weights",
    "sparse_eligible",
    "sparse_tactic",
    "activation",
    "origin",
    "reformat",
    "original_layers",
    "time_ms",
    "average_ms",
    "median_ms",
    "percent",
    "line",
]
COLUMNS = [*_LISTED_COLUMNS, *KERNEL_COLUMNS]
# Data types that index or mask rather than compute.
_INDEX_TYPES = frozenset({"Int32", "Int64", "Bool"})
# The columns that are not text, shared with the ``precision`` table.
COLUMN_TYPES = {
    "run": "Int64",
    "build": "Int64",
    "strategy": "Int64",
    "weights_count": "Int64",
    "sparse_weights": "boolean",
    "sparse_eligible": "boolean",
    "sparse_tactic": "boolean",
}
# Fused layers prefix their parts' parameters: "ConvWeights", "ConvActivation" (ConvActPool).
# Checked in order: "HasSparseWeights" also ends in "Weights".
_ATTRIBUTE_COLUMNS = {
    "HasSparseWeights": "sparse_weights",
    "Weights": "weights",
    "Activation": "activation",
    "Origin": "origin",
}


def layers_table(
    events: Sequence[Event],
    choices: pd.DataFrame,
    provenance: pd.DataFrame,
    reformats: pd.DataFrame,
) -> pd.DataFrame:
    index = indexed(events)
    merged: dict[tuple[int | None, str], dict[str, object]] = {}
    for event in index.of(EngineLayer):
        row = merged.get((event.build, event.name))
        if row is None:
            row = merged[(event.build, event.name)] = {
                "run": event.run,
                "build": event.build,
                "strategy": event.strategy,
                "name": event.name,
                "line": event.line,
            }
        _merge(row, event)
    profile = _profile_by_name(index)
    if not merged:
        merged = {
            key: {"run": row["run"], "build": key[0], "name": key[1], "line": row["line"]}
            for key, row in profile.items()
        }
    tuned = _engine_choices(choices)
    holds = _original_layers(provenance)
    inserted = _insertions(reformats)
    rows = []
    for key, row in merged.items():
        timed = profile.get(key, {})
        kernel, tactic_ms, gap_percent = tuned.get(key, (None, math.nan, math.nan))
        if not row.get("kernel"):
            row["kernel"] = kernel
        rows.append(
            {
                **row,
                "tactic_ms": tactic_ms,
                "gap_percent": gap_percent,
                "original_layers": holds.get(key),
                "reformat": inserted.get(key),
                "time_ms": timed.get("total_ms", math.nan),
                "average_ms": timed.get("average_ms", math.nan),
                "median_ms": timed.get("median_ms", math.nan),
                "percent": timed.get("percent", math.nan),
            }
        )
    frame = pd.DataFrame(rows, columns=_LISTED_COLUMNS)
    keys = list(zip(_values(frame, "build"), frame["name"].astype(str), strict=True))
    for column, values in sparse_columns(index, keys).items():
        frame[column] = values
    return with_kernel_columns(with_types(frame, COLUMN_TYPES))


def _merge(row: dict[str, object], layer: EngineLayer) -> None:
    """Fill what this listing adds: a detailed record has kernels, formats and weights, the
    Engine Layer Information has data types and vectorised dimensions."""
    if layer.layer_type and not row.get("layer_type"):
        row["layer_type"] = layer.layer_type
    if layer.tactic is not None and not row.get("tactic"):
        row["tactic"] = repr(layer.tactic)
    if layer.kernel and not row.get("kernel"):
        row["kernel"] = layer.kernel
    for side, tensors in (("input", layer.inputs), ("output", layer.outputs)):
        described = any(tensor.format for tensor in tensors)
        if tensors and (not row.get(f"{side}_dtypes") or (described and not row.get(side))):
            row[f"{side}_dtypes"] = "; ".join(str(tensor.dtype) for tensor in tensors)
            row[f"{side}_formats"] = "; ".join(tensor_format(tensor) for tensor in tensors)
            row[f"{side}_formats_short"] = "; ".join(
                short_format(tensor.dtype, tensor.format, len(tensor.dims or ()), tensor.vectorized)
                or "?"
                for tensor in tensors
            )
            row[f"{side}_names"] = "; ".join(tensor.name for tensor in tensors)
            row[f"{side}_shapes"] = "; ".join(
                "x".join(str(size) for size in tensor.dims or ()) or "?" for tensor in tensors
            )
            row[side] = described
    if not row.get("precision"):
        first = _first_tensor(layer)
        if first is not None:
            row["precision"] = precision_name(first.dtype)
    for key, value in layer.attributes:
        column = next((c for k, c in _ATTRIBUTE_COLUMNS.items() if key.endswith(k)), None)
        if column is None or row.get(column if column != "weights" else "weights_type") is not None:
            continue
        if column == "weights":
            weights = _json(value)
            if isinstance(weights, dict):
                row["weights_type"] = weights.get("Type")
                row["weights_count"] = weights.get("Count")
        elif column == "sparse_weights":
            row[column] = value.strip() == "1"
        else:
            row[column] = value


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _first_tensor(layer: EngineLayer) -> Tensor | None:
    """The tensor whose data type is the layer's precision: the first input's, the output's
    for layers without inputs; an index or a mask (a transformer's token ids into a Myelin
    region, Int32 beside Half data) only where the layer has nothing else."""
    typed = [
        tensor for tensors in (layer.inputs, layer.outputs) for tensor in tensors if tensor.dtype
    ]
    computed = [tensor for tensor in typed if tensor.dtype not in _INDEX_TYPES]
    chosen = computed or typed
    return chosen[0] if chosen else None


def _profile_by_name(
    events: Sequence[Event],
) -> dict[tuple[int | None, str], dict[str, float | int | None]]:
    """Each build's last per-layer profile (or the exported one) by build and layer name; a
    name repeated within it has its times added up."""
    profiles: list[list[ProfileRow]] = [[]]
    for event in indexed(events).of(ProfileHeader, ProfileRow):
        if isinstance(event, ProfileHeader) and profiles[-1]:
            profiles.append([])
        elif isinstance(event, ProfileRow) and event.layer != "Total":
            if profiles[-1] and profiles[-1][-1].build != event.build:
                profiles.append([])
            profiles[-1].append(event)
    last: dict[int | None, list[ProfileRow]] = {}
    for rows in profiles:
        if rows:
            last[rows[0].build] = rows
    by_name: dict[tuple[int | None, str], dict[str, float | int | None]] = {}
    for row in (row for rows in last.values() for row in rows):
        key = (row.build, row.layer)
        entry = by_name.get(key)
        if entry is None:
            by_name[key] = {
                "run": row.run,
                "total_ms": row.total_ms,
                "average_ms": row.average_ms,
                "median_ms": math.nan if row.median_ms is None else row.median_ms,
                "percent": row.percent,
                "line": row.line,
            }
        else:
            entry["total_ms"] = float(entry["total_ms"] or 0.0) + row.total_ms
            entry["average_ms"] = float(entry["average_ms"] or 0.0) + row.average_ms
            entry["percent"] = float(entry["percent"] or 0.0) + row.percent
            entry["median_ms"] = math.nan  # medians of parts do not add up
    return by_name


def _values(frame: pd.DataFrame, column: str) -> list[object]:
    """A column's values as a list, a missing number as None (so that it keys a dict as
    ``Event.build`` does)."""
    return [None if value is pd.NA else value for value in frame[column].tolist()]


def _insertions(reformats: pd.DataFrame) -> dict[tuple[object, str], str]:
    inserted = reformats[reformats["inserted"] & reformats["name"].notna()]
    # Column by column (``_chosen_kernels``): a large build inserts thousands of reformats.
    builds, names, directions, layers, sources, targets = (
        _values(inserted, column)
        for column in ("build", "name", "direction", "layer", "from_format", "to_format")
    )
    return {
        (build, str(name)): f"{direction} of {layer}: {source} -> {target}"
        for build, name, direction, layer, source, target in zip(
            builds, names, directions, layers, sources, targets, strict=True
        )
    }


def _original_layers(provenance: pd.DataFrame) -> dict[tuple[object, str], str]:
    known = provenance[provenance["original_layer"].notna()]
    held: dict[tuple[object, str], list[str]] = {}
    for build, layer, part in zip(
        _values(known, "build"),
        known["engine_layer"].tolist(),
        known["original_layer"].tolist(),
        strict=True,
    ):
        held.setdefault((build, str(layer)), []).append(str(part))
    return {key: "; ".join(parts) for key, parts in held.items()}


def _engine_choices(choices: pd.DataFrame) -> dict[tuple[object, str], tuple[object, float, float]]:
    """(build, layer) -> the kernel, time and runner-up gap of the choice the engine runs."""
    used = choices[choices["in_engine"]]
    # ``tolist`` first: pandas 3 holds text as Arrow-backed strings, which iterating a column
    # fetches one scalar at a time (a large build makes tens of thousands of choices).
    builds = _values(used, "build")
    layers, kernels, times, gaps = (
        used[name].tolist() for name in ("layer", "kernel", "best_ms", "gap_percent")
    )
    return {
        (build, str(layer)): (kernel, time, gap)
        for build, layer, kernel, time, gap in zip(
            builds, layers, kernels, times, gaps, strict=True
        )
    }
