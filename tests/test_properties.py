"""Property tests: no byte sequence and no mixture of real lines makes a parse fail."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, SAMPLES, examples
from trtlog.parse import parse_text
from trtlog.parse.result import ParsedLog


def _real_lines() -> list[str]:
    lines: list[str] = []
    for path in sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS[:12]:
        with path.open(encoding="utf-8", errors="replace") as stream:
            lines.extend(line.rstrip("\n") for _, line in zip(range(400), stream, strict=False))
    return lines


REAL_LINES = _real_lines()
ENVELOPES = ["", "[01/01/2022-16:13:43] [V] [TRT] ", "[07/07/2026-06:12:03] [TRT] [W] ", "[V] ",
             "[TensorRT] VERBOSE: ", "INFO:torch_tensorrt [TensorRT Conversion Context]:", "\x1b[2K", "&&&& ",
             "DEBUG: [TRT]: ", "[2023-08-14 10:00:00 VERBOSE] ",
             "2023-08-14 12:00:00.1 [W:onnxruntime:Default, a.h:8 log] [2023-08-14 10:00:00 UNKNOWN] ",
             "W0511 01:22:37.728144 1 logging.cc:52] "]  # fmt: skip


def consistent(log: ParsedLog) -> None:
    counts = log.counts
    assert (
        counts.recognized + counts.unrecognized + counts.foreign + counts.blank
        == log.physical_lines
    )
    for event in log.events:
        assert 1 <= event.line <= event.end_line <= max(log.physical_lines, 1)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    consistent(parse_text(data))


@pytest.mark.slow
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=600))
def test_arbitrary_text_never_raises(text: str) -> None:
    consistent(parse_text(text))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(ENVELOPES),
            st.sampled_from(REAL_LINES),
            st.sampled_from(["", "\r", "\x00", "\ufffd", " ->"]),
        ),
        max_size=60,
    )
)
def test_mixtures_of_real_lines_never_raise(parts: list[tuple[str, str, str]]) -> None:
    text = "\n".join(envelope + line + tail for envelope, line, tail in parts)
    consistent(parse_text(text))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(REAL_LINES), min_size=1, max_size=80),
    st.integers(min_value=1, max_value=200),
)
def test_cutting_real_lines_anywhere_never_raises(lines: list[str], cut: int) -> None:
    text = "\n".join(lines)
    consistent(parse_text(text[:cut] + text[cut * 2 :]))
