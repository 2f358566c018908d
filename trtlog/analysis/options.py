"""The options the log echoes: trtexec's ``=== Build Options ===`` and the other sections.

``options`` columns: ``section`` ("Model Options", "Build Options", "Inference Options",
"Device Information", ...; missing outside any section), ``key``, ``value``, ``line``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trtlog.events import Event, OptionLine
from trtlog.events.index import indexed

COLUMNS = ["section", "key", "value", "line"]


def options_table(events: Sequence[Event]) -> pd.DataFrame:
    rows = [
        {"section": event.section, "key": event.key, "value": event.value, "line": event.line}
        for event in indexed(events).of(OptionLine)
    ]
    return pd.DataFrame(rows, columns=COLUMNS)
