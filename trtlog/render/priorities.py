"""Which columns of each view matter most where a terminal is too narrow for all of them.

Each view names its columns, the most important first; a column not named comes after them in
the table's order, and the columns that only locate a row (``line``, ``run``, ``strategy``,
``build``) come last. The table keeps its own column order; this only decides what is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

_LOCATORS = ("build", "strategy", "run", "line", "lines", "first_line", "changed", "worse")
# Columns of sentences, which wrap at their words where a screen is narrow.
PROSE_COLUMNS = frozenset(
    {"message", "why", "finds", "try", "form", "example", "reason", "source", "changes"}
)

VIEW_PRIORITIES: dict[str, tuple[str, ...]] = {
    "choices": (
        "layer",
        "best_ms",
        "gap_percent",
        "runner",
        "tactic",
        "runner_up_ms",
        "tactics_tried",
        "in_engine",
        "formats",
        "tuning_seconds",
    ),
    "layer_choices": (
        "layer",
        "formats",
        "best_ms",
        "gap_percent",
        "tactic",
        "runner",
        "runner_up_ms",
        "in_engine",
        "runner_up_tactic",
        "tactics_tried",
    ),
    "tactics": (
        "layer",
        "tactic",
        "time_ms",
        "behind_best_percent",
        "chosen",
        "in_engine",
        "runner",
        "formats",
    ),
    "layers": (
        "name",
        "precision",
        "time_ms",
        "percent",
        "tactic_ms",
        "layer_type",
        "kernel",
        "tactic",
    ),
    "fusions": ("engine_layer", "original_layers", "count", "via"),
    "reformats": ("name", "from_format", "to_format", "time_ms", "percent", "direction"),
    "memory": ("layer", "host_persistent", "device_persistent", "scratch"),
    "totals": ("item", "bytes", "cpu_bytes", "gpu_bytes", "kind"),
    "perf": ("metric", "unit", "value", "median", "mean", "p99", "max", "min"),
    "profile": ("layer", "average_ms", "percent", "median_ms", "total_ms"),
    "times": ("metric", "median_ms", "mean_ms", "p99_ms", "max_ms"),
    "warnings": ("severity", "form", "count"),
    "timeline": ("phase", "seconds", "start_s", "end_s", "source"),
    "tuning": ("layer", "seconds", "tactics", "start_s", "end_s"),
    "precision_layers": ("name", "precision", "time_ms", "layer_type"),
    "wider": ("name", "precision", "requested", "reason", "time_ms"),
    "conversions": ("name", "converts", "time_ms"),
    "kernels": ("family", "operation", "input", "tile", "layers", "time_ms", "percent"),
    "findings": ("rule", "severity", "message", "layer"),
    # trtlog diff's sections: the tables list what changed, so "changed" tells least.
    "diff.overview": ("item", "a", "b", "percent", "delta"),
    "diff.options": ("section", "key", "a", "b"),
    "diff.layers": ("status", "name_a", "name_b", "changes", "time_a", "time_b", "delta_ms"),
    "diff.reformats": ("status", "name_a", "name_b", "changes", "time_a", "time_b", "delta_ms"),
    "diff.memory": ("item", "a", "b", "percent", "delta"),
    "diff.timeline": ("item", "a", "b", "percent", "delta"),
    "diff.perf": ("item", "percent", "verdict", "a", "b", "delta"),
    "diff.profile": ("name_a", "delta_ms", "percent", "time_a", "time_b", "name_b"),
    "rules": ("rule", "severity", "finds", "why", "try"),
}


def column_priority(
    view: str | None, columns: Sequence[str], empty: Sequence[bool] = ()
) -> list[int]:
    """The positions of ``columns``, the most important first, for the view named ``view``;
    columns ``empty`` says hold nothing come last of all."""
    named = VIEW_PRIORITIES.get(view or "", ())
    position = {name: index for index, name in enumerate(columns)}
    first = [position[name] for name in named if name in position]
    rest = [index for index, name in enumerate(columns) if index not in first]
    locators = [index for index in rest if columns[index] in _LOCATORS]
    middle = [index for index in rest if index not in locators]
    locators.sort(key=lambda index: _LOCATORS.index(columns[index]))
    ranked = first + middle + locators
    if not empty:
        return ranked
    return [index for index in ranked if not empty[index]] + [
        index for index in ranked if empty[index]
    ]
