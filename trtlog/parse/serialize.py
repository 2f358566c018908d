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

from trtlog.events.base import NOT_TIMED_THRESHOLD, Event, TacticId, Tensor
from trtlog.events.notes import MyelinTrace
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
_LINE_FIELDS = ("line", "end_line", "tactic", "time_ms", "kernel", "kernel_parameters", "text")


def block_json(block: LineBlock) -> list[str]:
    """``[event_json(event) for event in block.events()]``, the same text: the fields the
    block's lines share are written once, and each line's own values into a template, without
    making its event (a large log's blocks hold millions of lines)."""
    first = next(block.events(), None)
    if first is None:
        return []
    names = _field_names(type(first))
    parts = [f'{{"kind": {json.dumps(first.kind())}, "family": {json.dumps(first.family)}']
    for name in names:
        parts.append(f", {json.dumps(name)}: ")
        shared = name not in _LINE_FIELDS
        parts.append(_value_json(getattr(first, name)).replace("%", "%%") if shared else "%s")
    parts.append("}")
    template = "".join(parts)
    numbers = range(block.first_line, block.first_line + len(block))
    if block.kind is MyelinTrace:
        assert names[:2] == ("line", "end_line") and names[-1] == "text"
        texts = block.trace_texts()
        return [
            template % (number, number, encode_basestring_ascii(text))
            for number, text in zip(numbers, texts, strict=True)
        ]
    assert names[:2] == ("line", "end_line") and names[-4:] == _LINE_FIELDS[2:6]
    count = len(block.tactics)
    kernels = block.kernels or [None] * count
    parameters = block.parameters or [None] * count
    return [
        template % (number, number, f'"0x{tactic:016x}"', _time_json(time), _text_json(kernel),
                    _text_json(parameter))
        for number, tactic, time, kernel, parameter in zip(
            numbers, block.tactics, block.times, kernels, parameters, strict=True
        )
    ]  # fmt: skip


def _time_json(value: float) -> str:
    """A time as printed, as ``_value_json(timed_ms(value))`` writes it."""
    if value != value or value >= NOT_TIMED_THRESHOLD or not math.isfinite(value):
        return "null"
    return float.__repr__(value)


def _text_json(value: str | None) -> str:
    return "null" if value is None else encode_basestring_ascii(value)
