"""Engine layers: Engine Layer Information, detailed records, trtexec's layer listing."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from trtlog.events.base import TacticId, Tensor
from trtlog.events.engine import (
    EngineBinding,
    EngineLayer,
    EngineLayerInformation,
    LayerInformation,
    LayerPlacement,
    LayersRunningOn,
)
from trtlog.events.formats import dtype_of_format
from trtlog.parse.transform.context import RecordTransformer, tensor, text

_TENSOR_ATTRIBUTES = {"Inputs", "Outputs"}


@v_args(inline=True)
class EngineRules(RecordTransformer):
    def engine_layer_information(self, *layers: EngineLayer | None) -> list[Any]:
        found = [layer for layer in layers if layer is not None]
        header = EngineLayerInformation(
            **{**self.fields(), "end_line": self._line}, layer_count=len(found)
        )
        return [header, *found]

    def engine_layer(
        self,
        layer_type: Token,
        name: Token,
        tactic: Token,
        inputs: list[Tensor] | None,
        outputs: list[Tensor] | None,
    ) -> EngineLayer:
        return EngineLayer(
            **self.fields_at(layer_type),
            name=str(name),
            layer_type=str(layer_type),
            tactic=TacticId.parse(tactic),
            inputs=tuple(inputs or ()),
            outputs=tuple(outputs or ()),
        )

    def engine_layer_detailed(
        self, name: Token, layer_type: Token, *attributes: Any
    ) -> EngineLayer:
        values: dict[str, Any] = {}
        others: list[tuple[str, str]] = []
        for key, value in attributes:
            if key in _TENSOR_ATTRIBUTES or key in ("TacticName", "TacticValue"):
                values[key] = value
            else:
                others.append((key, value))
        tactic = values.get("TacticValue")
        return EngineLayer(
            **self.fields_at(name),
            name=str(name),
            layer_type=str(layer_type),
            tactic=TacticId.parse(tactic) if tactic else None,
            # 10.x leaves "TacticName: " empty for layers without a kernel of their own.
            kernel=values.get("TacticName") or None,
            inputs=values.get("Inputs", ()),
            outputs=values.get("Outputs", ()),
            attributes=tuple(others),
        )

    def tensor_list(self, *tensors: Tensor) -> list[Tensor]:
        return list(tensors)

    def tensor(self, name: Token, dtype: Token, dims: Token | None) -> Tensor:
        return tensor(str(name), str(dtype), text(dims))

    def detailed_attribute(self, key: Token, *values: Any) -> tuple[str, Any]:
        if key.type == "DETAILED_TENSORS_KEY":
            return str(key), tuple(value for value in values if value is not None)
        return str(key), (text(values[0]) or "").strip() if values else ""

    def detailed_tensor(
        self, name: Token, location: Token, dims: Token | None, fmt: Token
    ) -> Tensor:
        return tensor(str(name), dtype_of_format(str(fmt)), text(dims), str(fmt))

    def layer_information(self) -> LayerInformation:
        return LayerInformation(**self.fields(), title="Layer Information")

    def layer_listing(self, title: Token, *entries: Any) -> list[Any]:
        events: list[Any] = [
            LayerInformation(**{**self.fields(), "end_line": self._line}, title="Layers")
        ]
        for entry in entries:
            if entry is None:
                continue
            if isinstance(entry, (EngineLayer, EngineBinding)):
                events.append(entry)
            elif entry.type == "LISTED_LAYER_NAME":
                events.append(EngineLayer(**self.fields_at(entry), name=str(entry)))
            elif entry.type == "BINDINGS_TITLE":
                events.append(LayerInformation(**self.fields_at(entry), title="Bindings"))
        return events

    def engine_binding(self, name: Token) -> EngineBinding:
        return EngineBinding(**self.fields_at(name), name=str(name))

    def layers_running_on(self, device: Token) -> LayersRunningOn:
        return LayersRunningOn(**self.fields(), device=str(device))

    def layers_running_on_8x(self, device: Token) -> LayersRunningOn:
        return LayersRunningOn(**self.fields(), device=str(device))

    def layer_placement(self, tag: Token, kind: Token, layer: Token) -> LayerPlacement:
        device = "DLA" if tag.startswith("[Dla") else "GPU"
        return LayerPlacement(
            **self.fields(), device=device, layer_kind=str(kind), layer=str(layer).strip()
        )

    def untyped_layer_placement(self, tag: Token, layer: Token) -> LayerPlacement:
        device = "DLA" if tag.startswith("[Dla") else "GPU"
        return LayerPlacement(**self.fields(), device=device, layer=str(layer).strip())

    def no_layer_placement(self, device: Token) -> LayerPlacement:
        return LayerPlacement(**self.fields(), device=str(device))
