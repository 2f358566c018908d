"""``--exportTimes`` JSON as ``IterationTiming`` events, one per timed iteration.

8.x-10.x keys: ``startEnqMs endEnqMs startH2dMs endH2dMs startComputeMs endComputeMs
startD2hMs endD2hMs h2dMs computeMs d2hMs latencyMs``; 7.1 named the copies ``In``/``Out``
(``startInMs``, ``inMs``, ...) and added ``endToEndMs``.
"""

from __future__ import annotations

from typing import Any

from trtlog.events import Event, IterationTiming
from trtlog.events.base import EXPORT_PRODUCER

_KEYS = {
    "startEnqMs": "start_enqueue_ms",
    "endEnqMs": "end_enqueue_ms",
    "startH2dMs": "start_h2d_ms",
    "startInMs": "start_h2d_ms",
    "endH2dMs": "end_h2d_ms",
    "endInMs": "end_h2d_ms",
    "startComputeMs": "start_compute_ms",
    "endComputeMs": "end_compute_ms",
    "startD2hMs": "start_d2h_ms",
    "startOutMs": "start_d2h_ms",
    "endD2hMs": "end_d2h_ms",
    "endOutMs": "end_d2h_ms",
    "h2dMs": "h2d_ms",
    "inMs": "h2d_ms",
    "computeMs": "compute_ms",
    "d2hMs": "d2h_ms",
    "outMs": "d2h_ms",
    "latencyMs": "latency_ms",
    "endToEndMs": "end_to_end_ms",
}


def times_events(documents: list[Any]) -> list[Event]:
    events: list[Event] = []
    iteration = 0
    for document in documents:
        for record in document:
            if not isinstance(record, dict):
                continue
            iteration += 1
            values: dict[str, Any] = {
                _KEYS[key]: float(value)
                for key, value in record.items()
                if key in _KEYS and isinstance(value, (int, float))
            }
            events.append(
                IterationTiming(
                    line=iteration,
                    end_line=iteration,
                    producer=EXPORT_PRODUCER,
                    iteration=iteration - 1,
                    **values,
                )
            )
    return events
