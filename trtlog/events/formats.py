"""Tensor data types and formats as TensorRT names them, and their short forms.

The engine inspector (``--exportLayerInfo``, trtexec's detailed layer listing) describes a tensor
as "Row major linear FP32", "Channel major FP16 format where channel % 8 == 0" or "Thirty-two
wide channel vectorized row major Int8 format"; 10.x often writes just "Float" or "Half"; 11.x
gives "Format" and "Datatype" apart. Engine Layer Information writes ``Half[1,32:8,14,14]``.
Short forms follow the usual notation: ``FP16 NHWC8``, ``Int8 NC/32HW32``, ``FP32 NCHW``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DTYPE_IN_FORMAT = re.compile(
    r"\b(FP32|FP16|BF16|FP8|FP4|Int8|INT8|Int32|INT32|Int64|INT64|Int4|INT4|UInt8|Bool|BOOL)\b"
)
_DTYPE_NAMES = {
    "FP32": "Float",
    "FP16": "Half",
    "BF16": "BFloat16",
    "FP8": "FP8",
    "FP4": "FP4",
    "INT8": "Int8",
    "INT32": "Int32",
    "INT64": "Int64",
    "INT4": "Int4",
    "BOOL": "Bool",
}
# TensorRT's DataType names as Engine Layer Information and 10.x exports print them, with the
# short names precision tables use; BFloat16, FP8, Int4 and FP4 are precisions of their own.
PRECISIONS = {
    "Float": "fp32",
    "Half": "fp16",
    "BFloat16": "bf16",
    "Int8": "int8",
    "FP8": "fp8",
    "Int32": "int32",
    "Int64": "int64",
    "Bool": "bool",
    "UInt8": "uint8",
    "Int4": "int4",
    "FP4": "fp4",
}
DTYPES: tuple[str, ...] = tuple(PRECISIONS)
_SHORT_DTYPES = {
    "Float": "FP32",
    "Half": "FP16",
    "BFloat16": "BF16",
    "Int8": "Int8",
    "FP8": "FP8",
    "Int32": "Int32",
    "Int64": "Int64",
    "Bool": "Bool",
    "UInt8": "UInt8",
    "Int4": "Int4",
    "FP4": "FP4",
}
_VECTOR_WIDTHS = {"Two": 2, "Four": 4, "Eight": 8, "Sixteen": 16, "Thirty-two": 32}
_VECTORIZED = re.compile(
    r"^(?P<width>Two|Four|Eight|Sixteen|Thirty-two) wide channel vectorized row major \w+ format$"
)
_CHANNEL_MAJOR = re.compile(r"^Channel major \w+ format(?: where channel % (?P<width>\d+) == 0)?")
_ROW_MAJOR = re.compile(r"^Row major( linear)? \w+( format)?$")
_ENUM_LAYOUT = re.compile(
    r"^K?(?P<layout>LINEAR|CHW|HWC|DHWC|CDHW|DLA_LINEAR|DLA_HWC)(?P<width>\d*)$"
)


def dtype_of_format(text: str) -> str | None:
    """The data type a format string names ("Row major linear FP32" -> "Float"; "Half" ->
    "Half"); None when it names none."""
    text = text.strip()
    if text in DTYPES:
        return text
    match = _DTYPE_IN_FORMAT.search(text)
    if not match:
        return None
    word = match.group(1)
    return _DTYPE_NAMES.get(word.upper(), word)


def precision_name(dtype: str | None) -> str | None:
    """``Half`` -> ``fp16``; unknown names pass through in lower case."""
    if dtype is None:
        return None
    return PRECISIONS.get(dtype, dtype.lower())


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a tensor's elements sit: "linear", "CHW" (channels in vectors of ``width``),
    "HWC" (channel major, channel count a multiple of ``width``), or as TensorRT named it."""

    kind: str
    width: int = 0


def layout_of_format(text: str | None) -> Layout | None:
    if not text:
        return None
    text = text.strip()
    if match := _VECTORIZED.match(text):
        return Layout("CHW", _VECTOR_WIDTHS[match.group("width")])
    if match := _CHANNEL_MAJOR.match(text):
        return Layout("HWC", int(match.group("width") or 0))
    if _ROW_MAJOR.match(text):
        return Layout("linear")
    if match := _ENUM_LAYOUT.match(text.upper()):
        kind = match.group("layout")
        return Layout("linear" if kind == "LINEAR" else kind, int(match.group("width") or 0))
    return None


def short_format(
    dtype: str | None,
    format_text: str | None,
    rank: int,
    vectorized: tuple[tuple[int, int], ...] = (),
) -> str | None:
    """``FP16 NHWC8``, ``Int8 NC/32HW32``, ``FP32 NCHW``; from Engine Layer Information dims,
    which do not say which vectorised layout, ``FP16 C/8``."""
    if dtype is None and format_text is None:
        return None
    name = _SHORT_DTYPES.get(dtype or "", dtype or "?")
    layout = layout_of_format(format_text)
    spatial = "DHW" if rank == 5 else "HW"
    if layout is None:
        if vectorized:
            return f"{name} C/{vectorized[0][1]}"
        if format_text and dtype_of_format(format_text) != format_text.strip():
            return f"{name} {format_text.strip()}"
        return f"{name} {'NC' + spatial if rank >= 4 else 'linear'}"
    if layout.kind == "linear":
        return f"{name} {'NC' + spatial if rank >= 4 else 'linear'}"
    if layout.kind == "CHW":
        return f"{name} NC/{layout.width}{spatial}{layout.width}"
    if layout.kind in ("HWC", "DHWC"):
        return f"{name} N{spatial}C{layout.width or ''}"
    return f"{name} {layout.kind}{layout.width or ''}"
