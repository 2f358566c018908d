"""Warnings and errors, counted per distinct message form.

``warnings`` columns: ``severity``, ``form`` (the message with numbers and versions, tactic ids,
quoted and braced names and the subject of coded errors blanked, so that repeats of one
message count together), ``count``,
``first_line``, ``example`` (the first message of that form as printed, envelope removed).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

import pandas as pd

from trtlog.events import Diagnostic, Event, Foreign
from trtlog.parse import WARNING_OR_WORSE

COLUMNS = ["severity", "form", "count", "first_line", "example"]
# The fields of an event that name what it is about (a tensor, a layer, a file), not what
# happened to it.
_NAMING_FIELDS = {"layer", "tensor", "formats", "runner", "path", "kernel", "name", "node", "input"}
# An event's place in the log, which is not its message.
_ENVELOPE_FIELDS = {
    "line",
    "end_line",
    "timestamp",
    "severity",
    "producer",
    "run",
    "build",
    "strategy",
}
_HEX = re.compile(r"0x[0-9a-fA-F]+")
# Numbers inside names count too ("index_shape_3", "Conv_12"); those glued to letters
# ("INT64", "fp16", "sm80") name a type or an architecture and stay.
_NUMBER = re.compile(r"(?<![A-Za-z\d.])\d+(?:\.\d+)*")
# TensorRT's coded errors name their subject first: "API Usage Error (conv1.weight: The
# weights cannot be refitted. ...)"; the subject varies, the message does not.
_SUBJECT = re.compile(r"\((?P<subject>[^\s():]+): ")
# Names a message quotes ("Layer '/model.24/Constant_3_output_0' (CONSTANT): Unsupported on
# DLA", 8.x-10.x) or braces (a Myelin region, "Could not find any implementation for node
# {ForeignNode[/0/Constant...Slice_3]}"): each names one of many layers.
_QUOTED = re.compile(r"(?<!\w)'[^'\n]*'(?!\w)")
_BRACED = re.compile(r"\{[^{}\n]*\}")


def message_text(event: Event) -> str:
    """The message of a warning or error event in words."""
    text = getattr(event, "text", None)
    if isinstance(text, str):
        return text
    # Names quoted, so that one message about many tensors or layers is one form.
    fields = [
        f"{field.name}={value!r}" if field.name in _NAMING_FIELDS else f"{field.name}={value}"
        for field in dataclasses.fields(event)
        if field.name not in _ENVELOPE_FIELDS
        and (value := getattr(event, field.name)) not in (None, "", ())
    ]
    return f"{event.kind()}: {', '.join(fields)}"


def message_form(text: str) -> str:
    named = _BRACED.sub("{…}", _QUOTED.sub("'…'", text))
    return _NUMBER.sub("N", _HEX.sub("0x…", _SUBJECT.sub("(…: ", named)))


def warnings_table(events: Sequence[Event]) -> pd.DataFrame:
    groups: dict[tuple[str, str], dict[str, object]] = {}
    for event in events:
        if not (isinstance(event, Diagnostic) or event.severity in WARNING_OR_WORSE):
            continue
        if type(event) is Foreign:
            # Another program's own warnings (ONNX Runtime's, Python's), as the summary counts.
            continue
        text = message_text(event)
        severity = event.severity or "warning"
        key = (severity, message_form(text))
        group = groups.setdefault(
            key,
            {
                "severity": severity,
                "form": key[1],
                "count": 0,
                "first_line": event.line,
                "example": text,
            },
        )
        group["count"] = int(group["count"]) + 1  # type: ignore[call-overload]
    return pd.DataFrame(list(groups.values()), columns=COLUMNS)
