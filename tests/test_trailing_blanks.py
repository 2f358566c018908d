"""Blanks after a message (a log pasted from a terminal, a logger's padding) do not hide it: a
line the grammar cannot read as printed is read without them; a line it reads as printed keeps
that reading."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from tests.test_claims import ENVELOPES, messages, same
from trtlog.events import (
    BuilderNote,
    ChoseRunner,
    Diagnostic,
    Foreign,
    LayerCount,
    MemUsageChange,
    TraceAverage,
    Unrecognized,
)
from trtlog.parse import parse_text

# Lines of a TensorRT 7 trtexec log as pasted into a bug report, each with the blanks it ended in.
PASTED = [
    "[05/21/2021-09:59:29] [I] Average on 10 runs - GPU latency: 643.169 ms - Host latency: "
    "643.169 ms (end to end 643.169 ms, enqueue 4.60832 ms)   ",
    "[05/21/2021-09:59:29] [V] [TRT] Original: 32 layers ",
    "[05/21/2021-09:59:29] [V] [TRT] >>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution "
    "Tactic: 0x5e4c1ae11d3aa3ea \t",
    "[05/21/2021-09:59:29] [I] [TRT] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: CPU 20, "
    "GPU 500 (MiB)   ",
    "[05/21/2021-09:59:29] [W] [TRT] Detected 13 inputs and 1 output network tensors. ",
]


# A message on a line of its own under a record (``envelope + message``).
UNDER_A_RECORD = "[05/21/2021-09:59:29] [I] Starting inference\n"


def test_a_message_followed_by_blanks_is_read_as_its_form() -> None:
    for fast in (True, False):
        log = parse_text("\n".join(PASTED), fast=fast)
        kinds = [type(event) for event in log.events]
        # The warning is the builder's note it says, not a warning of no known form.
        assert kinds == [TraceAverage, LayerCount, ChoseRunner, MemUsageChange, BuilderNote]
        average = log.events[0]
        assert isinstance(average, TraceAverage)
        assert (average.runs, average.gpu_latency_ms, average.enqueue_ms) == (10, 643.169, 4.60832)
        assert (log.counts.recognized, log.counts.unrecognized) == (5, 0)


def test_a_message_of_several_lines_each_followed_by_blanks_is_read_whole() -> None:
    # trtexec 8.x's engine layer listing, pasted with a blank after each line.
    listing = "[05/21/2021-09:59:29] [I] Layers:\nConv-1 + ReLU-2\nMaxPool-3\n\nBindings:\ntensor-0"
    padded = "\n".join(line + " " for line in listing.split("\n"))
    for fast in (True, False):
        log = parse_text(padded, fast=fast)
        assert [type(event) for event in log.events] == [
            type(event) for event in parse_text(listing).events
        ]
        # Every line read (the blank one, a line of blanks here, as part of the listing).
        assert (log.counts.unrecognized, log.counts.foreign) == (0, 0)
        assert log.counts.recognized + log.counts.blank == 6


def test_a_line_under_a_record_followed_by_blanks_is_read_as_its_form() -> None:
    text = (
        "[05/21/2021-09:59:29] [I] Starting inference\nOriginal: 32 layers  \n   plugin says hi  "
    )
    log = parse_text(text)
    assert [type(event) for event in log.events][1:] == [LayerCount, Foreign]
    assert same(log.events, parse_text(text, fast=False).events)


def test_blanks_that_a_message_ends_in_keep_their_reading() -> None:
    # An empty layer name after "Computing costs for " (TensorRT prints the blank): read as
    # printed, before any trimming is tried; and a line no form knows stays unrecognised.
    line = "[05/21/2021-09:59:29] [V] [TRT] =============== Computing costs for "
    unknown = "[05/21/2021-09:59:29] [I] [TRT] A line no rule knows   "
    as_printed = parse_text(line).events
    assert as_printed and type(as_printed[0]) is not Unrecognized
    assert [type(event) for event in parse_text(unknown).events] == [Unrecognized]
    assert parse_text(unknown).events[0].text.endswith("knows   ")  # type: ignore[attr-defined]
    # A warning of no known form is still a warning.
    warning = "[05/21/2021-09:59:29] [W] [TRT] Something odd happened.  "
    assert [type(event) for event in parse_text(warning).events] == [Diagnostic]


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([*ENVELOPES, UNDER_A_RECORD]),
    messages,
    st.sampled_from([" ", "  ", "\t", " \t "]),
    st.sampled_from(["", "\n   plugin says hi"]),
)
def test_blanks_after_a_message_never_make_it_read_worse(
    envelope: str, message: str, blanks: str, after: str
) -> None:
    # (Where the grammar reads a line with the blanks as printed, that reading stands.)
    line = envelope + message
    if line != line.rstrip() or not message.strip():
        return
    padded = parse_text(line + blanks + after)
    # Never read worse than without the blanks, and the same both ways.
    assert padded.counts.recognized >= parse_text(line + after).counts.recognized, line
    assert same(padded.events, parse_text(line + blanks + after, fast=False).events), line
