"""State shared by the family transformers: the record being parsed and small converters."""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Transformer

from trtlog.events.base import Tensor
from trtlog.parse.envelope import NO_ENVELOPE, Envelope

_FORMAT_SEPARATOR = re.compile(r"(?<=\)), ")


class RecordTransformer(Transformer):
    """Base of the family transformers: knows which record it is building events for.

    ``begin`` is called before each parse; ``fields()`` gives the keyword arguments every event
    takes (position, timestamp, severity, producer)."""

    def __init__(self) -> None:
        super().__init__()
        self.begin(NO_ENVELOPE, 1, 1)

    def begin(self, envelope: Envelope, line: int, end_line: int, raw_text: str = "") -> None:
        self._line = line
        self.raw_text = raw_text
        self._fields: dict[str, Any] = {
            "line": line,
            "end_line": end_line,
            "timestamp": envelope.timestamp,
            "severity": envelope.severity,
            "producer": envelope.producer,
        }

    def fields(self) -> dict[str, Any]:
        return self._fields

    def fields_at(self, token: Token) -> dict[str, Any]:
        """The fields of an event that starts at ``token``'s line within a multi-line record."""
        line = self._line + (token.line or 1) - 1
        return {**self._fields, "line": line, "end_line": line}


def text(token: Token | None) -> str | None:
    return None if token is None else str(token)


def split_formats(token: Token | str | None) -> tuple[str, ...]:
    """``Float(3,1), Int32(512,1)`` -> ("Float(3,1)", "Int32(512,1)")."""
    if token is None or not token.strip():
        return ()
    return tuple(_FORMAT_SEPARATOR.split(token.strip()))


def parse_dims(token: Token | str | None) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """``-1,32:8,14,14`` -> ((-1, 32, 14, 14), ((1, 8),)): dimensions and vectorised ones."""
    if token is None or not token.strip(" ,"):
        return (), ()
    dims: list[int] = []
    vectorized: list[tuple[int, int]] = []
    for index, part in enumerate(token.strip().split(",")):
        value, _, width = part.partition(":")
        dims.append(int(value))
        if width:
            vectorized.append((index, int(width)))
    return tuple(dims), tuple(vectorized)


def tensor(name: str, dtype: str | None, dims_text: str | None, fmt: str | None = None) -> Tensor:
    dims, vectorized = parse_dims(dims_text)
    return Tensor(name=name, dtype=dtype, dims=dims, vectorized=vectorized, format=fmt)
