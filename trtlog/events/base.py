"""The fields every event carries, and the value types shared by several families."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import ClassVar

from trtlog.events.makers import keyword_maker

MIB = 1024 * 1024
# The producer of events read from trtexec's JSON exports rather than from a log.
EXPORT_PRODUCER = "export"
KIB = 1024

# TensorRT prints "not timed" as +inf (10.x) or FLT_MAX (7.x: 3.40282e+38).
NOT_TIMED_THRESHOLD = 3.4e38


class TacticId(int):
    """A tactic id, normalised to TensorRT's unsigned 64-bit value.

    7.x and 8.0-8.2 print tactic ids in signed decimal (``-3360065831133338131``), 8.4 and later
    in hex (``0xd15ea5edd15ea5ed``); both name the same tactic, so they compare equal here.
    """

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> TacticId:
        return cls(tactic_number(text))

    def __repr__(self) -> str:
        return f"0x{int(self):016x}"

    __str__ = __repr__


def tactic_number(text: str) -> int:
    """The value ``TacticId.parse`` gives, as a plain ``int`` (what rows hold)."""
    value = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
    return value & 0xFFFF_FFFF_FFFF_FFFF


def time_ms(text: str) -> float | None:
    """A tactic or layer time in milliseconds; ``None`` where TensorRT means "not timed"."""
    return timed_ms(float(text))


def timed_ms(value: float) -> float | None:
    """``time_ms`` of a time already read as a number."""
    if value != value or value >= NOT_TIMED_THRESHOLD:
        return None
    return value


@dataclass(frozen=True, slots=True)
class Tensor:
    """A tensor as the engine layer listings print it: name, data type, dimensions, format."""

    name: str
    dtype: str | None = None
    # Dimensions as printed; -1 (and -2 in 8.0-8.4) mark dynamic ones. Vectorised dimensions keep
    # their vector width in `vectorized`: "32:8" is dims entry 32 with vector width 8.
    dims: tuple[int, ...] | None = None
    vectorized: tuple[tuple[int, int], ...] = ()
    format: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One thing a TensorRT log said.

    ``line`` and ``end_line`` are 1-based physical line numbers in the source; ``timestamp`` is the
    envelope's wall-clock time (second resolution in trtexec and Python-API logs) or ``None``;
    ``severity`` is the envelope's level (verbose, info, warning, error, ...) or ``None``;
    ``producer`` says who wrote the line: ``trt`` (the TensorRT library), ``trtexec``,
    ``trtllm``, ``torch_tensorrt``, ``polygraphy`` or ``logger`` (a bare ``[V]`` envelope that
    the library, Polygraphy or a custom logger may have written), ``python``, ``edgellm``,
    ``onnxruntime``, ``triton`` and ``tensorflow`` (those programs' own messages) or ``none``.
    ``run``, ``build`` and ``strategy`` say which run, engine build and 10.x backend strategy it
    belongs to.
    """

    family: ClassVar[str] = "other"

    line: int
    end_line: int
    timestamp: datetime | None = None
    severity: str | None = None
    producer: str = "none"
    # Where the event sits (set by the fold): ``run`` numbers the log's runs from 0 (each
    # ``&&&& RUNNING`` header after other content starts one); ``build`` numbers the engine
    # builds of the whole log from 0 (``None`` outside any build, such as a ``--loadEngine``
    # run); ``strategy`` is the 10.x backend strategy being built (after the builder's choice,
    # the one it kept), ``None`` where the build tries none.
    run: int | None = None
    build: int | None = None
    strategy: int | None = None

    @classmethod
    def kind(cls) -> str:
        """The grammar rule this event class is named after (snake_case of the class name)."""
        return _snake_case(cls.__name__)


@cache
def _snake_case(name: str) -> str:
    out = []
    for index, char in enumerate(name):
        if char.isupper() and index and not name[index - 1].isupper():
            out.append("_")
        out.append(char.lower())
    return "".join(out)


class KeywordMakers(dict[type, Callable[..., Event]]):
    """``keyword_maker`` of each class it is indexed with: ``makers[FormatCombination](*head,
    inputs=..., outputs=...)``."""

    def __missing__(self, cls: type) -> Callable[..., Event]:
        made = self[cls] = keyword_maker(cls)
        return made
