"""The engine as a graph: layers joined by the tensors between them, coloured by precision.

``engine_dot`` writes Graphviz's dot language (no Graphviz needed); ``render_graph`` runs
Graphviz's ``dot`` to make SVG or PNG when it is installed. ``--around LAYER --radius N`` keeps
the layers within N tensors of the named ones, so that large engines stay drawable.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import deque
from pathlib import Path

import pandas as pd

from trtlog.plots.common import OTHER, PRECISION_COLOURS

FORMATS = (".dot", ".gv", ".svg", ".png")


class GraphError(Exception):
    """The graph cannot be drawn as asked."""


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _split(names: object) -> list[str]:
    return [name for name in str(names).split("; ") if name] if isinstance(names, str) else []


def edges_of(layers: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(producer, consumer, tensor) for every tensor one layer writes and another reads;
    network inputs and outputs appear as producers and consumers named by the tensor."""
    producers: dict[str, str] = {}
    for layer in layers.itertuples(index=False):
        for tensor in _split(layer.output_names):
            producers[tensor] = str(layer.name)
    edges = []
    consumed: set[str] = set()
    for layer in layers.itertuples(index=False):
        for tensor in _split(layer.input_names):
            consumed.add(tensor)
            edges.append((producers.get(tensor, f"input:{tensor}"), str(layer.name), tensor))
    for tensor, producer in producers.items():
        if tensor not in consumed:
            edges.append((producer, f"output:{tensor}", tensor))
    return edges


def neighbourhood(
    layers: pd.DataFrame, edges: list[tuple[str, str, str]], centres: list[str], radius: int
) -> set[str]:
    """The layers within ``radius`` tensors of ``centres``, either way along the graph."""
    links: dict[str, set[str]] = {}
    for source, target, _ in edges:
        links.setdefault(source, set()).add(target)
        links.setdefault(target, set()).add(source)
    kept = set(centres)
    queue = deque((centre, 0) for centre in centres)
    while queue:
        node, distance = queue.popleft()
        if distance == radius:
            continue
        for neighbour in links.get(node, ()):
            if neighbour not in kept:
                kept.add(neighbour)
                queue.append((neighbour, distance + 1))
    return kept


def engine_dot(layers: pd.DataFrame, keep: set[str] | None = None, title: str = "") -> str:
    edges = edges_of(layers)
    if not edges and layers["input_names"].isna().all():
        raise GraphError("the log names no tensors between layers (a detailed listing does)")
    lines = [
        "digraph engine {",
        f"  label={_quote(title)}; labelloc=t; rankdir=TB;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=8, color="#777777"];',
    ]
    for layer in layers.itertuples(index=False):
        name = str(layer.name)
        if keep is not None and name not in keep:
            continue
        precision = layer.precision if isinstance(layer.precision, str) else "?"
        colour = PRECISION_COLOURS.get(precision, OTHER)
        short = name if len(name) <= 60 else name[:59] + "…"
        label = f"{short}\n{layer.layer_type or ''} · {precision}"
        lines.append(
            f"  {_quote(name)} [label={_quote(label)}, fillcolor={_quote(colour + '80')}];"
        )
    for source, target, tensor in edges:
        if keep is not None and (source not in keep or target not in keep):
            continue
        lines.extend(
            f"  {_quote(end)} [label={_quote(end.split(':', 1)[1])}, shape=ellipse];"
            for end in (source, target)
            if end.startswith(("input:", "output:"))
        )
        lines.append(f"  {_quote(source)} -> {_quote(target)} [label={_quote(_short(tensor))}];")
    lines.append("}")
    return "\n".join(dict.fromkeys(lines)) + "\n"


def _short(tensor: str) -> str:
    return tensor if len(tensor) <= 30 else tensor[:29] + "…"


def render_graph(dot: str, path: Path) -> None:
    """Write ``dot`` to ``path``: as text for .dot/.gv, through Graphviz for .svg/.png."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise GraphError(f"{path}: graphs are written as .dot, .svg or .png")
    if suffix in (".dot", ".gv"):
        path.write_text(dot, encoding="utf-8")
        return
    program = shutil.which("dot")
    if program is None:
        raise GraphError(
            "Graphviz's dot is not installed (apt-get install graphviz); "
            f"write {path.with_suffix('.dot').name} instead"
        )
    done = subprocess.run(
        [program, f"-T{suffix[1:]}", "-o", str(path)],
        input=dot.encode(),
        capture_output=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise GraphError(f"Graphviz failed: {message[-1] if message else done.returncode}")
