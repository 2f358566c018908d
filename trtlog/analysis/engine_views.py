"""Views of the engine for ``trtlog precision``: per layer, per precision, per layer type, the
layers wider than requested and the reformats that convert data types."""

from __future__ import annotations

import pandas as pd

from trtlog.analysis.buildlog import BuildLog


def precision_layers_view(log: BuildLog) -> pd.DataFrame:
    """Every engine layer: its precision, data types, short formats, weights and activation."""
    columns = [
        "build",
        "name",
        "layer_type",
        "precision",
        "input_formats_short",
        "output_formats_short",
        "weights_type",
        "weights_count",
        "sparse_weights",
        "activation",
        "time_ms",
    ]
    return log.precision[columns].reset_index(drop=True)


def precision_counts_view(log: BuildLog) -> pd.DataFrame:
    """Layers and profiled time per precision."""
    precision = log.precision.assign(precision=log.precision["precision"].fillna("unknown"))
    grouped = precision.groupby("precision", sort=False).agg(
        layers=("name", "size"),
        time_ms=("time_ms", lambda times: times.sum(min_count=1)),
        percent=("percent", lambda shares: shares.sum(min_count=1)),
    )
    return grouped.sort_values("layers", ascending=False).reset_index()


def precision_by_type_view(log: BuildLog) -> pd.DataFrame:
    """How many layers of each type run in each precision, and the type's profiled time."""
    precision = log.precision.assign(
        precision=log.precision["precision"].fillna("unknown"),
        layer_type=log.precision["layer_type"].fillna("unknown type"),
    )
    counts = pd.crosstab(precision["layer_type"], precision["precision"])
    counts.columns = [str(column) for column in counts.columns]
    counts["time_ms"] = precision.groupby("layer_type")["time_ms"].sum(min_count=1)
    counts["layers"] = counts.drop(columns=["time_ms"]).sum(axis=1)
    counts = counts.sort_values("layers", ascending=False)
    return counts.reset_index().rename(columns={"index": "layer_type"})


def wider_view(log: BuildLog) -> pd.DataFrame:
    """Layers computing in a wider type than the build asked for, slowest first."""
    wider = log.precision[log.precision["wider"]]
    columns = [
        "name",
        "layer_type",
        "precision",
        "requested",
        "input_formats_short",
        "output_formats_short",
        "reason",
        "time_ms",
    ]
    ordered = wider.sort_values("time_ms", ascending=False, na_position="last", kind="stable")
    return ordered[columns].reset_index(drop=True)


def conversions_view(log: BuildLog) -> pd.DataFrame:
    """Reformat layers that change the data type (quantize, dequantize, casts)."""
    # By build and name: a log of several builds repeats its layers' names.
    origins = log.layers[["build", "name", "origin"]].drop_duplicates(["build", "name"])
    converting = log.precision[log.precision["converts"].notna()]
    rows = converting.merge(origins, on=["build", "name"], how="left")
    columns = ["name", "converts", "origin", "input_formats_short", "output_formats_short"]
    return rows[[*columns, "time_ms"]].reset_index(drop=True)
