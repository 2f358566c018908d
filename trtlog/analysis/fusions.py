"""Fusions and provenance: which network layers ended up in which engine layer.

``fusions`` columns: ``run``, ``build``, ``strategy`` (see ``Event``), ``pass_name`` (missing for
5.x-7.x), ``first``, ``second``, ``relation`` ("with", "into", "weights"), ``result`` (the name the
fused layer got), ``engine_layer`` (the final engine layer of the same build that contains both
parts, when the log lists the engine's layers), ``line``.

``provenance`` columns: ``run``, ``build``, ``engine_layer``, ``original_layer``, ``via`` ("name"
for parts of an ``A + B`` name, "pointwise" for ``PWN(...)`` arguments, "merge" for ``A || B``,
"foreign node endpoint" for the first and last node of ``{ForeignNode[first...last]}``, "metadata"
where 10.x lists a Myelin region's or a layer's ONNX layers, "inserted" with no original layer for
the reformat layers TensorRT adds, "tuning" for the parts of a layer named only where its tactics
were timed, in a log that lists no engine layers), ``line`` (of the engine layer)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import pandas as pd

from trtlog.analysis.columns import with_types
from trtlog.analysis.names import original_layers
from trtlog.events import (
    EngineLayer,
    Event,
    ForeignNodeMetadata,
    LayerMemory,
    LayerPlacement,
    LayersFused,
    ProfileRow,
)
from trtlog.events.index import indexed

FUSION_COLUMNS = [
    "run",
    "build",
    "strategy",
    "pass_name",
    "first",
    "second",
    "relation",
    "result",
    "engine_layer",
    "line",
]
PROVENANCE_COLUMNS = ["run", "build", "engine_layer", "original_layer", "via", "line"]
_ONNX_LAYER = re.compile(r"\[ONNX Layer: ([^\]]*)\]")


def engine_layer_names(events: Sequence[Event]) -> list[tuple[str, Event]]:
    """The engine's layers of every build (name, the event naming it first): from the layer
    listing, else the profile, else memory, else the list of layers placed on each device
    (8.2-8.6 at INFO level; printed before the build, it names a DLA subgraph's layers one by
    one)."""
    index = indexed(events)
    for kind in (EngineLayer, ProfileRow, LayerMemory, LayerPlacement):
        found: dict[tuple[int | None, str], tuple[str, Event]] = {}
        naming: list[EngineLayer | LayerPlacement | ProfileRow | LayerMemory] = index.of(kind)
        for event in naming:
            name = event.name if isinstance(event, EngineLayer) else event.layer
            if name is not None and not (isinstance(event, ProfileRow) and name == "Total"):
                found.setdefault((event.build, name), (name, event))
        if found:
            return list(found.values())
    return []


def provenance_table(
    events: Sequence[Event], tuned: Callable[[], pd.DataFrame] | None = None
) -> pd.DataFrame:
    """``tuned``: the tactics table, read where the log names no engine layer (5.x-7.x list
    none): each layer whose tactics were timed is one, tuned under its fused name."""
    index = indexed(events)
    metadata: dict[tuple[int | None, str], list[str]] = {}
    for event in index.of(ForeignNodeMetadata, EngineLayer):
        if isinstance(event, ForeignNodeMetadata) and event.onnx_layers:
            metadata[(event.build, event.node)] = list(event.onnx_layers)
        elif isinstance(event, EngineLayer):
            listed = _ONNX_LAYER.findall(dict(event.attributes).get("Metadata", ""))
            if listed:
                metadata[(event.build, event.name)] = listed
    layers = [
        (name, event.run, event.build, event.line) for name, event in engine_layer_names(index)
    ]
    from_tuning = not layers and tuned is not None
    if from_tuning and tuned is not None:
        layers = _tuned_layers(tuned())
    rows: list[dict[str, object]] = []
    for name, run, build, line in layers:
        where = {"run": run, "build": build, "engine_layer": name}
        listed = metadata.get((build, name), [])
        if listed:
            rows.extend(
                {**where, "original_layer": part, "via": "metadata", "line": line}
                for part in dict.fromkeys(listed)
            )
            continue
        parts = original_layers(name)
        if not parts:
            # Reformat layers are TensorRT's own: no network layer went into them.
            rows.append({**where, "original_layer": None, "via": "inserted", "line": line})
        rows.extend(
            {
                **where,
                "original_layer": part.name,
                "via": "tuning" if from_tuning else part.via,
                "line": line,
            }
            for part in parts
        )
    frame = pd.DataFrame(rows, columns=PROVENANCE_COLUMNS)
    return with_types(frame, {"run": "Int64", "build": "Int64"})


def _tuned_layers(tactics: pd.DataFrame) -> list[tuple[str, int | None, int | None, int]]:
    """(name, run, build, first line) of each layer of each build whose tactics were timed;
    format conversions ("<reformat>" in 5.x-7.x, "Optimizer Reformat" in 8.x) are not."""
    if tactics.empty:
        return []
    timed = tactics[["layer", "run", "build", "line"]].dropna(subset=["layer"])
    names = timed["layer"].astype(str)
    timed = timed[~(names.str.startswith("<") | names.str.startswith("Optimizer Reformat"))]
    first = timed.drop_duplicates(["build", "layer"])
    return [
        (str(name), None if pd.isna(run) else int(run), None if pd.isna(build) else int(build),
         int(line))
        for name, run, build, line in first.itertuples(index=False)
    ]  # fmt: skip


def fusions_table(events: Sequence[Event], provenance: pd.DataFrame) -> pd.DataFrame:
    holders: dict[tuple[object, str], set[str]] = {}
    builds = [None if build is pd.NA else build for build in provenance["build"].tolist()]
    for build, engine_layer, original in zip(
        builds, provenance["engine_layer"], provenance["original_layer"], strict=True
    ):
        if isinstance(original, str):
            holders.setdefault((build, original), set()).add(engine_layer)
    rows = []
    for event in indexed(events).of(LayersFused):
        result = event.second if event.relation == "into" else f"{event.first} + {event.second}"
        rows.append(
            {
                "run": event.run,
                "build": event.build,
                "strategy": event.strategy,
                "pass_name": event.pass_name,
                "first": event.first,
                "second": event.second,
                "relation": event.relation,
                "result": result,
                "engine_layer": _holder(event.build, result, holders),
                "line": event.line,
            }
        )
    frame = pd.DataFrame(rows, columns=FUSION_COLUMNS)
    return with_types(frame, {"run": "Int64", "build": "Int64", "strategy": "Int64"})


def _holder(
    build: int | None, result: str, holders: dict[tuple[object, str], set[str]]
) -> str | None:
    """The one engine layer of ``build`` that holds every part of ``result``, if there is
    exactly one."""
    candidates: set[str] | None = None
    for part in original_layers(result):
        layers = holders.get((build, part.name), set())
        candidates = set(layers) if candidates is None else candidates & layers
    if candidates and len(candidates) == 1:
        return next(iter(candidates))
    return None
