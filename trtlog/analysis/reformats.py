"""Reformat layers: where the builder inserted them and what they cost.

``reformats`` columns, one row per reformat layer of each build: ``run``, ``build``,
``strategy`` (see ``Event``), ``name`` (the engine layer's name, ``Reformatting CopyNode for
...``), ``inserted`` (the builder announced it with ``Adding reformat layer`` once tactics were
chosen), ``in_engine`` (the engine's layer listing or its per-layer profile names it),
``direction`` ("input": it feeds ``layer``; "output": it converts ``layer``'s output; "network
input"/"network output"), ``layer``, ``tensor``, ``from_format``, ``to_format`` (as the log words
them: the builder's ``Half(1568,1:8,224,8)``, an inspector's ``Channel major FP16 format where
channel % 8 == 0`` or ``Half[1,32:8,14,14]``), ``time_ms``, ``average_ms``, ``percent`` (from the
per-layer profile when the log has one), ``line`` (where it first appears).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.columns import with_types
from trtlog.analysis.names import reformat_target
from trtlog.events import EngineLayer, Event, ProfileRow, ReformatLayerAdded, Tensor
from trtlog.events.index import indexed

COLUMNS = [
    "run",
    "build",
    "strategy",
    "name",
    "inserted",
    "in_engine",
    "direction",
    "layer",
    "tensor",
    "from_format",
    "to_format",
    "time_ms",
    "average_ms",
    "percent",
    "line",
]
_REFORMATTED_TENSOR = re.compile(
    r"^Reformatted (?P<direction>Input|Output) Tensor (?P<index>\d+) to (?P<layer>.+)$"
)


def tensor_format(tensor: Tensor) -> str:
    """``Half[1,32:8,14,14]``, or the inspector's format text where the log gives it."""
    if tensor.format:
        return tensor.format
    widths = dict(tensor.vectorized)
    dims = ",".join(
        f"{size}:{widths[index]}" if index in widths else str(size)
        for index, size in enumerate(tensor.dims or ())
    )
    return f"{tensor.dtype}[{dims}]"


def reformats_table(events: Sequence[Event]) -> pd.DataFrame:
    index = indexed(events)
    profile = {(event.build, event.layer): event for event in index.of(ProfileRow)}
    rows: dict[tuple[int | None, str], dict[str, object]] = {}
    unnamed: list[dict[str, object]] = []
    for event in index.of(ReformatLayerAdded, EngineLayer):
        if isinstance(event, ReformatLayerAdded):
            match = _REFORMATTED_TENSOR.match(event.tensor)
            row = _row(event, event.source, event.from_format, event.to_format)
            row["inserted"] = True
            if match is None:
                unnamed.append(row)
                continue
            row["direction"] = match.group("direction").lower()
            row["layer"] = match.group("layer")
            name = f"Reformatting CopyNode for {event.tensor[len('Reformatted ') :]}"
            _add(rows, (event.build, name), row)
        elif isinstance(event, EngineLayer) and _is_reformat(event):
            row = _row(
                event,
                event.inputs[0].name if event.inputs else None,
                tensor_format(event.inputs[0]) if event.inputs else None,
                tensor_format(event.outputs[0]) if event.outputs else None,
            )
            row["in_engine"] = True
            target = reformat_target(event.name)
            if target:
                row["direction"], row["layer"] = target
            _add(rows, (event.build, event.name), row)
    for (profiled_build, name), timed in profile.items():
        target = reformat_target(name)
        if target is not None:
            row = _row(timed, None, None, None)
            row["direction"], row["layer"] = target
            row["in_engine"] = True
            _add(rows, (profiled_build, name), row)
    named = [{**row, "name": key[1]} for key, row in rows.items()]
    for row in named:
        build = row["build"]
        profiled = profile.get((build if isinstance(build, int) else None, str(row["name"])))
        if profiled is not None:
            row["time_ms"] = profiled.total_ms
            row["average_ms"] = profiled.average_ms
            row["percent"] = profiled.percent
    frame = pd.DataFrame(named + unnamed, columns=COLUMNS)
    frame = with_types(frame, {"run": "Int64", "build": "Int64", "strategy": "Int64"})
    for flag in ("inserted", "in_engine"):
        frame[flag] = frame[flag].astype("boolean").fillna(False).astype(bool)
    for number in ("time_ms", "average_ms", "percent"):
        frame[number] = frame[number].astype("float64")
    return frame


def _row(
    event: Event, tensor: str | None, from_format: str | None, to_format: str | None
) -> dict[str, object]:
    return {
        "run": event.run,
        "build": event.build,
        "strategy": event.strategy,
        "tensor": tensor,
        "from_format": from_format,
        "to_format": to_format,
        "time_ms": math.nan,
        "average_ms": math.nan,
        "percent": math.nan,
        "line": event.line,
    }


def _add(
    rows: dict[tuple[int | None, str], dict[str, object]],
    key: tuple[int | None, str],
    row: dict[str, object],
) -> None:
    """One row per reformat layer: a layer seen again (inserted, then listed in the engine,
    then profiled; or trtexec listing the engine again) fills only what is still missing."""
    known = rows.get(key)
    if known is None:
        rows[key] = row
        return
    for column, value in row.items():
        if value is not None and value is not True and known.get(column) is None:
            known[column] = value
        elif value is True:
            known[column] = True


def _is_reformat(layer: EngineLayer) -> bool:
    return layer.layer_type == "Reformat" or reformat_target(layer.name) is not None
