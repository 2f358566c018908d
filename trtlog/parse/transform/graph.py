"""Graph optimisation: stage layer counts and fusions."""

from __future__ import annotations

import re

from lark import v_args

from trtlog.events.graph import (
    ForeignNodeMetadata,
    FusionPassRunning,
    GraphRewrite,
    LayerCount,
    LayerEliminated,
    LayerRemoved,
    LayersFused,
    LayersMerged,
    LayersSwapped,
    LayerTypeConverted,
    SymbolicShape,
    TensorRetargeted,
)
from trtlog.parse.transform.context import RecordTransformer, text


@v_args(inline=True)
class GraphRules(RecordTransformer):
    def layer_count(self, stage, count) -> LayerCount:
        name = str(stage)
        return LayerCount(
            **self.fields(),
            stage=name[len("After ") :] if name.startswith("After ") else name,
            count=int(count),
        )

    def fusion_pass_running(self, name, target) -> FusionPassRunning:
        return FusionPassRunning(**self.fields(), pass_name=str(name), target=text(target))

    def layers_fused(self, pass_name, first, second) -> LayersFused:
        return LayersFused(
            **self.fields(), pass_name=str(pass_name), first=str(first), second=str(second)
        )

    def layers_fused_into(self, pass_name, first, target) -> LayersFused:
        return LayersFused(
            **self.fields(),
            pass_name=str(pass_name),
            first=str(first),
            second=str(target),
            relation="into",
        )

    def weights_fused(self, first, second) -> LayersFused:
        return LayersFused(
            **self.fields(),
            pass_name=None,
            first=str(first),
            second=str(second),
            relation="weights",
        )

    def layers_fused_unnamed(self, first, second) -> LayersFused:
        return LayersFused(**self.fields(), pass_name=None, first=str(first), second=str(second))

    def layer_removed(self, layer) -> LayerRemoved:
        return LayerRemoved(**self.fields(), layer=str(layer).strip())

    def layer_type_converted(self, _verb, layer, from_type, to_type) -> LayerTypeConverted:
        return LayerTypeConverted(
            **self.fields(), layer=str(layer), from_type=str(from_type), to_type=str(to_type)
        )

    def layer_eliminated(self, layer, detail) -> LayerEliminated:
        name = str(layer)
        what = None
        for prefix in ("concatenation ", "slice "):
            if name.startswith(prefix):
                what, name = prefix.strip(), name[len(prefix) :]
        return LayerEliminated(
            **self.fields(), layer=name, what=what, detail=(text(detail) or "").strip() or None
        )

    def layers_merged(self, layers) -> LayersMerged:
        return LayersMerged(
            **self.fields(), layers=tuple(part.strip() for part in str(layers).split(" || "))
        )

    def graph_rewrite(self, pass_name, detail) -> GraphRewrite:
        return GraphRewrite(**self.fields(), pass_name=str(pass_name), detail=str(detail).strip())

    def layers_swapped(self, first, second) -> LayersSwapped:
        return LayersSwapped(**self.fields(), first=str(first), second=str(second))

    def tensor_retargeted(self, tensor, target) -> TensorRetargeted:
        return TensorRetargeted(**self.fields(), tensor=str(tensor), target=str(target).strip())

    def tensor_copied(self, tensor, target, reason) -> TensorRetargeted:
        return TensorRetargeted(
            **self.fields(),
            tensor=str(tensor),
            target=str(target),
            copied=True,
            reason=text(reason),
        )

    def foreign_node_metadata(self, node, metadata) -> ForeignNodeMetadata:
        layers = re.findall(r"\[ONNX Layer: ([^\]]*)\]", text(metadata) or "")
        return ForeignNodeMetadata(**self.fields(), node=str(node), onnx_layers=tuple(layers))

    def symbolic_shape(self, kind, name) -> SymbolicShape:
        return SymbolicShape(**self.fields(), item="layer", name=f"{kind} {name}".strip())

    def symbolic_shape_tensor(self, role, index) -> SymbolicShape:
        return SymbolicShape(**self.fields(), item=role.strip().lower(), name=str(index))

    def symbolic_shape_dimension(self, value, symbol) -> SymbolicShape:
        return SymbolicShape(
            **self.fields(), item="dimension", value=value.strip(), symbol=str(symbol).strip()
        )
