"""Mutated real logs never crash the parse or the tables, and their lines still add up.

Hypothesis cuts, shuffles, duplicates, interleaves and corrupts the sample logs (written in
TensorRT's real formats) and the corpus logs' first lines (flipped bytes, lines cut short, numbers
beyond 64 bits, figures that are not finite); every mutant is parsed, with the native core and
without, and recognised + unrecognised + foreign + blank lines equal its physical lines.

Two sizes: the same mutants each run also have every table built (150 under the ci Hypothesis
profile, the dev profile's few elsewhere); and a sweep of mutants that are parsed and counted
only, a few fixed ones on a developer's machine, 1,000 new ones in every CI run (a new seed each
run, so that the runs together cover 100,000 mutants every hundred runs; a failure prints the
example and the seed that reproduces it).
TRTLOG_FUZZ_EXAMPLES=N draws N new ones for both."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, PROFILE, SAMPLES, examples
from trtlog.analysis.buildlog import TABLES, BuildLog
from trtlog.parse import parse_text
from trtlog.parse.summarize import summarize

# The first lines of each log: the options, the network, the first layers' tuning.
_HEAD_LINES = 400
SOURCES: list[list[bytes]] = [
    path.read_bytes().splitlines(keepends=True)[:_HEAD_LINES]
    for path in sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS
]
_ASKED = os.environ.get("TRTLOG_FUZZ_EXAMPLES")
_IN_CI = PROFILE == "ci"
# Mutants whose tables are built too (a quarter of a second each).
EXAMPLES = int(_ASKED or examples(150))
FRESH = _ASKED is not None
# Mutants only parsed and counted (a twentieth of a second each).
SWEEP_EXAMPLES = int(_ASKED or examples(1000))
SWEEP_FRESH = FRESH or _IN_CI


@st.composite
def mutated_logs(draw: st.DrawFn) -> bytes:
    lines = list(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 4))):
        mutation = draw(
            st.sampled_from(
                ["cut", "shuffle", "duplicate", "interleave", "flip", "splice", "huge", "nonfinite"]
            )
        )
        if not lines:
            break
        start = draw(st.integers(0, len(lines) - 1))
        end = draw(st.integers(start, min(len(lines), start + 60)))
        if mutation == "cut":
            lines = lines[:start] + lines[end:]
        elif mutation == "shuffle":
            block = lines[start:end]
            lines[start:end] = draw(st.permutations(block)) if block else block
        elif mutation == "duplicate":
            lines[end:end] = lines[start:end]
        elif mutation == "interleave":
            other = draw(st.sampled_from(SOURCES))
            lines[start:start] = other[: draw(st.integers(0, 80))]
        elif mutation == "flip":
            line = bytearray(lines[start])
            if line:
                where = draw(st.integers(0, len(line) - 1))
                line[where] = draw(st.integers(0, 255))
            lines[start] = bytes(line)
        elif mutation == "huge":
            # A number beyond 64 bits where the line had one (a corrupted figure).
            huge = draw(st.sampled_from([b"99999999999999999999", b"18446744073709551616"]))
            lines[start] = re.sub(rb"\d+", huge, lines[start], count=1)
        elif mutation == "nonfinite":
            # A figure that is not finite where the line had a decimal (a time of "inf", as a
            # C++ stream prints an overflowed float, or "nan").
            odd = draw(st.sampled_from([b"inf", b"-inf", b"nan", b"1e999", b"-nan(ind)"]))
            lines[start] = re.sub(rb"\d+\.\d+", odd, lines[start], count=1)
        else:
            # A line cut in the middle and joined to the next (a truncated write).
            line = lines[start]
            lines[start] = line[: draw(st.integers(0, len(line)))]
    if lines and draw(st.booleans()):
        lines[-1] = lines[-1].rstrip(b"\n")  # no newline at the end
    return b"".join(lines)


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES,
    derandomize=not FRESH,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_logs(), st.booleans())
def test_a_mutated_log_parses_and_its_lines_add_up(data: bytes, fast: bool) -> None:
    log = parse_text(data, fast=fast)
    summary = summarize(log)
    # Physical lines end at "\n" (a lone CR redraws a line within it); the last may lack one.
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    assert summary.lines == lines
    assert summary.recognized + summary.unrecognized + summary.foreign + summary.blank == lines
    tables = BuildLog.from_parsed(log)
    for name in TABLES:
        tables.table(name)


@settings(
    max_examples=SWEEP_EXAMPLES,
    derandomize=not SWEEP_FRESH,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_logs())
def test_a_sweep_of_mutated_logs_parses_and_every_line_is_counted_once(data: bytes) -> None:
    summary = summarize(parse_text(data))
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    assert summary.lines == lines
    assert summary.recognized + summary.unrecognized + summary.foreign + summary.blank == lines


def test_numbers_beyond_64_bits_are_kept_as_none_and_counted() -> None:
    # Each line is a real TensorRT form with its figure corrupted: a 10.x stage count, trtexec's
    # memory total, a 7.x legacy timing runner's id, 10.x per-layer memory.
    stamp = "[07/07/2026-02:11:09] "
    text = "\n".join(
        [
            f"{stamp}[V] [TRT] After slice removal: 99999999999999999999 layers",
            f"{stamp}[V] Total Weights Memory: 18446744073709551614 bytes",
            f"{stamp}[V] [TRT] --------------- Timing conv1(9223372036854775808)",
            f"{stamp}[V] [TRT] Tactic: 0x1 Time: 0.5",
            f"{stamp}[V] [TRT] Layer: conv9 HostPersistent: 99999999999999999999 "
            "DevicePersistent: 0 Scratch Memory: 0",
        ]
    )
    log = parse_text(text)
    summary = summarize(log)
    assert summary.out_of_range == 4
    assert summary.unrecognized == 0
    tables = BuildLog.from_parsed(log)
    memory = tables.table("memory")
    assert memory["host_persistent"].isna().tolist() == [True]
    assert memory["device_persistent"].tolist() == [0]
    tactics = tables.table("tactics")
    assert tactics["runner_id"].isna().all()
    for name in TABLES:
        tables.table(name)
