"""Reformat layers: where the builder inserted them and what they cost.

``reformats`` columns: ``source`` ("inserted" for ``Adding reformat layer`` lines, "engine" for
reformat layers of the built engine, "profile" for reformat rows only the profile names),
``name`` (the engine layer's name, ``Reformatting CopyNode for ...``), ``direction`` ("input":
it feeds ``layer``; "output": it converts ``layer``'s output; "network input"/"network output"),
``layer``, ``tensor``, ``from_format``, ``to_format``, ``time_ms``, ``average_ms``, ``percent``
(from the per-layer profile when the log has one), ``line``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.names import reformat_target
from trtlog.events import EngineLayer, Event, ProfileRow, ReformatLayerAdded, Tensor

COLUMNS = [
    "source",
    "name",
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
    profile = {event.layer: event for event in events if isinstance(event, ProfileRow)}
    rows: list[dict[str, object]] = []
    in_engine: set[str] = set()
    for event in events:
        if isinstance(event, ReformatLayerAdded):
            match = _REFORMATTED_TENSOR.match(event.tensor)
            direction = match.group("direction").lower() if match else None
            layer = match.group("layer") if match else None
            name = (
                f"Reformatting CopyNode for {event.tensor[len('Reformatted ') :]}"
                if match
                else None
            )
            rows.append(
                _row(
                    "inserted",
                    name,
                    direction,
                    layer,
                    event.source,
                    event.from_format,
                    event.to_format,
                    event.line,
                    profile,
                )
            )
        elif isinstance(event, EngineLayer) and _is_reformat(event):
            if event.name in in_engine:
                # The same engine listed again (trtexec's "Layer Information" after the
                # builder's "Engine Layer Information"): the first listing's formats are kept.
                continue
            target = reformat_target(event.name)
            in_engine.add(event.name)
            rows.append(
                _row(
                    "engine",
                    event.name,
                    target[0] if target else None,
                    target[1] if target else None,
                    event.inputs[0].name if event.inputs else None,
                    tensor_format(event.inputs[0]) if event.inputs else None,
                    tensor_format(event.outputs[0]) if event.outputs else None,
                    event.line,
                    profile,
                )
            )
    for name, row in profile.items():
        target = reformat_target(name)
        if target is not None and name not in in_engine:
            rows.append(
                _row("profile", name, target[0], target[1], None, None, None, row.line, profile)
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def _is_reformat(layer: EngineLayer) -> bool:
    return layer.layer_type == "Reformat" or reformat_target(layer.name) is not None


def _row(
    source: str,
    name: str | None,
    direction: str | None,
    layer: str | None,
    tensor: str | None,
    from_format: str | None,
    to_format: str | None,
    line: int,
    profile: dict[str, ProfileRow],
) -> dict[str, object]:
    timed = profile.get(name) if name else None
    return {
        "source": source,
        "name": name,
        "direction": direction,
        "layer": layer,
        "tensor": tensor,
        "from_format": from_format,
        "to_format": to_format,
        "time_ms": timed.total_ms if timed else math.nan,
        "average_ms": timed.average_ms if timed else math.nan,
        "percent": timed.percent if timed else math.nan,
        "line": line,
    }
