"""How good ``trtlog watch``'s time-left estimate is: each corpus log with timestamps, layer
counts and named cost headers is replayed line by line at its own timestamps (one-second
resolution), and when a quarter, half and three quarters of its layers are tuned the estimate
is compared with the tuning time that was really left (to the last tuning line's stamp).

    python bench/watch_estimate.py [CORPUS_LOGS_FOLDER]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from trtlog.build.watch import WatchState

_FRACTIONS = (0.25, 0.5, 0.75)
# Logs whose tuning took less than this are left out: a one-second clock cannot time them.
_SHORTEST_TUNING_S = 4.0


def replay(path: Path) -> list[tuple[float, float, float]] | None:
    """(fraction, estimated s, actual s) at each fraction, or None for a log without the
    information."""
    state = WatchState()
    samples: list[tuple[float, float, float]] = []
    last_tuning: float | None = None
    for line in path.read_text(errors="replace").splitlines():
        tuned = state.progress.layers_tuned
        state.feed(line, 0.0)
        progress = state.progress
        if progress.phase == "autotuning":
            last_tuning = state.last_time
        if progress.layers_tuned != tuned and progress.layers_total:
            done = (progress.layers_tuned - 1) / progress.layers_total
            for fraction in _FRACTIONS:
                if done >= fraction and fraction not in (sample[0] for sample in samples):
                    left = state.time_left()
                    if left is not None and state.last_time is not None:
                        samples.append((fraction, left, state.last_time))
    if not samples or last_tuning is None or state.tuning_started is None:
        return None
    if last_tuning - state.tuning_started < _SHORTEST_TUNING_S:
        return None
    return [(fraction, left, last_tuning - now) for fraction, left, now in samples]


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus/logs")
    errors: dict[float, list[float]] = {fraction: [] for fraction in _FRACTIONS}
    print(f"{'log':60} {'at':>5} {'estimate s':>11} {'actual s':>9}")
    for path in sorted(folder.glob("*.log")):
        results = replay(path)
        for fraction, estimate, actual in results or ():
            print(f"{path.name[:60]:60} {fraction:5.0%} {estimate:11.0f} {actual:9.0f}")
            if actual > 0:
                errors[fraction].append(abs(estimate - actual) / actual)
    for fraction, relative in errors.items():
        if relative:
            median = statistics.median(relative)
            logs = len(relative)
            print(
                f"at {fraction:.0%} tuned: median error {median:.0%} of the time left ({logs} logs)"
            )


if __name__ == "__main__":
    main()
