"""``--exportLayerInfo`` / engine inspector JSON as ``EngineLayer`` events.

``{"Layers": [...], "Bindings": [...]}``: with ``--profilingVerbosity=layer_names_only`` (the
default) each layer is a name; with ``detailed`` a record: ``Name``, ``LayerType``, ``Inputs`` and
``Outputs`` (``Name``, ``Location``, ``Dimensions``, ``Format/Datatype``; 11.x ``Format`` and
``Datatype`` apart), ``TacticName``, ``TacticValue``, and per layer type its parameters
(``Weights``, ``HasSparseWeights``, ``Activation``, ``Origin``, ``Metadata`` (8.6+), ...). 11.x
replaces ``Bindings`` with ``I/O Tensors`` records.
"""

from __future__ import annotations

import json
from typing import Any

from trtlog.events import (
    EngineBinding,
    EngineLayer,
    EngineLayerInformation,
    Event,
    TacticId,
    Tensor,
)
from trtlog.events.base import EXPORT_PRODUCER
from trtlog.events.formats import dtype_of_format

_FIELDS = ("line", "end_line")
_OWN_KEYS = {"Name", "LayerType", "Inputs", "Outputs", "TacticName", "TacticValue"}


def layer_info_events(document: dict[str, Any]) -> list[Event]:
    layers = document.get("Layers") or []
    events: list[Event] = [
        EngineLayerInformation(
            line=1, end_line=1, producer=EXPORT_PRODUCER, layer_count=len(layers)
        )
    ]
    for index, layer in enumerate(layers, start=1):
        if isinstance(layer, str):
            events.append(
                EngineLayer(line=index, end_line=index, producer=EXPORT_PRODUCER, name=layer)
            )
        elif isinstance(layer, dict):
            events.append(_detailed(layer, index))
    bindings = document.get("Bindings") or document.get("I/O Tensors") or []
    for index, binding in enumerate(bindings, start=1):
        name = binding.get("Name") if isinstance(binding, dict) else binding
        if isinstance(name, str):
            events.append(
                EngineBinding(line=index, end_line=index, producer=EXPORT_PRODUCER, name=name)
            )
    return events


def _detailed(layer: dict[str, Any], index: int) -> EngineLayer:
    tactic = layer.get("TacticValue")
    return EngineLayer(
        line=index,
        end_line=index,
        producer=EXPORT_PRODUCER,
        name=str(layer.get("Name", "")),
        layer_type=_text(layer.get("LayerType")),
        tactic=TacticId.parse(tactic) if isinstance(tactic, str) and tactic else None,
        kernel=_text(layer.get("TacticName")),
        inputs=tuple(_tensor(tensor) for tensor in layer.get("Inputs") or ()),
        outputs=tuple(_tensor(tensor) for tensor in layer.get("Outputs") or ()),
        attributes=tuple(
            (str(key), attribute_text(value))
            for key, value in layer.items()
            if key not in _OWN_KEYS
        ),
    )


def _tensor(tensor: dict[str, Any]) -> Tensor:
    # 8.x-10.x: "Format/Datatype": "Row major linear FP32" (or just "Float" in 10.x);
    # 11.x: "Format": "kLINEAR", "Datatype": "FP32".
    combined = _text(tensor.get("Format/Datatype"))
    dtype_text = _text(tensor.get("Datatype"))
    fmt = combined or _text(tensor.get("Format"))
    dtype = dtype_of_format(dtype_text or fmt or "")
    dims = tensor.get("Dimensions")
    return Tensor(
        name=str(tensor.get("Name", "")),
        dtype=dtype,
        dims=tuple(int(size) for size in dims) if isinstance(dims, list) else None,
        format=fmt,
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def attribute_text(value: Any) -> str:
    """An attribute as trtexec's detailed listing prints it: ``[7,7]``, ``{"Type": "Int8",
    "Count": 9408}``, ``RELU``, ``0``."""
    if isinstance(value, list):
        return "[" + ",".join(attribute_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)
