"""Runs of another program's lines under a record are kept as one block of ``Foreign`` lines,
which stands for the events the grammar gives each line alone."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from tests.test_claims import same
from trtlog.analysis.stream import KeptEvents
from trtlog.analysis.timeline.builder import TimelineBuilder
from trtlog.events import Event, Foreign, TacticTiming
from trtlog.parse import StreamItems, parse_text
from trtlog.parse.foreign_runs import foreign_runs
from trtlog.parse.items import Item, LineBlock, events_of
from trtlog.parse.serialize import block_json, event_json

# A trtexec run whose custom plugin prints its own debug lines ("<object>[<method>]") under
# TensorRT's, as a TensorRT 10.14 trtexec log does once per inference; the lines between are
# TensorRT's own, one a verbose message in the same place.
PLUGIN_LOG = """\
[04/25/2026-00:55:01] [I] === Model Options ===
[04/25/2026-00:55:01] [I] Format: ONNX
[04/25/2026-00:55:02] [I] Starting inference
    0x40dd5800[configurePlugin]
    0x40dd5800[enqueue]
    0x40dd5800[enqueue]

    0x40dd5800[enqueue]
    0x40dd5800[enqueue]
[04/25/2026-00:55:03] [I] Warmup completed 1 queries over 200 ms
    0x40dd5800[enqueue]
[04/25/2026-00:55:05] [I] Timing trace has 96 queries over 3.00585 s
    0x40dd5800[enqueue]
Tactic: 0x00000000000003e8 Time: 0.00193877
    0x40dd5800[terminate]
    0x40dd5800[destroy]
"""


def _items(text: str) -> list[Item]:
    return list(StreamItems().folded(io.BytesIO(text.encode())))


def test_consecutive_lines_no_message_starts_are_one_run() -> None:
    lines = [(1, "a"), (2, "b"), (3, "X"), (4, "c"), (6, "d"), (7, "e"), (8, "f"), (9, "G")]
    runs = list(foreign_runs(lines, lambda number, text: text.islower()))
    # Numbers one after another make a run; a line alone stays a line.
    assert runs == [[(1, "a"), (2, "b")], (3, "X"), (4, "c"), [(6, "d"), (7, "e"), (8, "f")],
                    (9, "G")]  # fmt: skip
    assert list(foreign_runs([], lambda number, text: True)) == []


def test_a_plugins_prints_under_a_record_are_blocks_of_foreign_lines() -> None:
    items = _items(PLUGIN_LOG)
    blocks = [item for item in items if isinstance(item, LineBlock)]
    # Lines 4-6 and 8-9 (a blank line between), 15-16; single lines stay events, and a tactic
    # timing without an envelope is still TensorRT's (line 14).
    assert [(block.kind, block.first_line, len(block)) for block in blocks] == [
        (Foreign, 4, 3),
        (Foreign, 8, 2),
        (TacticTiming, 14, 1),
        (Foreign, 15, 2),
    ]
    assert blocks[0].texts() == [
        "    0x40dd5800[configurePlugin]",
        *["    0x40dd5800[enqueue]"] * 2,
    ]
    # Each keeps the time of the record above it, with no severity of its own.
    assert [
        (block.timestamp.second, block.severity) for block in blocks if block.kind is Foreign
    ] == [
        (2, None),
        (2, None),
        (5, None),
    ]
    fast, slow = parse_text(PLUGIN_LOG), parse_text(PLUGIN_LOG, fast=False)
    assert same(fast.events, slow.events)
    assert fast.counts == slow.counts
    assert (fast.counts.foreign, fast.counts.blank, fast.counts.recognized) == (9, 1, 6)


def _untimed(events: list[Event]) -> list[Event]:
    return [event for event in events if not isinstance(event, TacticTiming)]


def test_a_block_of_foreign_lines_is_read_as_its_events_are() -> None:
    items = _items(PLUGIN_LOG)
    events = list(events_of(items))
    # Kept for the summary as the events, linked to the run they were printed in.
    kept, kept_events = KeptEvents(), KeptEvents()
    for item in items:
        kept.feed(item)
    for event in events:
        kept_events.feed(event)
    # (Blocks of tactic timings are never kept, their events may be.)
    assert same(_untimed(kept.events), _untimed(kept_events.events))
    assert kept.families == kept_events.families
    assert {event.run for event in kept.events if isinstance(event, Foreign)} == {0}
    # The timeline, and the lines ``--format jsonl`` writes.
    blocked = TimelineBuilder().feed_all(items).table()
    assert blocked.equals(TimelineBuilder().feed_all(events).table())
    written = [
        line
        for item in items
        for line in (block_json(item) if isinstance(item, LineBlock) else [event_json(item)])
    ]
    assert written == [event_json(event) for event in events]
    assert json.loads(written[3]) | {"line": 4, "text": "    0x40dd5800[configurePlugin]"} == (
        json.loads(written[3])
    )


_OWN_LINES = st.sampled_from(
    ["    0x40dd5800[enqueue]", "***", "loss: 0.25", "", " ", "Tactic: 0x03e8 Time: 0.5",
     "[V] [TRT] Tactic: 0x00000000000003e8 Time: 0.00193877", "Layer(Convolution): conv0",
     "  step 3/10", "    0x40dd5800[enqueue]\r    0x40dd5801[enqueue]",
     "\x1b[31m    0x40dd5800[enqueue]\x1b[0m", "Original: 32 layers  "]
)  # fmt: skip


def test_a_line_of_several_segments_is_counted_once_not_in_a_run() -> None:
    # A redraw (lone CR) makes two segments of one line: counted once, as foreign.
    text = (
        "[06/22/2024-20:52:41] [I] Starting inference\n    0x40dd5800[enqueue]\r"
        "    0x40dd5801[enqueue]\n    0x40dd5802[enqueue]\n    0x40dd5803[enqueue]\n"
    )
    fast, slow = parse_text(text), parse_text(text, fast=False)
    assert (fast.counts.foreign, fast.counts.segments) == (3, 5)
    assert fast.counts == slow.counts
    assert [event.line for event in fast.events[1:]] == [2, 2, 3, 4]
    assert same(fast.events, slow.events)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_OWN_LINES, min_size=1, max_size=10))
def test_lines_under_a_record_parse_the_same_in_runs_and_alone(lines: list[str]) -> None:
    text = "\n".join(["[04/25/2026-00:55:02] [I] Starting inference", *lines])
    fast, slow = parse_text(text), parse_text(text, fast=False)
    assert same(fast.events, slow.events), text
    assert fast.counts == slow.counts, text
