"""Layer count per optimisation stage.

``stages`` columns: ``run``, ``build`` (see ``Event``), ``strategy`` (10.x backend strategy the
graph is built with, else missing), ``kept`` (whether the builder kept that strategy's engine;
missing without strategies), ``step`` (position within the build and strategy), ``stage``
("Original" or the text after "After"), ``layers``, ``change`` (layers minus the previous
stage's, 0 for the first), ``line``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.builds import kept_flags, kept_strategies
from trtlog.analysis.columns import with_types
from trtlog.events import BackendStrategy, Event, LayerCount
from trtlog.events.index import indexed

COLUMNS = ["run", "build", "strategy", "kept", "step", "stage", "layers", "change", "line"]


def stages_table(events: Sequence[Event]) -> pd.DataFrame:
    rows: list[dict[str, int | str | None]] = []
    previous: dict[tuple[int | None, int | None], int] = {}
    steps: dict[tuple[int | None, int | None], int] = {}
    index = indexed(events)
    first_strategy = _first_strategies(index)
    for event in index.of(LayerCount):
        # The generic optimisations before "Building graph using backend strategy N" are
        # the first strategy's first stages.
        strategy = event.strategy
        if strategy is None and event.build is not None:
            strategy = first_strategy.get(event.build)
        key = (event.build, strategy)
        before = previous.get(key)
        rows.append(
            {
                "run": event.run,
                "build": event.build,
                "strategy": strategy,
                "step": steps.get(key, 0),
                "stage": event.stage,
                "layers": event.count,
                "change": 0 if before is None else event.count - before,
                "line": event.line,
            }
        )
        previous[key] = event.count
        steps[key] = steps.get(key, 0) + 1
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame = with_types(frame, {"run": "Int64", "build": "Int64", "strategy": "Int64"})
    frame["kept"] = kept_flags(frame, kept_strategies(index))
    return frame


def _first_strategies(events: Sequence[Event]) -> dict[int, int]:
    first: dict[int, int] = {}
    for event in indexed(events).of(BackendStrategy):
        if event.action == "building" and event.build is not None:
            first.setdefault(event.build, event.strategy)
    return first
