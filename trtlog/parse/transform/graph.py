"""Graph optimisation: stage layer counts and fusions."""

from __future__ import annotations

from lark import v_args

from trtlog.events.graph import (
    FusionPassRunning,
    GraphRewrite,
    LayersSwapped,
    LayerCount,
    LayerEliminated,
    LayerRemoved,
    LayersFused,
    LayersMerged,
    LayerTypeConverted,
)
from trtlog.parse.transform.context import RecordTransformer, text


@v_args(inline=True)
class GraphRules(RecordTransformer):
    def layer_count(self, stage, count) -> LayerCount:
        name = str(stage)
        return LayerCount(
            **self.fields(), stage=name[len("After ") :] if name.startswith("After ") else name,
            count=int(count),
        )  # fmt: skip

    def fusion_pass_running(self, name, target) -> FusionPassRunning:
        return FusionPassRunning(**self.fields(), pass_name=str(name), target=text(target))

    def layers_fused(self, pass_name, first, second) -> LayersFused:
        return LayersFused(**self.fields(), pass_name=str(pass_name), first=str(first), second=str(second))

    def layers_fused_into(self, pass_name, first, target) -> LayersFused:
        return LayersFused(
            **self.fields(), pass_name=str(pass_name), first=str(first), second=str(target),
            relation="into",
        )  # fmt: skip

    def weights_fused(self, first, second) -> LayersFused:
        return LayersFused(
            **self.fields(), pass_name=None, first=str(first), second=str(second), relation="weights"
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
        return LayersMerged(**self.fields(), layers=tuple(part.strip() for part in str(layers).split(" || ")))

    def graph_rewrite(self, pass_name, detail) -> GraphRewrite:
        return GraphRewrite(**self.fields(), pass_name=str(pass_name), detail=str(detail).strip())

    def layers_swapped(self, first, second) -> LayersSwapped:
        return LayersSwapped(**self.fields(), first=str(first), second=str(second))
