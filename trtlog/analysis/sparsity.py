"""Which engine layers have 2:4-sparse weights and which got a sparse tactic.

Builds with sparsity enabled name both lists after tactic selection ("(Sparsity) Found N
layer(s) eligible to use sparse tactics: ..." and "(Sparsity) Chose N layer(s) using sparse
tactics: ..." in 10.x, their 8.x wordings: ``SparseTactics``), by engine layer name. The
``layers`` and ``precision`` tables get ``sparse_eligible`` and ``sparse_tactic`` from here:
True or False where the log has the list, missing where it has none (a build without sparsity).
A layer named in any build's list counts: the tables merge a log's builds by layer name.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.events import Event, SparseTactics

SPARSE_COLUMNS = ["sparse_eligible", "sparse_tactic"]
_CHOICES = {"sparse_eligible": "eligible", "sparse_tactic": "chosen"}


def sparse_columns(events: Sequence[Event], names: Sequence[object]) -> dict[str, pd.Series]:
    """``sparse_eligible`` and ``sparse_tactic`` for the layers ``names`` (exact engine names)."""
    listed: dict[str, set[str] | None] = dict.fromkeys(_CHOICES.values())
    for event in events:
        if isinstance(event, SparseTactics):
            layers = listed[event.choice]
            listed[event.choice] = (layers or set()) | set(event.layers)
    columns = {}
    for column, choice in _CHOICES.items():
        layers = listed[choice]
        values = [pd.NA if layers is None else str(name) in layers for name in names]
        columns[column] = pd.Series(values, dtype="boolean")
    return columns
