"""The ``trtlog kernels`` views: the engine's kernels by what their names say."""

from __future__ import annotations

import math

import pandas as pd

from trtlog.analysis.buildlog import BuildLog

# What the kernels are grouped by: library, operation, precision, tile, tensor cores.
_GROUPS = [
    "build",
    "kernel_family",
    "kernel_operation",
    "kernel_input",
    "kernel_tile",
    "kernel_tensor_cores",
]


def kernels_view(log: BuildLog) -> pd.DataFrame:
    """The engine layers' kernels grouped by family, operation, input precision, tile and
    tensor-core use: how many layers run such a kernel, their profiled time and share
    (``time_ms``, ``percent``: missing without a per-layer profile) and what tuning measured for
    them (``tuned_ms``). A log whose engine listing names no kernels is summarised from the
    tactics tuning chose instead (``choices`` counted, ``tuned_ms`` their times)."""
    layers = log.layers
    named = layers[layers["kernel"].notna()]
    if not named.empty:
        frame = named.assign(tuned_ms=named["tactic_ms"])
        count = "layers"
    else:
        choices = log.choices
        chosen = choices[choices["kernel"].notna()]
        frame = chosen.assign(time_ms=math.nan, percent=math.nan, tuned_ms=chosen["best_ms"])
        count = "choices"
    grouped = frame.groupby(_GROUPS, dropna=False, observed=True, sort=False)
    view = grouped.agg(
        **{count: ("kernel", "size")},
        time_ms=("time_ms", lambda times: times.sum(min_count=1)),
        percent=("percent", lambda shares: shares.sum(min_count=1)),
        tuned_ms=("tuned_ms", lambda times: times.sum(min_count=1)),
        example=("kernel", "first"),
    ).reset_index()
    view = view.rename(columns={name: name.removeprefix("kernel_") for name in _GROUPS})
    order = ["time_ms", "tuned_ms", count]
    return view.sort_values(order, ascending=False, na_position="last").reset_index(drop=True)
