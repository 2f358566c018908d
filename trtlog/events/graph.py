"""Graph optimisation: layer count per stage and fusion passes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trtlog.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class LayerCount(Event):
    """``Original: 24 layers`` / ``After vertical fusions: 10 layers``.

    ``stage`` is "Original" or the text after "After"."""

    family: ClassVar[str] = "graph"
    stage: str
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FusionPassRunning(Event):
    """``Running: ConstShuffleFusion on constant1024`` (8.0/8.2 print no target)."""

    family: ClassVar[str] = "graph"
    pass_name: str
    target: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LayersFused(Event):
    """A fusion result: ``ConvReluFusion: Fusing Conv_15 with Relu_16``.

    ``relation`` is "with" (the usual form), "into" (QuantizeDoubleInputNodes' "fusing A into B")
    or "weights" (5.x-7.x "Fusing convolution weights from A with scale B"). ``pass_name`` is
    ``None`` where 5.x-7.x print none."""

    family: ClassVar[str] = "graph"
    pass_name: str | None
    first: str
    second: str
    relation: str = "with"


@dataclass(frozen=True, slots=True, kw_only=True)
class LayerRemoved(Event):
    """``Removing (Unnamed Layer* 44) [Shuffle]``."""

    family: ClassVar[str] = "graph"
    layer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LayerTypeConverted(Event):
    """``Convert layer type of fc from FULLY_CONNECTED to CONVOLUTION`` (8.x) or
    ``Swap the layer type of X from ELEMENTWISE to POINTWISE`` (8.6 and later)."""

    family: ClassVar[str] = "graph"
    layer: str
    from_type: str
    to_type: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LayerEliminated(Event):
    """``Eliminating concatenation Concat_59`` / ``Eliminating slice X by retargeting ...`` /
    ``Eliminating QuantizeLinear_38 which duplicates (Q) QuantizeLinear_15``; ``what`` is
    "concatenation", "slice" or ``None``."""

    family: ClassVar[str] = "graph"
    layer: str
    what: str | None = None
    detail: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LayersMerged(Event):
    """A horizontal merge: ``Merging layers: A || B || C``."""

    family: ClassVar[str] = "graph"
    layers: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GraphRewrite(Event):
    """A rewrite that prints its own banner (8.x): ``-----------SqueezePushDown kSQUEEZE_JOIN
    case: MatMul --> (Unnamed Layer* 9) [Shuffle] --> add_2``."""

    family: ClassVar[str] = "graph"
    pass_name: str
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LayersSwapped(Event):
    """Q/DQ propagation: ``Swapping Add_22 + Relu_23 with QuantizeLinear_25``."""

    family: ClassVar[str] = "graph"
    first: str
    second: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TensorRetargeted(Event):
    """``Retargeting A to B`` or ``Generating copy for A to B because ...`` (``copied``)."""

    family: ClassVar[str] = "graph"
    tensor: str
    target: str
    copied: bool = False
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class InputReplaced(Event):
    """``Replacing input 0 of <layer> with <tensor> (output of <producer>)`` (8.4's dupe layer
    removal): input ``index`` of ``layer`` now reads ``tensor``."""

    family: ClassVar[str] = "graph"
    layer: str
    index: int
    tensor: str
    producer_layer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CopyGenerated(Event):
    """``Generating copy before <layer>`` (8.4): a copy inserted ``place`` ("before"/"after") a
    layer."""

    family: ClassVar[str] = "graph"
    place: str
    layer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class QuantizationParams(Event):
    """INT8 builds (8.4-8.5) setting quantisation parameters: ``step`` is "Setting a default
    quantization params because quantization data is missing for", "Setting dynamic range
    for", "Assigning", "using" or "User overriding scale with"; ``detail`` is the rest."""

    family: ClassVar[str] = "graph"
    step: str
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ForeignNodeMetadata(Event):
    """10.x: ``ForeignNode {ForeignNode[a...b]} metadata: [ONNX Layer: a][ONNX Layer: b]``:
    the ONNX layers a Myelin region was built from; ``profile`` is the optimisation profile
    (``[profile 1]`` before "metadata:", none for the first)."""

    family: ClassVar[str] = "graph"
    node: str
    onnx_layers: tuple[str, ...]
    profile: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class SymbolicShape(Event):
    """10.x's dump of symbolic shapes: a layer (``item`` "layer": ``name`` "CONVOLUTION
    node_conv2d"), one of its tensors ("input"/"output": ``name`` is the index) or a dimension
    ("dimension": ``value`` as printed, ``symbol`` its symbolic name)."""

    family: ClassVar[str] = "graph"
    item: str
    name: str | None = None
    value: str | None = None
    symbol: str | None = None
