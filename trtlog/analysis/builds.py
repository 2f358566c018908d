"""The engine builds of a log: which run each belongs to, the backend strategies 10.x tried and
the one it kept, how long it took.

``engine_builds`` columns (one row per engine build; a dataset's ``builds`` table is one row per
log): ``run``, ``build``, ``strategies`` (the 10.x backend strategies tried, in order,
comma-separated; missing without strategies), ``kept_strategy`` (the one whose engine the builder
kept), ``seconds`` (the build time the log reports: trtexec's "Engine built in", else
the engine generation time summed over strategies, else Polygraphy's or Torch-TensorRT's),
and nothing else: a streamed log keeps too few events to say where each build starts.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.analysis.columns import with_types
from trtlog.events import BackendStrategy, Event, PhaseDuration
from trtlog.events.index import indexed

COLUMNS = ["run", "build", "strategies", "kept_strategy", "seconds"]
# Reported build times, the first found wins: trtexec's covers the whole build.
_BUILD_TIMES = ("Engine built", "Engine generation", "Engine building", "Build TRT engine")


def kept_strategies(events: Sequence[Event]) -> dict[int, int]:
    """Per build, the backend strategy the builder kept ("Use backend strategy N ... as the
    initial choice", then each "Chose this engine with backend strategy N")."""
    kept: dict[int, int] = {}
    for event in indexed(events).of(BackendStrategy):
        if event.action in ("initial", "chosen") and event.build is not None:
            kept[event.build] = event.strategy
    return kept


def kept_flags(frame: pd.DataFrame, kept: dict[int, int]) -> pd.Series:
    """Whether each row's strategy is the one its build kept; missing for rows without a
    strategy (``frame`` has ``build`` and ``strategy`` columns)."""
    if frame.empty:
        return pd.Series([], dtype="boolean", index=frame.index)
    kept_of_row = frame["build"].map(kept).astype("Int64")
    flags = (frame["strategy"] == kept_of_row).astype("boolean")
    flags[frame["strategy"].isna() | kept_of_row.isna()] = pd.NA
    return flags


def engine_builds_table(events: Sequence[Event]) -> pd.DataFrame:
    rows: dict[int, dict[str, object]] = {}
    strategies: dict[int, list[int]] = {}
    times: dict[int, dict[str, float]] = {}
    for event in events:
        build = event.build
        if build is not None and build not in rows:
            rows[build] = {"run": event.run, "build": build}
    index = indexed(events)
    for event in index.of(BackendStrategy, PhaseDuration):
        build = event.build
        if build is None:
            continue
        if isinstance(event, BackendStrategy) and event.action == "building":
            strategies.setdefault(build, []).append(event.strategy)
        elif isinstance(event, PhaseDuration) and event.phase in _BUILD_TIMES:
            reported = times.setdefault(build, {})
            reported[event.phase] = reported.get(event.phase, 0.0) + event.seconds
    kept = kept_strategies(index)
    for build, row in rows.items():
        tried = strategies.get(build)
        row["strategies"] = ", ".join(map(str, tried)) if tried else None
        row["kept_strategy"] = kept.get(build)
        reported = times.get(build, {})
        row["seconds"] = next(
            (round(reported[name], 6) for name in _BUILD_TIMES if name in reported), None
        )
    frame = pd.DataFrame(list(rows.values()), columns=COLUMNS)
    typed = with_types(frame, {"run": "Int64", "build": "Int64", "kept_strategy": "Int64"})
    return with_types(typed, {"seconds": "float64"})
