"""What an engine layer's name says about the network layers inside it.

TensorRT names a fused layer after its parts: ``A + B`` (vertical fusion), ``A || B``
(horizontal merge), ``PWN(A, B + C)`` (a generated point-wise kernel), ``{ForeignNode[A...B]}``
(a Myelin region, named by its first and last node), ``2-layer MLP: A + B -> C`` (7.x), and
``Reformatting CopyNode for Input Tensor 0 to X`` for reformat layers the builder inserted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

_REFORMAT = re.compile(
    r"^Reformatting CopyNode for "
    r"(?:(?P<direction>Input|Output) Tensor (?P<index>\d+) to (?P<layer>.+)"
    r"|Network (?P<network>Input|Output) (?P<tensor>.+))$"
)
_PROFILE_SUFFIX = re.compile(r" \[profile \d+\]$")
_OPEN = "([{"
_CLOSE = ")]}"


@dataclass(frozen=True)
class Part:
    """One original layer named inside an engine layer's name, and how it was found."""

    name: str
    via: str  # "name", "pointwise", "merge", "foreign node endpoint"


def reformat_target(name: str) -> tuple[str, str] | None:
    """For ``Reformatting CopyNode for Input Tensor 0 to X``: ("input", "X"); None otherwise.

    "input" means the reformat feeds layer X; "output" means it reformats X's output;
    "network input"/"network output" name the network tensor it converts.
    """
    match = _REFORMAT.match(name)
    if match is None:
        return None
    if match.group("network"):
        return f"network {match.group('network').lower()}", match.group("tensor")
    return match.group("direction").lower(), match.group("layer")


def split_top_level(text: str, separator: str) -> list[str]:
    """Split at ``separator`` where no bracket of any kind is open."""
    if separator not in text:
        # Most names are of one layer: nothing to split.
        parts = [text]
    else:
        parts = []
        depth = 0
        start = 0
        # Only brackets and separators change anything (separators hold no bracket).
        for match in _marks(separator).finditer(text):
            char = match.group()
            if char in _OPEN:
                depth += 1
            elif char in _CLOSE:
                depth = max(depth - 1, 0)
            elif depth == 0:
                parts.append(text[start : match.start()])
                start = match.end()
        parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


@cache
def _marks(separator: str) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(_OPEN + _CLOSE)}]|{re.escape(separator)}")


def original_layers(name: str) -> list[Part]:
    """The network layers an engine layer's name is built from, in order, without repeats."""
    name = _PROFILE_SUFFIX.sub("", name.strip())
    if reformat_target(name) is not None:
        return []
    seen: dict[str, Part] = {}
    for part in _decompose(name, "name"):
        seen.setdefault(part.name, part)
    return list(seen.values())


def _decompose(name: str, via: str) -> list[Part]:
    if name.startswith("2-layer MLP: "):
        name = name[len("2-layer MLP: ") :].replace(" -> ", " + ")
    merged = split_top_level(name, " || ")
    if len(merged) > 1:
        return [part for piece in merged for part in _decompose(piece, "merge")]
    fused = split_top_level(name, " + ")
    if len(fused) > 1:
        return [part for piece in fused for part in _decompose(piece, via)]
    if name.startswith("PWN(") and name.endswith(")"):
        inner = split_top_level(name[4:-1], ", ")
        return [part for piece in inner for part in _decompose(piece, "pointwise")]
    if name.startswith("{ForeignNode[") and name.endswith("]}"):
        ends = name[len("{ForeignNode[") : -2].split("...")
        return [
            part for piece in ends if piece for part in _decompose(piece, "foreign node endpoint")
        ]
    return [Part(name, via)]
