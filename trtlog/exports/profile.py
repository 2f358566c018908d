"""``--exportProfile`` JSON as profile events: ``[{"count": N}, {"name", "timeMs", "averageMs",
"medianMs", "percentage"}, ...]`` (``medianMs`` from 8.4 on). 7.1 appends each run's profile
to the same file: every document is a run of its own."""

from __future__ import annotations

from typing import Any

from trtlog.events import Event, ProfileHeader, ProfileRow
from trtlog.events.base import EXPORT_PRODUCER


def profile_events(documents: list[Any]) -> list[Event]:
    events: list[Event] = []
    line = 0
    for document in documents:
        for record in document:
            line += 1
            if not isinstance(record, dict):
                continue
            if "count" in record and "name" not in record:
                events.append(
                    ProfileHeader(
                        line=line,
                        end_line=line,
                        producer=EXPORT_PRODUCER,
                        iterations=int(record["count"]),
                    )
                )
            elif "name" in record:
                median = record.get("medianMs")
                events.append(
                    ProfileRow(
                        line=line,
                        end_line=line,
                        producer=EXPORT_PRODUCER,
                        layer=str(record["name"]),
                        total_ms=float(record.get("timeMs", 0.0)),
                        average_ms=float(record.get("averageMs", 0.0)),
                        median_ms=None if median is None else float(median),
                        percent=float(record.get("percentage", 0.0)),
                    )
                )
    return events
