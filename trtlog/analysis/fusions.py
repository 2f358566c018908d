"""Fusions and provenance: which network layers ended up in which engine layer.

``fusions`` columns: ``build``, ``pass_name`` (missing for 5.x-7.x), ``first``, ``second``,
``relation`` ("with", "into", "weights"), ``result`` (the name the fused layer got),
``engine_layer`` (the final engine layer that contains both parts, when the log lists the
engine's layers), ``line``.

``provenance`` columns: ``engine_layer``, ``original_layer``, ``via`` ("name" for parts of an
``A + B`` name, "pointwise" for ``PWN(...)`` arguments, "merge" for ``A || B``, "foreign node
endpoint" for the first and last node of ``{ForeignNode[first...last]}``, "metadata" where 10.x
lists a Myelin region's or a layer's ONNX layers, "inserted" with no original layer for the
reformat layers TensorRT adds), ``line`` (of the engine layer).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.names import original_layers
from trtlog.events import (
    EngineLayer,
    Event,
    ForeignNodeMetadata,
    LayerCount,
    LayerMemory,
    LayersFused,
    ProfileRow,
)

FUSION_COLUMNS = [
    "build",
    "pass_name",
    "first",
    "second",
    "relation",
    "result",
    "engine_layer",
    "line",
]
PROVENANCE_COLUMNS = ["engine_layer", "original_layer", "via", "line"]
_ONNX_LAYER = re.compile(r"\[ONNX Layer: ([^\]]*)\]")


def engine_layer_names(events: Sequence[Event]) -> list[tuple[str, int]]:
    """The engine's layers (name, line): from the layer listing, else the profile, else memory."""
    for kind in (EngineLayer, ProfileRow, LayerMemory):
        found: dict[str, int] = {}
        for event in events:
            if isinstance(event, kind):
                name = event.name if isinstance(event, EngineLayer) else event.layer
                if not (isinstance(event, ProfileRow) and name == "Total"):
                    found[name] = event.line
        if found:
            return list(found.items())
    return []


def provenance_table(events: Sequence[Event]) -> pd.DataFrame:
    metadata: dict[str, list[str]] = {}
    for event in events:
        if isinstance(event, ForeignNodeMetadata) and event.onnx_layers:
            metadata[event.node] = list(event.onnx_layers)
        elif isinstance(event, EngineLayer):
            listed = _ONNX_LAYER.findall(dict(event.attributes).get("Metadata", ""))
            if listed:
                metadata[event.name] = listed
    rows: list[dict[str, object]] = []
    for name, line in engine_layer_names(events):
        if name in metadata:
            rows.extend(
                {"engine_layer": name, "original_layer": part, "via": "metadata", "line": line}
                for part in dict.fromkeys(metadata[name])
            )
            continue
        parts = original_layers(name)
        if not parts:
            # Reformat layers are TensorRT's own: no network layer went into them.
            rows.append(
                {"engine_layer": name, "original_layer": None, "via": "inserted", "line": line}
            )
        rows.extend(
            {"engine_layer": name, "original_layer": part.name, "via": part.via, "line": line}
            for part in parts
        )
    return pd.DataFrame(rows, columns=PROVENANCE_COLUMNS)


def fusions_table(events: Sequence[Event], provenance: pd.DataFrame) -> pd.DataFrame:
    holders: dict[str, set[str]] = {}
    for engine_layer, original in zip(
        provenance["engine_layer"], provenance["original_layer"], strict=True
    ):
        if isinstance(original, str):
            holders.setdefault(original, set()).add(engine_layer)
    rows = []
    build = 0
    for event in events:
        if isinstance(event, LayerCount):
            build = event.build
        elif isinstance(event, LayersFused):
            result = event.second if event.relation == "into" else f"{event.first} + {event.second}"
            rows.append(
                {
                    "build": build,
                    "pass_name": event.pass_name,
                    "first": event.first,
                    "second": event.second,
                    "relation": event.relation,
                    "result": result,
                    "engine_layer": _holder(result, holders),
                    "line": event.line,
                }
            )
    return pd.DataFrame(rows, columns=FUSION_COLUMNS)


def _holder(result: str, holders: dict[str, set[str]]) -> str | None:
    """The one engine layer that holds every part of ``result``, if there is exactly one."""
    candidates: set[str] | None = None
    for part in original_layers(result):
        layers = holders.get(part.name, set())
        candidates = set(layers) if candidates is None else candidates & layers
    if candidates and len(candidates) == 1:
        return next(iter(candidates))
    return None
