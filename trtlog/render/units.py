"""Human units for tables people read: the unit goes in the header, the cells hold numbers.

The tables keep their figures in base units, named by the column: ``_ms`` milliseconds, ``_s``
or ``seconds`` seconds, ``_qps`` queries per second, ``_percent`` percent, and bytes for the
memory columns (``bytes``, ``*_bytes``, ``host_persistent``, ``device_persistent``,
``scratch``). JSON and CSV give those raw figures; the terminal table and Markdown show them
with three or four significant digits, memory in B, KiB, MiB or GiB chosen per column, and
the unit in the header: ``best_ms`` becomes "best (ms)", ``host_persistent`` "host persistent
(KiB)".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Memory columns named without a unit: bytes, as the memory table documents.
_BYTE_COLUMNS = frozenset({"host_persistent", "device_persistent", "scratch"})
_BINARY_UNITS = (("B", 1), ("KiB", 1024), ("MiB", 1024**2), ("GiB", 1024**3), ("TiB", 1024**4))
# (suffix, unit): the suffix is dropped from the header and the unit named in its place.
_SUFFIXES = (
    ("_ms", "ms"),
    ("_seconds", "s"),
    ("_s", "s"),
    ("_qps", "qps"),
    ("_percent", "%"),
)
_BARE = {"ms": "ms", "seconds": "s", "percent": "%", "bytes": "bytes"}
# What a column named by its unit alone holds, for the header ("percent" is a share in one
# table and a change in another: its header is the unit alone).
_BARE_STEM = {"ms": "time", "seconds": "time", "percent": "", "bytes": "size"}
SIGNIFICANT_DIGITS = 4


@dataclass(frozen=True)
class ColumnUnit:
    """How a column's numbers are shown: its header, and the divisor of its values."""

    header: str
    unit: str | None
    scale: float = 1.0


def unit_of(column: str) -> tuple[str, str | None]:
    """(stem, unit) of a column name: ("best", "ms") for ``best_ms``; unit "bytes" for
    memory; (column, None) for a column without a unit."""
    if column in _BARE:
        return _BARE_STEM[column], _BARE[column]
    if column in _BYTE_COLUMNS:
        return column, "bytes"
    if column.endswith("_bytes"):
        return column.removesuffix("_bytes"), "bytes"
    for suffix, unit in _SUFFIXES:
        if column.endswith(suffix) and len(column) > len(suffix):
            return column.removesuffix(suffix), unit
    return column, None


def column_unit(column: str, values: Sequence[Any], numeric: bool) -> ColumnUnit:
    """The header and scale of ``column`` holding ``values``; memory takes the binary unit that
    suits its typical (median) value."""
    stem, unit = unit_of(column)
    label = stem.replace("_", " ")
    if unit is None or not numeric:
        return ColumnUnit(column.replace("_", " "), None)
    if unit != "bytes":
        return ColumnUnit(f"{label} ({unit})" if label else unit, unit)
    sizes = sorted(abs(float(value)) for value in values if _is_number(value) and value)
    typical = sizes[len(sizes) // 2] if sizes else 0.0
    name, scale = _BINARY_UNITS[0]
    for candidate, factor in _BINARY_UNITS:
        if typical >= factor:
            name, scale = candidate, factor
    return ColumnUnit(f"{label} ({name})", name, float(scale))


def _is_number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return not (isinstance(value, float) and math.isnan(value))


def significant(value: float, digits: int = SIGNIFICANT_DIGITS) -> str:
    """``value`` to ``digits`` significant digits, never in exponent form, trailing zeros
    dropped; whole digits of large numbers are kept (30104.3 -> "30104")."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}" if value else "0"
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(0, digits - 1 - magnitude)
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def scaled_text(value: Any, unit: ColumnUnit) -> str | None:
    """A number of a column with a unit, as its cell shows it; None for other values."""
    if unit.unit is None or not _is_number(value):
        return None
    number = float(value) / unit.scale
    if unit.unit == "B" and number == int(number):
        return str(int(number))
    return significant(number)
