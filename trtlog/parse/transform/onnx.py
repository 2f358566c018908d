"""ONNX parser phase."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from lark import Token, v_args

from trtlog.events.onnx import (
    NetworkInput,
    NetworkOutput,
    OnnxImporterTrace,
    OnnxModelBanner,
    OnnxModelInfo,
)
from trtlog.grammars import terminal_pattern
from trtlog.parse.transform.context import RecordTransformer, text


@v_args(inline=True)
class OnnxRules(RecordTransformer):
    def onnx_model_banner(self, _banner: Token) -> OnnxModelBanner:
        return OnnxModelBanner(**self.fields())

    def onnx_model_info(self, key: Token, value: Token | None) -> OnnxModelInfo:
        return OnnxModelInfo(**self.fields(), key=str(key), value=(text(value) or "").strip())

    def network_input(self, name: Token, dtype: Token, dims: Token | None) -> NetworkInput:
        shape = tuple(int(d) for d in str(dims).split(",") if d.strip()) if dims else ()
        return NetworkInput(**self.fields(), name=str(name), dtype=str(dtype), dims=shape)

    def network_output(self, tensor: Token, name: Token) -> NetworkOutput:
        return NetworkOutput(**self.fields(), tensor=str(tensor), name=str(name))

    def onnx_importer_trace(self, step: Token, rest: Token | None) -> OnnxImporterTrace:
        return OnnxImporterTrace(**self.fields(), **importer_trace_fields(str(step), text(rest)))

    def onnx_node_io(
        self, node: Token, op: Token, direction: Token, rest: Token | None
    ) -> OnnxImporterTrace:
        fields = node_io_fields(str(node), str(op), str(direction), text(rest))
        return OnnxImporterTrace(**self.fields(), **fields)

    def onnx_node_output(self, tensor: Token, op: Token, dims: Token | None) -> OnnxImporterTrace:
        return OnnxImporterTrace(
            **self.fields(),
            step="node outputs",
            subject=f"{tensor} [{op}]",
            detail=f"({text(dims) or ''})",
        )

    def onnx_importer_note(self, note: Token, rest: Token | None) -> OnnxImporterTrace:
        return OnnxImporterTrace(**self.fields(), step="note", subject=str(note), detail=text(rest))

    def onnx_importer_broadcast(self, node: Token, detail: Token) -> OnnxImporterTrace:
        return OnnxImporterTrace(
            **self.fields(), step="broadcasting", subject=str(node), detail=str(detail)
        )

    def onnx_importer_clamp(self, detail: Token) -> OnnxImporterTrace:
        return OnnxImporterTrace(**self.fields(), step="Weight out of range", subject=str(detail))

    def onnx_importer_resize(self, *settings: Any) -> OnnxImporterTrace:
        return OnnxImporterTrace(
            **self.fields(),
            step="Running resize layer with",
            subject="",
            detail="; ".join(str(setting) for setting in settings),
        )

    def onnx_importer_deconvolution(self, *settings: Any) -> OnnxImporterTrace:
        return OnnxImporterTrace(
            **self.fields(),
            step="Running deconvolution with",
            subject="",
            detail="; ".join(str(setting) for setting in settings),
        )


# The fields of the rules' events past the head, from their tokens' text: shared with the native
# core's records (``trtlog.parse.claimed``).
def importer_trace_fields(step: str, rest: str | None) -> dict[str, Any]:
    location, step_text = _located(step)
    return {
        "step": step_text.rstrip(": "),
        "subject": (rest or "").strip(),
        "location": location,
    }


def node_io_fields(node: str, op: str, direction: str, rest: str | None) -> dict[str, Any]:
    location, name = _located(node)
    return {
        "step": f"node {direction}",
        # 7.0's unnamed nodes: "ModelImporter.cpp:125:  [MaxPool] inputs: ...".
        "subject": f"{name} [{op}]" if location is None else f"{name.strip()} [{op}]".lstrip(),
        "location": location,
        "detail": (rest or "").strip().rstrip(","),
    }


@cache
def _source_position() -> re.Pattern[str]:
    """7.0's importer trace starts with its source position ("ModelImporter.cpp:103: "): the
    grammar's DIAGNOSTIC_LOCATION, which LOCATED_IMPORTER_STEP and a node name hold at their
    start. (Read from the grammar file: the parser is built with this module.)"""
    return re.compile(terminal_pattern("DIAGNOSTIC_LOCATION"))


def _located(text: str) -> tuple[str | None, str]:
    """The source position a 7.0 importer message starts with, if any, and the rest."""
    position = _source_position().match(text)
    if position is None:
        return None, text
    return position.group().rstrip(": "), text[position.end() :]
