"""Which engine layers have 2:4-sparse weights and which got a sparse tactic.

Builds with sparsity enabled name both lists after tactic selection ("(Sparsity) Found N
layer(s) eligible to use sparse tactics: ..." and "(Sparsity) Chose N layer(s) using sparse
tactics: ..." in 10.x, their 8.x wordings: ``SparseTactics``), by engine layer name. The
``layers`` and ``precision`` tables get ``sparse_eligible`` and ``sparse_tactic`` from here:
True or False where the layer's build printed the list, missing where it printed none (a build
without sparsity).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.events import Event, SparseTactics
from trtlog.events.index import indexed

SPARSE_COLUMNS = ["sparse_eligible", "sparse_tactic"]
_CHOICES = {"sparse_eligible": "eligible", "sparse_tactic": "chosen"}


def sparse_columns(
    events: Sequence[Event], keys: Sequence[tuple[object, str]]
) -> dict[str, pd.Series]:
    """``sparse_eligible`` and ``sparse_tactic`` for the layers ``keys`` (build, exact engine
    name)."""
    listed: dict[tuple[str, object], set[str]] = {}
    for event in indexed(events).of(SparseTactics):
        listed.setdefault((event.choice, event.build), set()).update(event.layers)
    columns = {}
    for column, choice in _CHOICES.items():
        values = []
        for build, name in keys:
            layers = listed.get((choice, build))
            values.append(pd.NA if layers is None else name in layers)
        columns[column] = pd.Series(values, dtype="boolean")
    return columns
