"""Pairing the engine layers of two builds.

Names first: the same network usually keeps its layer names. Then the network layers an
engine layer holds (its provenance): the same fusion under another name ("MatMul + b3/read:0 +
... + Relu_2" in 8.2 and 8.0 differ in one internal tensor name). Reformat layers then follow
the layers they feed. Then layer type and tensor shapes, in engine order, for networks
exported under other names altogether; last shapes alone, for a computation another
implementation took over (a convolution that became a Myelin region).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from trtlog.analysis.names import reformat_target

# Fewest shared network layers, as a share of the union, for two fused layers to be the same.
_LEAST_OVERLAP = 0.5
# Layers that only move data, too alike to pair by shapes alone.
_PLUMBING = {"Reformat", "NoOp", "Shuffle", "Constant"}


@dataclass(frozen=True)
class Pair:
    """Row ``a`` of the first build's layers and row ``b`` of the second's (None where the
    layer is only in one), and how they were paired."""

    a: int | None
    b: int | None
    by: str | None


def pair_layers(first: pd.DataFrame, second: pd.DataFrame) -> list[Pair]:
    names_a, names_b = list(first["name"]), list(second["name"])
    paired: dict[int, tuple[int, str]] = {}
    index_b = {name: position for position, name in enumerate(names_b)}
    for position, name in enumerate(names_a):
        if name in index_b:
            paired[position] = (index_b[name], "name")
    _by_provenance(first, second, paired)
    _by_reformat_target(first, second, paired)
    _by_signature(first, second, paired, "type and shapes", with_type=True)
    # The same computation by another implementation: a convolution became a Myelin region.
    _by_signature(first, second, paired, "shapes", with_type=False)
    _by_reformat_target(first, second, paired)
    taken = {b for b, _ in paired.values()}
    pairs = [
        Pair(a, paired[a][0], paired[a][1]) if a in paired else Pair(a, None, None)
        for a in range(len(names_a))
    ]
    pairs += [Pair(None, b, None) for b in range(len(names_b)) if b not in taken]
    return pairs


def _free(
    paired: dict[int, tuple[int, str]], size_a: int, size_b: int
) -> tuple[list[int], set[int]]:
    taken = {b for b, _ in paired.values()}
    return [a for a in range(size_a) if a not in paired], {
        b for b in range(size_b) if b not in taken
    }


def _parts(value: object) -> frozenset[str]:
    return frozenset(value.split("; ")) if isinstance(value, str) and value else frozenset()


def _by_provenance(
    first: pd.DataFrame, second: pd.DataFrame, paired: dict[int, tuple[int, str]]
) -> None:
    free_a, free_b = _free(paired, len(first), len(second))
    parts_b = {b: _parts(second["original_layers"].iloc[b]) for b in free_b}
    candidates = []
    for a in free_a:
        parts_a = _parts(first["original_layers"].iloc[a])
        if not parts_a:
            continue
        for b, parts in parts_b.items():
            if parts and parts_a & parts:
                overlap = len(parts_a & parts) / len(parts_a | parts)
                if overlap >= _LEAST_OVERLAP:
                    candidates.append((-overlap, a, b))
    _take_best(candidates, paired, "network layers")


def _by_reformat_target(
    first: pd.DataFrame, second: pd.DataFrame, paired: dict[int, tuple[int, str]]
) -> None:
    """ "Reformatting CopyNode for Input Tensor 0 to X" pairs with the reformat of X's partner."""
    names_a, names_b = list(first["name"]), list(second["name"])
    partner = {names_a[a]: names_b[b] for a, (b, _) in paired.items()}
    free_a, free_b = _free(paired, len(first), len(second))
    targets_b = {
        (target[0], target[1]): b
        for b in free_b
        if (target := reformat_target(names_b[b])) is not None
    }
    for a in free_a:
        target = reformat_target(names_a[a])
        if target is None or target[1] not in partner:
            continue
        b = targets_b.pop((target[0], partner[target[1]]), None)
        if b is not None:
            paired[a] = (b, "reformatted layer")


def _by_signature(
    first: pd.DataFrame,
    second: pd.DataFrame,
    paired: dict[int, tuple[int, str]],
    how: str,
    with_type: bool,
) -> None:
    """Pair free layers with the same tensor shapes (and type), in engine order."""
    free_a, free_b = _free(paired, len(first), len(second))
    waiting: dict[tuple[object, ...], list[int]] = {}
    for b in sorted(free_b):
        signature = _signature(second, b, with_type)
        if signature is not None:
            waiting.setdefault(signature, []).append(b)
    for a in free_a:
        signature = _signature(first, a, with_type)
        queue = waiting.get(signature) if signature is not None else None
        if queue:
            paired[a] = (queue.pop(0), how)


def _signature(layers: pd.DataFrame, row: int, with_type: bool) -> tuple[object, ...] | None:
    item = layers.iloc[row]
    inputs, outputs = item["input_shapes"], item["output_shapes"]
    if not isinstance(inputs, str) or not isinstance(outputs, str):
        return None
    if with_type:
        kind = item["layer_type"]
        return (kind, inputs, outputs) if isinstance(kind, str) else None
    # Without the type, only layers that compute: reformats pair through their targets.
    if reformat_target(str(item["name"])) is not None or item["layer_type"] in _PLUMBING:
        return None
    return inputs, outputs


def _take_best(
    candidates: list[tuple[float, int, int]], paired: dict[int, tuple[int, str]], how: str
) -> None:
    taken = {b for b, _ in paired.values()}
    for _, a, b in sorted(candidates):
        if a not in paired and b not in taken:
            paired[a] = (b, how)
            taken.add(b)
