"""Events as plain JSON-ready dictionaries."""

from __future__ import annotations

import dataclasses
import math
from datetime import datetime
from typing import Any

from trtlog.events.base import Event, TacticId, Tensor

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
    kind = type(event)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(field.name for field in dataclasses.fields(kind))
    for name in names:
        record[name] = to_plain(getattr(event, name))
    return record
