"""Graph optimisation: stage layer counts and fusions."""

from __future__ import annotations

import re
from typing import Any

from lark import Token, v_args

from trtlog.events.graph import (
    CopyGenerated,
    ForeignNodeMetadata,
    FusionPassRunning,
    GraphRewrite,
    InputReplaced,
    LayerCount,
    LayerEliminated,
    LayerRemoved,
    LayersFused,
    LayersMerged,
    LayersSwapped,
    LayerTypeConverted,
    QuantizationParams,
    SymbolicShape,
    TensorRetargeted,
)
from trtlog.parse.transform.context import RecordTransformer, text

# The ONNX layers a Myelin region's metadata lists: "[ONNX Layer: a][ONNX Layer: b]".
_ONNX_LAYER = re.compile(r"\[ONNX Layer: ([^\]]*)\]")


def onnx_layers(metadata: str) -> tuple[str, ...]:
    """The ONNX layers named in the REST after a ForeignNode's " metadata:"."""
    return tuple(_ONNX_LAYER.findall(metadata))


# The fields of the rules' events past the head, from their tokens' text: shared with the native
# core's records (``trtlog.parse.claimed``).
def foreign_node_fields(node: str, profile: str | None, metadata: str | None) -> dict[str, Any]:
    return {
        "node": node,
        "onnx_layers": onnx_layers(metadata or ""),
        "profile": 0 if profile is None else int(profile),
    }


def layer_count_fields(stage: str, count: str) -> dict[str, Any]:
    return {
        "stage": stage[len("After ") :] if stage.startswith("After ") else stage,
        "count": int(count),
    }


def symbolic_shape_fields(kind: str, name: str) -> dict[str, Any]:
    return {"item": "layer", "name": f"{kind} {name}".strip()}


def symbolic_tensor_fields(role: str, index: str) -> dict[str, Any]:
    return {"item": role.strip().lower(), "name": index}


def symbolic_dimension_fields(value: str, symbol: str) -> dict[str, Any]:
    return {"item": "dimension", "value": value.strip(), "symbol": symbol.strip()}


def fusion_pass_fields(name: str, target: str | None) -> dict[str, Any]:
    return {"pass_name": name, "target": target}


def layer_removed_fields(layer: str) -> dict[str, Any]:
    return {"layer": layer.strip()}


def quantization_fields(step: str, rest: str | None) -> dict[str, Any]:
    return {"step": step.strip(), "detail": (rest or "").strip()}


@v_args(inline=True)
class GraphRules(RecordTransformer):
    def layer_count(self, stage: Token, count: Token) -> LayerCount:
        return LayerCount(**self.fields(), **layer_count_fields(str(stage), str(count)))

    def fusion_pass_running(self, name: Token, target: Token | None) -> FusionPassRunning:
        return FusionPassRunning(**self.fields(), **fusion_pass_fields(str(name), text(target)))

    def layers_fused(self, pass_name: Token, first: Token, second: Token) -> LayersFused:
        return LayersFused(
            **self.fields(), pass_name=str(pass_name), first=str(first), second=str(second)
        )

    def layers_fused_into(self, pass_name: Token, first: Token, target: Token) -> LayersFused:
        return LayersFused(
            **self.fields(),
            pass_name=str(pass_name),
            first=str(first),
            second=str(target),
            relation="into",
        )

    def weights_fused(self, first: Token, second: Token) -> LayersFused:
        return LayersFused(
            **self.fields(),
            pass_name=None,
            first=str(first),
            second=str(second),
            relation="weights",
        )

    def layers_fused_unnamed(self, first: Token, second: Token) -> LayersFused:
        return LayersFused(**self.fields(), pass_name=None, first=str(first), second=str(second))

    def layer_removed(self, layer: Token) -> LayerRemoved:
        return LayerRemoved(**self.fields(), **layer_removed_fields(str(layer)))

    def layer_type_converted(
        self, _verb: Token, layer: Token, from_type: Token, to_type: Token
    ) -> LayerTypeConverted:
        return LayerTypeConverted(
            **self.fields(), layer=str(layer), from_type=str(from_type), to_type=str(to_type)
        )

    def layer_eliminated(self, layer: Token, detail: Token | None) -> LayerEliminated:
        name = str(layer)
        what = None
        for prefix in ("concatenation ", "slice "):
            if name.startswith(prefix):
                what, name = prefix.strip(), name[len(prefix) :]
        return LayerEliminated(
            **self.fields(), layer=name, what=what, detail=(text(detail) or "").strip() or None
        )

    def layers_merged(self, layers: Token) -> LayersMerged:
        return LayersMerged(
            **self.fields(), layers=tuple(part.strip() for part in str(layers).split(" || "))
        )

    def graph_rewrite(self, pass_name: Token, detail: Token) -> GraphRewrite:
        return GraphRewrite(**self.fields(), pass_name=str(pass_name), detail=str(detail).strip())

    def layers_swapped(self, first: Token, second: Token) -> LayersSwapped:
        return LayersSwapped(**self.fields(), first=str(first), second=str(second))

    def tensor_retargeted(self, tensor: Token, target: Token) -> TensorRetargeted:
        return TensorRetargeted(**self.fields(), tensor=str(tensor), target=str(target).strip())

    def input_replaced(
        self, index: Token, layer: Token, tensor: Token, producer: Token
    ) -> InputReplaced:
        return InputReplaced(
            **self.fields(),
            layer=str(layer),
            index=int(index),
            tensor=str(tensor),
            producer_layer=str(producer),
        )

    def copy_generated(self, place: Token, layer: Token) -> CopyGenerated:
        return CopyGenerated(**self.fields(), place=str(place), layer=str(layer).strip())

    def tensor_copied(self, tensor: Token, target: Token, reason: Token | None) -> TensorRetargeted:
        return TensorRetargeted(
            **self.fields(),
            tensor=str(tensor),
            target=str(target),
            copied=True,
            reason=text(reason),
        )

    def foreign_node_metadata(
        self, node: Token, profile: Token | None, metadata: Token | None
    ) -> ForeignNodeMetadata:
        return ForeignNodeMetadata(
            **self.fields(), **foreign_node_fields(str(node), text(profile), text(metadata))
        )

    def symbolic_shape(self, kind: Token, name: Token) -> SymbolicShape:
        return SymbolicShape(**self.fields(), **symbolic_shape_fields(str(kind), str(name)))

    def symbolic_shape_tensor(self, role: Token, index: Token) -> SymbolicShape:
        return SymbolicShape(**self.fields(), **symbolic_tensor_fields(str(role), str(index)))

    def symbolic_shape_dimension(self, value: Token, symbol: Token) -> SymbolicShape:
        fields = symbolic_dimension_fields(str(value), str(symbol))
        return SymbolicShape(**self.fields(), **fields)

    def quantization_params(self, step: Token, rest: Token | None) -> QuantizationParams:
        return QuantizationParams(**self.fields(), **quantization_fields(str(step), text(rest)))
