"""Rules about the built engine's layers: precision, quantisation, formats, kernels."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import ClassVar

import pandas as pd

from trtlog.analysis import BuildLog
from trtlog.analysis.names import reformat_target
from trtlog.check.rule import Finding, Rule

_CONVOLUTION = re.compile(r"Conv|Deconvolution", re.IGNORECASE)
_MATRIX = re.compile(r"Gemm|MatrixMultiply|^gemm$", re.IGNORECASE)
# Kernel names of tensor-core implementations where the decoded name (kernel_tensor_cores,
# ``trtlog.analysis.kernel_names``) does not say: imma/hmma (Volta-Ampere), xmma, gmma/wgmma
# (Hopper), i8816/884 shapes, and cuDNN/CUTLASS "tensor" kernels.
_TENSOR_CORE_KERNEL = re.compile(r"imma|hmma|xmma|gmma|i88|884|tensor|mma_", re.IGNORECASE)
# A Q/DQ node by name: ONNX's QuantizeLinear/DequantizeLinear, 8.0's "..._quantize_scale_node",
# the network API's "(Unnamed Layer* 5) [Quantize]".
_QDQ_NAME = re.compile(r"quantize", re.IGNORECASE)
_QUANTIZED = ("Int8", "FP8", "Int4", "FP4")
_ALIGNMENT = {"int8": 16, "fp8": 16, "int4": 32, "fp4": 32, "fp16": 8, "bf16": 8}


def _first(value: object) -> str:
    return value.split("; ")[0] if isinstance(value, str) else ""


def _channels(shapes: object) -> int | None:
    dims = _first(shapes).split("x")
    if len(dims) != 4:
        return None
    try:
        return int(dims[1])
    except ValueError:
        return None


class WiderPrecision(Rule):
    id = "wider-precision"
    severity = "warning"
    title = "Layers compute in a wider precision than the build enabled"
    why = (
        "A layer left in FP32 in an FP16 or INT8 build (or in FP16 in an INT8 build) runs "
        "slower and moves more data than the build was meant to."
    )
    advice = (
        "Check the layer's reason (a non-conforming implementation was faster; a tensor has no "
        "INT8 scale); add Q/DQ or calibration scales, set the layer's precision with "
        "--layerPrecisions and --precisionConstraints=obey, or accept it when the layer is cheap."
    )
    defaults: ClassVar[Mapping[str, float]] = {"wider-precision-min-percent": 0.0}

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        least = self.setting("wider-precision-min-percent")
        lines = dict(zip(log.layers["name"], log.layers["line"], strict=True))
        for layer in log.precision[log.precision["wider"]].itertuples(index=False):
            share = layer.percent if layer.percent == layer.percent else None
            if least and (share is None or share < least):
                continue
            reason = f" ({layer.reason})" if isinstance(layer.reason, str) else ""
            message = (
                f"{layer.name} runs in {layer.precision}; the build enabled "
                f"{layer.requested}{reason}"
            )
            yield self.found(message, layer.name, lines.get(layer.name))


class QuantizedFloatOutput(Rule):
    id = "quantized-float-output"
    severity = "warning"
    title = "INT8 convolutions write floating-point outputs"
    why = (
        "A quantised convolution whose output is FP32 or FP16 makes the next layer read wider "
        "data and usually means a missing quantisation after it."
    )
    advice = "Quantise the convolution's output (a Q/DQ pair after it) where the next layer allows."

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for layer in log.layers.itertuples(index=False):
            kind = layer.layer_type if isinstance(layer.layer_type, str) else ""
            output = _first(layer.output_dtypes)
            if (
                _CONVOLUTION.search(kind)
                and layer.precision == "int8"
                and output not in ("", "Int8")
            ):
                yield self.found(
                    f"{layer.name} reads Int8 and writes {output}", layer.name, layer.line
                )


class UnfusedQuantization(Rule):
    id = "unfused-qdq"
    severity = "warning"
    title = "Quantize or Dequantize layers left unfused"
    why = (
        "A Q/DQ node TensorRT could not fuse into its neighbours runs as a layer of its own "
        "(a Scale or Reformat with Int8 on one side) and costs a pass over the tensor."
    )
    advice = (
        "Move the Q/DQ pair next to an operation TensorRT fuses with (convolution, GEMM, "
        "element-wise add) or remove it; see the Q/DQ placement recommendations."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for layer in log.layers.itertuples(index=False):
            if layer.layer_type not in ("Scale", "Quantize", "Dequantize") and not _qdq_reformat(
                layer.layer_type, layer.name, layer.origin
            ):
                continue
            reads, writes = (
                _first(layer.input_dtypes) in _QUANTIZED,
                _first(layer.output_dtypes) in _QUANTIZED,
            )
            if reads != writes:
                change = "quantizes" if writes else "dequantizes"
                yield self.found(
                    f"{layer.name} ({layer.layer_type}) {change} on its own", layer.name, layer.line
                )


def _qdq_reformat(kind: object, name: object, origin: object) -> bool:
    """A Reformat layer that is a Q/DQ node the engine runs by itself (8.5+ "Layer(Reformat):
    QuantizeLinear_2", detailed records say "Origin: QDQ"), not one the builder inserted
    ("Reformatting CopyNode for Input Tensor 0 to ...", "Origin: REFORMAT")."""
    if kind != "Reformat" or not isinstance(name, str):
        return False
    if origin == "QDQ":
        return True
    return not name.startswith("Reformatting CopyNode") and bool(_QDQ_NAME.search(name))


class ChannelAlignment(Rule):
    id = "channel-alignment"
    severity = "note"
    title = "Convolution channels not aligned for the precision"
    why = (
        "Tensor-core kernels want channel counts in multiples of 8 (FP16, BF16) or 16 (INT8, "
        "FP8); other counts are padded or run slower kernels."
    )
    advice = (
        "Pad the channels (C and K) to the multiple in the model, or accept it for the first layer."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for layer in log.layers.itertuples(index=False):
            kind = layer.layer_type if isinstance(layer.layer_type, str) else ""
            multiple = _ALIGNMENT.get(layer.precision) if isinstance(layer.precision, str) else None
            if not _CONVOLUTION.search(kind) or multiple is None:
                continue
            sizes = {"C": _channels(layer.input_shapes), "K": _channels(layer.output_shapes)}
            odd = [f"{axis}={size}" for axis, size in sizes.items() if size and size % multiple]
            if odd:
                odd_sizes = ", ".join(odd)
                message = (
                    f"{layer.name} ({layer.precision}): {odd_sizes} not a multiple of {multiple}"
                )
                yield self.found(message, layer.name, layer.line)


class NoTensorCores(Rule):
    id = "no-tensor-cores"
    severity = "note"
    title = "Reduced-precision convolutions or GEMMs not on tensor-core kernels"
    why = (
        "An FP16 or INT8 convolution on a CUDA-core kernel gives away most of the precision's "
        "speed."
    )
    advice = (
        "Check channel alignment and formats; compare the tactics timed for the layer "
        "(trtlog tactics --layer NAME) to see whether a tensor-core kernel was tried."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for layer in log.layers.itertuples(index=False):
            kind = layer.layer_type if isinstance(layer.layer_type, str) else ""
            kernel = layer.kernel if isinstance(layer.kernel, str) else ""
            if not (_CONVOLUTION.search(kind) or _MATRIX.search(kind)) or not kernel:
                continue
            decoded = layer.kernel_tensor_cores
            tensor_cores = (
                bool(_TENSOR_CORE_KERNEL.search(kernel)) if decoded is pd.NA else bool(decoded)
            )
            if layer.precision in _ALIGNMENT and not tensor_cores:
                yield self.found(
                    f"{layer.name} ({layer.precision}) runs {kernel}", layer.name, layer.line
                )


class ReformatShare(Rule):
    id = "reformat-share"
    severity = "warning"
    title = "Reformat layers take a large share of the profiled time"
    why = (
        "Reformat layers only convert layouts or data types; when they add up to a large part "
        "of the run time, format choices between layers cost more than the layers gain."
    )
    advice = (
        "See which layers they feed (trtlog reformats); give the network inputs and outputs the "
        "formats its first and last layers want (--inputIOFormats/--outputIOFormats), or align "
        "precisions of neighbouring layers."
    )
    defaults: ClassVar[Mapping[str, float]] = {
        "reformat-share-percent": 10.0,
        "reformat-layer-percent": 5.0,
    }

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        layers = log.layers[log.layers["percent"].notna()]
        is_reformat = [
            kind == "Reformat" or reformat_target(str(name)) is not None
            for kind, name in zip(layers["layer_type"], layers["name"], strict=True)
        ]
        reformats = layers.loc[is_reformat]
        total = float(reformats["percent"].sum())
        if len(reformats) and total > self.setting("reformat-share-percent"):
            yield self.found(
                f"{len(reformats)} reformat layers take {total:.1f}% of the profiled time"
            )
        for layer in reformats.itertuples(index=False):
            if layer.percent > self.setting("reformat-layer-percent"):
                yield self.found(
                    f"{layer.name} takes {layer.percent:.1f}% of the profiled time",
                    layer.name,
                    layer.line,
                )
