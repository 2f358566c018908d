"""Events as plain JSON-ready dictionaries."""

from __future__ import annotations

import dataclasses
import math
from datetime import datetime
from typing import Any

from trtlog.events.base import Event, TacticId, Tensor


def to_plain(value: Any) -> Any:
    """A JSON-ready form of an event field: tactic ids as "0x..." strings, times as ISO text,
    a number that is not finite (TensorRT prints "inf" and "nan") as null: JSON has no such
    numbers."""
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
    for field in dataclasses.fields(event):
        record[field.name] = to_plain(getattr(event, field.name))
    return record
