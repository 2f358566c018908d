"""Events as plain JSON-ready dictionaries, and as JSON text one event a line (``--format
jsonl``)."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from datetime import datetime
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from typing import Any

from trtlog.events.autotuning import TacticTiming
from trtlog.events.base import Event, TacticId, Tensor, timed_ms
from trtlog.events.notes import MyelinTrace
from trtlog.events.records import Foreign
from trtlog.parse.items import LineBlock

# Per event class, its fields' names in order.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
# Values JSON takes as they are (a ``TacticId`` is an ``int`` subclass, so not of this type).
_PLAIN_TYPES = frozenset({str, int, bool, type(None)})


def to_plain(value: Any) -> Any:
    """A JSON-ready form of an event field: tactic ids as "0x..." strings, times as ISO text,
    a number that is not finite (TensorRT prints "inf" and "nan") as null: JSON has no such
    numbers."""
    if type(value) in _PLAIN_TYPES:
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, TacticId):
        return repr(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Tensor):
        return {
            field.name: to_plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, (tuple, list)):
        return [to_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """``{"kind": <grammar rule>, "family": ..., <fields>}``."""
    record: dict[str, Any] = {"kind": event.kind(), "family": event.family}
    for name in _field_names(type(event)):
        record[name] = to_plain(getattr(event, name))
    return record


def _field_names(kind: type[Event]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(field.name for field in dataclasses.fields(kind))
    return names


def event_json(event: Event) -> str:
    """``json.dumps(event_to_dict(event), allow_nan=False)``, the same text: written field by
    field by each value's type, for the millions of events ``--format jsonl`` writes of a large
    log."""
    kind = type(event)
    encode = _ENCODERS.get(kind)
    if encode is None:
        encode = _ENCODERS[kind] = _encoder(kind)
    return encode(event)


_ENCODERS: dict[type, Callable[[Event], str]] = {}


def _encoder(kind: type[Event]) -> Callable[[Event], str]:
    names = _field_names(kind)
    head = f'{{"kind": {json.dumps(kind.kind())}, "family": {json.dumps(kind.family)}'
    keys = tuple(f", {json.dumps(name)}: " for name in names)
    values_of = attrgetter(*names)

    def encode(event: Event) -> str:
        values = values_of(event)
        if len(names) == 1:
            values = (values,)
        parts = [head]
        for key, value in zip(keys, values, strict=True):
            parts.append(key)
            parts.append(_value_json(value))
        parts.append("}")
        return "".join(parts)

    return encode


def _value_json(value: Any) -> str:
    """One field's value as ``json.dumps(to_plain(value), allow_nan=False)`` writes it."""
    kind = type(value)
    if kind is str:
        return encode_basestring_ascii(value)
    if value is None:
        return "null"
    if kind is int:
        return int.__repr__(value)
    if kind is TacticId:
        return f'"{value!r}"'
    if kind is float:
        return float.__repr__(value) if math.isfinite(value) else "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is datetime:
        return f'"{value.isoformat()}"'
    return json.dumps(to_plain(value), allow_nan=False)


# The fields of a block's events that differ from line to line (``LineBlock.events``); every
# other field holds the block's value on every line.
_LINE_FIELDS = {
    TacticTiming: ("line", "end_line", "tactic", "time_ms", "kernel", "kernel_parameters"),
    MyelinTrace: ("line", "end_line", "text"),
    Foreign: ("line", "end_line", "text"),
}


def block_json(block: LineBlock) -> list[str]:
    """``[event_json(event) for event in block.events()]``, the same text: the fields the
    block's lines share are written once, and each line's own values into a template, without
    making its event (a large log's blocks hold millions of lines)."""
    shared = block.head_event()
    own = _LINE_FIELDS[block.kind]
    # The shared text with each literal "%" escaped, a placeholder for each line's own values.
    head = f'{{"kind": {json.dumps(shared.kind())}, "family": {json.dumps(shared.family)}'
    parts = [head.replace("%", "%%")]
    for name in _field_names(block.kind):
        if name in own:
            parts.append(f", {json.dumps(name)}: %({name})s")
        else:
            text = f", {json.dumps(name)}: {_value_json(getattr(shared, name))}"
            parts.append(text.replace("%", "%%"))
    parts.append("}")
    template = "".join(parts)
    numbers = range(block.first_line, block.first_line + len(block))
    if block.trace is not None:
        return [
            template % {"line": number, "end_line": number, "text": encode_basestring_ascii(text)}
            for number, text in zip(numbers, block.texts(), strict=True)
        ]
    kernels, parameters = block.line_kernels()
    return [
        template % {"line": number, "end_line": number, "tactic": f'"0x{tactic:016x}"',
                    "time_ms": _value_json(timed_ms(time)), "kernel": _value_json(kernel),
                    "kernel_parameters": _value_json(parameter)}
        for number, tactic, time, kernel, parameter in zip(
            numbers, block.tactics, block.times, kernels, parameters, strict=True
        )
    ]  # fmt: skip
