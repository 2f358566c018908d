"""trtexec's JSON exports read as events, so that an engine described by ``--exportLayerInfo``,
``--exportProfile`` and ``--exportTimes`` (or the engine inspector) is the same model as one
described by a log.

- layer information (``{"Layers": [...], "Bindings": [...]}``; 11.x ``"I/O Tensors"``): one
  ``EngineLayer`` per layer, names only or detailed;
- profile (``[{"count": N}, {"name", "timeMs", "averageMs", "medianMs", "percentage"}, ...]``):
  a ``ProfileHeader`` and one ``ProfileRow`` per layer;
- times (``[{"startEnqMs", ..., "latencyMs"}, ...]``): one ``IterationTiming`` per iteration.

A file holds one JSON document, or several written one after another (trtexec 7.1 appends
each run's export to the same file). Events carry the position of their record in the file as
their line and the producer "export".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trtlog.events import Event
from trtlog.exports.layer_info import layer_info_events
from trtlog.exports.profile import profile_events
from trtlog.exports.times import times_events
from trtlog.parse.reader import LogSourceError

KINDS = ("layers", "profile", "times")


class ExportError(LogSourceError):
    """A file that is not a trtexec export: the message names the file and the position."""


def read_documents(path: str | Path) -> list[Any]:
    """Every JSON document in the file, in order."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise ExportError(f"{path}: cannot read ({error.strerror})") from None
    decoder = json.JSONDecoder()
    documents = []
    position = _skip_space(text, 0)
    while position < len(text):
        try:
            document, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise ExportError(
                f"{path}: not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
            ) from None
        documents.append(document)
        position = _skip_space(text, position)
    if not documents:
        raise ExportError(f"{path}: empty file, no JSON in it")
    return documents


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n\ufeff":
        position += 1
    return position


def kind_of(document: Any) -> str | None:
    """ "layers", "profile" or "times" for a trtexec export, else None."""
    if isinstance(document, dict) and "Layers" in document:
        return "layers"
    if isinstance(document, list) and document:
        first = document[0]
        if isinstance(first, dict) and set(first) == {"count"}:
            return "profile"
        if isinstance(first, dict) and ("startEnqMs" in first or "latencyMs" in first):
            return "times"
        if isinstance(first, dict) and "timeMs" in first:
            return "profile"
    return None


def export_events(path: str | Path, expected: str | None = None) -> tuple[str, list[Event]]:
    """The events of an export file, and what kind of export it is."""
    documents = read_documents(path)
    kinds = {kind_of(document) for document in documents}
    if None in kinds or len(kinds) != 1:
        raise ExportError(
            f"{path}: not a trtexec layer information, profile or times export"
            ' (expected {"Layers": ...}, [{"count": ...}, ...] or [{"startEnqMs": ...}, ...])'
        )
    (kind,) = kinds
    assert kind is not None
    if expected is not None and kind != expected:
        raise ExportError(f"{path}: this is a {kind} export, not a {expected} export")
    if kind == "layers":
        return kind, [event for document in documents for event in layer_info_events(document)]
    if kind == "profile":
        return kind, profile_events(documents)
    return kind, times_events(documents)


__all__ = ["KINDS", "ExportError", "export_events", "kind_of", "read_documents"]
