"""Which timed tactic each engine layer ended up running.

The engine's own listings name the tactic of each layer: Engine Layer Information
("Layer(CaskConvolution): conv1 + relu1, Tactic: 0x61f0c2d99a3b7e08, ..."), 10.x's detailed
records ("TacticValue: 0x..."), and ``--exportLayerInfo`` JSON. Tuning chose one tactic per
format combination and runner, but only one of those runs in the engine: a ``tactics`` or
``choices`` row is ``in_engine`` when it is a choice of its layer whose tactic is the one the
engine layer of that name, in the same build (and, in 10.x, the backend strategy the builder
kept), runs. A layer tuned in several format combinations that chose the same tactic in more
than one has each of those rows marked: the log does not say which formats the engine kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from trtlog.events import EngineLayer, Event, Tensor
from trtlog.events.formats import dtype_of_format, layout_of_format

# A tensor's data type, layout ("vectorized", "channel last" or "linear") and vector width,
# input tensors then outputs: what both a tuning format combination ("Half(784,1:2,28,1) ->
# Half(12544,1:2,448,16)", strides with the vectorised one's width after a colon) and an engine
# listing ("Half[-1,1:2,28,28]", "Channel major FP16 format where channel % 2 == 0") say.
Signature = tuple[tuple[str | None, str, int], ...]
# (build, strategy, engine layer name) -> the tactic id the engine runs and its signature.
EngineTactics = dict[tuple[int | None, int | None, str], tuple[int, Signature]]
_TUNED_TENSOR = re.compile(r"(\w+)\(([^()]*)\)")
_VECTOR = re.compile(r":(\d+)")


def engine_tactics(events: Iterable[Event]) -> EngineTactics:
    """The tactic of each engine layer that names one, by build, strategy and name."""
    tactics: EngineTactics = {}
    for event in events:
        if isinstance(event, EngineLayer) and event.tactic is not None and event.build is not None:
            key = (event.build, event.strategy, event.name)
            if key not in tactics:
                signature = _engine_signature((*event.inputs, *event.outputs))
                tactics[key] = (int(event.tactic), signature)
    return tactics


def in_engine(
    rows: pd.DataFrame, engine: EngineTactics, candidates: pd.Series | None = None
) -> np.ndarray:
    """Whether each of ``rows`` (with ``build``, ``strategy``, ``layer``, ``formats`` and
    ``tactic`` columns, the tactic as "0x%016x" text) is the engine's tactic of its layer. Only
    the ``candidates`` rows (the chosen ones of millions of timings) are looked up, every row
    without them. Where several rows of one layer name the engine's tactic, those of the
    strategy the engine was built with are kept if any are, then those whose formats have the
    engine layer's data types and vector widths, if any do."""
    marked = np.zeros(len(rows), dtype=bool)
    if not engine or rows.empty:
        return marked
    wanted = {
        (build, layer): (strategy, f"0x{tactic:016x}", signature)
        for (build, strategy, layer), (tactic, signature) in engine.items()
    }
    if candidates is None:
        positions = np.arange(len(rows))
    else:
        positions = np.flatnonzero(candidates.to_numpy(dtype=bool, na_value=False))
    if not len(positions):
        return marked
    chosen = rows.iloc[positions]
    keys = zip(
        _plain(chosen["build"]),
        _plain(chosen["strategy"]),
        chosen["layer"].tolist(),
        chosen["tactic"].tolist(),
        chosen["formats"].tolist(),
        strict=True,
    )
    # Per engine layer, the rows naming its tactic: (position, same strategy, same formats).
    matches: dict[tuple[int | None, str], list[tuple[int, bool, bool]]] = {}
    for position, (build, strategy, layer, tactic, formats) in zip(positions, keys, strict=True):
        found = wanted.get((build, layer))
        if found is not None and found[1] == tactic:
            same_formats = _tuned_signature(formats) == found[2]
            matches.setdefault((build, layer), []).append(
                (int(position), strategy == found[0], same_formats)
            )
    for found_rows in matches.values():
        # 10.x reuses the timings of an earlier backend strategy: the kept strategy's own
        # choice first, else an earlier one's.
        rows_left = [row for row in found_rows if row[1]] or found_rows
        rows_left = [row for row in rows_left if row[2]] or rows_left
        for place, _, _ in rows_left:
            marked[place] = True
    return marked


def _engine_signature(tensors: Sequence[Tensor]) -> Signature:
    signature = []
    for tensor in tensors:
        dtype = tensor.dtype or (dtype_of_format(tensor.format) if tensor.format else None)
        layout = layout_of_format(tensor.format)
        if tensor.vectorized:
            signature.append((dtype, "vectorized", tensor.vectorized[0][1]))
        elif layout is not None and layout.kind in ("CHW", "HWC") and layout.width:
            signature.append((dtype, "vectorized", layout.width))
        elif layout is not None and layout.kind == "HWC":
            signature.append((dtype, "channel last", 0))
        else:
            signature.append((dtype, "linear", 0))
    return tuple(signature)


def _tuned_signature(formats: object) -> Signature | None:
    if not isinstance(formats, str):
        return None
    signature = []
    for dtype, text in _TUNED_TENSOR.findall(formats):
        vector = _VECTOR.search(text)
        strides = text.split(",")
        if vector:
            signature.append((dtype, "vectorized", int(vector.group(1))))
        elif len(strides) >= 3 and strides[1].strip() == "1" and strides[-1].strip() != "1":
            # The channels' stride is 1 and the last dimension's is not: NHWC.
            signature.append((dtype, "channel last", 0))
        else:
            signature.append((dtype, "linear", 0))
    return tuple(signature)


def _plain(column: pd.Series) -> list[int | None]:
    """A nullable integer column as ints and None (how events hold build and strategy)."""
    return [None if value is pd.NA else int(value) for value in column.tolist()]
