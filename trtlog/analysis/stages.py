"""Layer count per optimisation stage.

``stages`` columns: ``build`` (optimisation pass, from 0), ``strategy`` (10.x backend strategy of
the pass, else missing), ``step`` (position within the build), ``stage`` ("Original" or the text
after "After"), ``layers``, ``change`` (layers minus the previous stage's, 0 for the first),
``line``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.events import BackendStrategy, Event, LayerCount

COLUMNS = ["build", "strategy", "step", "stage", "layers", "change", "line"]


def stages_table(events: Sequence[Event]) -> pd.DataFrame:
    rows: list[dict[str, int | str | None]] = []
    pending_strategy: int | None = None
    strategy_of_build: dict[int, int] = {}
    previous: dict[int, int] = {}
    steps: dict[int, int] = {}
    for event in events:
        if isinstance(event, BackendStrategy) and event.action == "building":
            pending_strategy = event.strategy
        elif isinstance(event, LayerCount):
            build = event.build
            if pending_strategy is not None:
                # "Building graph using backend strategy N" names the pass whose stages follow.
                strategy_of_build.setdefault(build, pending_strategy)
                pending_strategy = None
            before = previous.get(build)
            rows.append(
                {
                    "build": build,
                    "step": steps.get(build, 0),
                    "stage": event.stage,
                    "layers": event.count,
                    "change": 0 if before is None else event.count - before,
                    "line": event.line,
                }
            )
            previous[build] = event.count
            steps[build] = steps.get(build, 0) + 1
    for row in rows:
        build_number = row["build"]
        assert isinstance(build_number, int)
        row["strategy"] = strategy_of_build.get(build_number)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    return frame.astype({"strategy": "Int64"})
