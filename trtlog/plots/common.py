"""What every plot shares: a figure without pyplot, the phase and precision colours."""

from __future__ import annotations

from matplotlib.figure import Figure

# One colour per build phase, in the order builds run them (matplotlib's tab20 palette).
PHASE_COLOURS = {
    "initialisation": "#c7c7c7",
    "model parsing": "#9edae5",
    "network construction": "#17becf",
    "graph optimisation": "#1f77b4",
    "calibration": "#dbdb8d",
    "autotuning": "#d62728",
    "reformat selection": "#ff9896",
    "memory planning": "#9467bd",
    "engine generation and serialisation": "#2ca02c",
    "engine load": "#98df8a",
    "inference warm-up and timing": "#ff7f0e",
    "profiling": "#ffbb78",
}
PRECISION_COLOURS = {
    "fp32": "#1f77b4",
    "tf32": "#aec7e8",
    "fp16": "#2ca02c",
    "bf16": "#98df8a",
    "fp8": "#d62728",
    "int8": "#ff7f0e",
    "int4": "#9467bd",
    "fp4": "#c5b0d5",
    "int32": "#7f7f7f",
    "int64": "#c7c7c7",
    "bool": "#bcbd22",
    "uint8": "#8c564b",
}
OTHER = "#bbbbbb"


def new_figure(width: float, height: float, rows: int = 1, columns: int = 1) -> Figure:
    """A figure drawn off screen: no pyplot state, no display."""
    return Figure(figsize=(width, height), layout="constrained")


def shorten(name: str, width: int = 60) -> str:
    """A layer name that fits an axis label."""
    return name if len(name) <= width else name[: width - 1] + "…"


def shorten_middle(name: str, width: int = 48) -> str:
    """A name that fits ``width`` characters, cut in the middle: layer names of a large network
    share long prefixes (``/model/layers.11/self_attn/...``) and differ at both ends."""
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    tail = width - 1 - head
    return f"{name[:head]}…{name[-tail:]}"


def bar_height(count: int, per_bar: float = 0.28, least: float = 2.5) -> float:
    """Figure height for ``count`` horizontal bars."""
    return max(least, 1.2 + per_bar * count)
