"""Fast-path forms about the layers around tactic tuning (``trtlog.parse.fast_path``): reformat
layers added, a Myelin region's ONNX layers, and per-layer memory. Each parser returns the event
its grammar rule's transformer builds, or None when the body is not wholly that form."""

from __future__ import annotations

import re

from trtlog.events.autotuning import ReformatLayerAdded
from trtlog.events.graph import ForeignNodeMetadata
from trtlog.events.memory import LayerMemory
from trtlog.parse.fast_forms import Head, make
from trtlog.parse.grammar import terminal_regexp
from trtlog.parse.rows import Item
from trtlog.parse.transform.graph import onnx_layers

# 8.2+: "Adding reformat layer: <tensor> (<source>) from <format> to <format>", each part the
# shortest text the grammar's lexer takes for it (REFORMAT_TENSOR, REFORMAT_SOURCE, REFORMAT_FROM),
# one after the other with no going back.
REFORMAT_LITERAL = "Adding reformat layer: "
_REFORMAT_TENSOR = re.compile(terminal_regexp("REFORMAT_TENSOR"))
_REFORMAT_SOURCE = re.compile(terminal_regexp("REFORMAT_SOURCE"))
_REFORMAT_FROM = re.compile(terminal_regexp("REFORMAT_FROM"))
# 10.x: "ForeignNode {ForeignNode[a...b]}[ [profile 1]] metadata: [ONNX Layer: a][ONNX Layer: b]",
# once per Myelin region (and optimisation profile); the name is the lexer's FOREIGN_NODE_NAME,
# the shortest one before the profile or " metadata:".
FOREIGN_NODE_LITERAL = "ForeignNode "
_FOREIGN_NODE_NAME = re.compile(terminal_regexp("FOREIGN_NODE_NAME"))
_FOREIGN_NODE_PROFILE = re.compile(rf" \[profile ({terminal_regexp('UINT')})\]")
_METADATA_LITERAL = " metadata:"
# "Layer: <layer> Host Persistent: <n> Device Persistent: <n>[ Scratch Memory: <n>]", 8.x-10.x.
_LAYER_MEMORY = re.compile(
    rf"Layer: (.+?){terminal_regexp('_MEMORY_HOST_KEY')}(\d+)(?: bytes)?"
    rf"{terminal_regexp('_MEMORY_DEVICE_KEY')}(\d+)(?: bytes)?"
    r"(?: Scratch Memory: (\d+)(?: bytes)?)?"
)


def reformat_layer_added(body: str, head: Head) -> Item | None:
    tensor = _REFORMAT_TENSOR.match(body, len(REFORMAT_LITERAL))
    if tensor is None:
        return None
    source = _REFORMAT_SOURCE.match(body, tensor.end() + len(" ("))
    if source is None:
        return None
    from_format = _REFORMAT_FROM.match(body, source.end() + len(") from "))
    if from_format is None:
        return None
    return make[ReformatLayerAdded](
        *head,
        tensor=tensor.group(),
        source=source.group(),
        from_format=from_format.group(),
        to_format=body[from_format.end() + len(" to ") :].strip(),
    )


def foreign_node_metadata(body: str, head: Head) -> Item | None:
    name = _FOREIGN_NODE_NAME.match(body, len(FOREIGN_NODE_LITERAL))
    if name is None:
        return None
    profile = _FOREIGN_NODE_PROFILE.match(body, name.end())
    end = name.end() if profile is None else profile.end()
    if not body.startswith(_METADATA_LITERAL, end):
        return None
    # After " metadata:" the line ends, or a blank and at least one more character follow.
    metadata = body[end + len(_METADATA_LITERAL) :]
    if metadata and (metadata[0] != " " or len(metadata) == 1):
        return None
    return make[ForeignNodeMetadata](
        *head,
        node=name.group(),
        onnx_layers=onnx_layers(metadata),
        profile=0 if profile is None else int(profile.group(1)),
    )


def layer_memory(body: str, head: Head) -> Item | None:
    match = _LAYER_MEMORY.fullmatch(body)
    if match is None:
        return None
    layer, host, device, scratch = match.groups()
    return make[LayerMemory](
        *head,
        layer=layer,
        host_persistent=int(host),
        device_persistent=int(device),
        scratch=None if scratch is None else int(scratch),
    )


__all__ = [
    "FOREIGN_NODE_LITERAL",
    "REFORMAT_LITERAL",
    "foreign_node_metadata",
    "layer_memory",
    "reformat_layer_added",
]
