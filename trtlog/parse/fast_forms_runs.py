"""Fast-path forms printed around a build rather than inside its tuning (``fast_path``).

trtexec prints ``Average on 10 runs - GPU latency: ... ms - Host latency: ... ms (enqueue ...
ms)`` again and again while it measures inference (6,000 to 16,000 lines in the corpus's
verbose inference runs), and a Python build with a progress monitor redraws its bars
(``[=====-----] Building engine 3/6``) tens of thousands of times. Each parser builds the event
exactly as the grammar's transformer does (``performance.lark``, ``notes.lark``), or returns None.
The native core claims the trace averages of trtexec's own envelope first (``core/src/trtexec.rs``)
and reads the bars (``core/src/progress.rs``): what reaches this module is what it declines.
"""

from __future__ import annotations

import re

from trtlog.events.notes import ProgressUpdate
from trtlog.events.performance import TraceAverage
from trtlog.parse.fast_forms import NUMBER, Head, make
from trtlog.parse.grammar import terminal_regexp
from trtlog.parse.rows import Item

TRACE_AVERAGE_LITERAL = "Average on "
_TRACE_AVERAGE = re.compile(
    rf"Average on (\d+) runs - GPU latency: ({NUMBER}) ms - Host latency: ({NUMBER}) ms "
    rf"\((?:end to end ({NUMBER}) ms, )?enqueue ({NUMBER}) ms\)"
)
# PROGRESS_BAR, " ", PROGRESS_PHASE (the shortest text that " <done>/<total>" ends the line
# after), " ", UINT, "/", UINT.
_PROGRESS = re.compile(
    f"({terminal_regexp('PROGRESS_BAR')}) ({terminal_regexp('PROGRESS_PHASE')}) (\\d+)/(\\d+)"
)


def trace_average(body: str, head: Head) -> Item | None:
    match = _TRACE_AVERAGE.fullmatch(body)
    if match is None:
        return None
    runs, gpu, host, end_to_end, enqueue = match.groups()
    return make[TraceAverage](
        *head,
        runs=int(runs),
        gpu_latency_ms=float(gpu),
        host_latency_ms=float(host),
        end_to_end_ms=None if end_to_end is None else float(end_to_end),
        enqueue_ms=float(enqueue),
    )


def progress_update(body: str, head: Head) -> Item | None:
    match = _PROGRESS.fullmatch(body)
    if match is None:
        return None
    bar, phase, done, total = match.groups()
    return make[ProgressUpdate](
        *head,
        phase=phase,
        done=int(done),
        total=int(total),
        indent=len(bar) - len(bar.lstrip(" ")),
    )


__all__ = ["TRACE_AVERAGE_LITERAL", "progress_update", "trace_average"]
