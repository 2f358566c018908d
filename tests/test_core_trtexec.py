"""The native core on trtexec's own messages (trace averages, per-layer profile rows, option
lines), in its own envelope ("[ts] [I] " without "[TRT]"),
which the grammar reads with the ``trtexec_message`` start rule: the core claims them only as
that rule reads them (``core/src/trtexec.rs``)."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, examples, needs_corpus
from tests.test_claims import grammar_events, messages
from tests.test_core import _check_claims, _claimed, _scanned
from trtlog.events.options import DeviceProperty, OptionLine
from trtlog.events.performance import InferenceProgress, ProfileRow, TraceAverage
from trtlog.parse import parse_text
from trtlog.parse.grammar import message_parser
from trtlog.parse.scanner import ClaimedRecords, core_guards

_INFO = "[03/25/2023-07:13:26] [I] "
# TensorRT 8.6 trtexec inference (hackathon corpus log, rtx3090).
_AVERAGE = (
    "Average on 10 runs - GPU latency: 0.0433136 ms - Host latency: 0.0513611 ms "
    "(enqueue 0.0253128 ms)"
)
# TensorRT 7.1 trtexec on a Jetson (corpus log, googlenet INT8): with "end to end".
_AVERAGE_END_TO_END = (
    "Average on 3 runs - GPU latency: 1.96852 ms - Host latency: 2.10776 ms "
    "(end to end 2.12201 ms, enqueue 1.98582 ms)"
)
_NEXT = "[03/25/2023-07:13:27] [I] Trace averages of 10 runs:"


def _claimed_items(lines: list[str]) -> list[object]:
    scanned, _ = _scanned(("\n".join(lines) + "\n").encode())
    return [item for piece in scanned if isinstance(piece, ClaimedRecords) for item in piece.items]


def _claimed_in_corpus_log(name_start: str, kind: type) -> tuple[bytes, list[object]]:
    """The bytes of the corpus log whose name starts so, and the events of class ``kind`` the
    core claims in it; every claim in it is checked against the grammar first."""
    path = next(p for p in CORPUS_LOGS if p.name.startswith(name_start))
    data = path.read_bytes()
    _check_claims(data)
    events, _ = _claimed(data, 1 << 20)
    return data, [event for event in events if isinstance(event, kind)]


def test_trace_average_guards_are_read_for_trtexec_s_own_start_rule() -> None:
    guards = dict(core_guards(message_parser()))
    # Read for ``message`` the rule would be unknown, and the core never claims it.
    assert guards["trace_average"] != ("(",)
    # PERF_METRIC ("Latency: min = ...") starts trtexec's messages only, and the lexer tries it
    # before "Average on ".
    assert any("End-to-End Host Latency" in pattern for pattern in guards["trace_average"])


def test_trace_averages_are_claimed_with_the_values_printed() -> None:
    items = _claimed_items([_INFO + _AVERAGE, _INFO + _AVERAGE_END_TO_END, _NEXT])
    assert len(items) == 2
    first, second = items
    assert isinstance(first, TraceAverage) and isinstance(second, TraceAverage)
    assert (first.line, first.end_line) == (1, 1)
    assert (first.timestamp, first.severity, first.producer) == (
        datetime(2023, 3, 25, 7, 13, 26),
        "info",
        "trtexec",
    )
    assert (first.runs, first.gpu_latency_ms, first.host_latency_ms) == (10, 0.0433136, 0.0513611)
    assert (first.end_to_end_ms, first.enqueue_ms) == (None, 0.0253128)
    assert (second.line, second.runs, second.end_to_end_ms, second.enqueue_ms) == (
        2,
        3,
        2.12201,
        1.98582,
    )


def test_trace_averages_in_other_envelopes_or_with_lines_under_them_are_left_to_the_grammar() -> (
    None
):
    lines = [
        # trtexec's warnings are read with another start rule; the library's INFO is "[TRT]".
        "[03/25/2023-07:13:26] [W] " + _AVERAGE,
        "[03/25/2023-07:13:26] [I] [TRT] " + _AVERAGE,
        "[03/25/2023-07:13:26][I] " + _AVERAGE,
        # A line under it: the record is not one line.
        _INFO + _AVERAGE,
        "  continued",
        _NEXT,
    ]
    assert _claimed_items(lines) == []


@pytest.mark.slow
@needs_corpus
def test_the_core_claims_the_trace_averages_of_a_verbose_inference_log() -> None:
    # TensorRT 8.5 trtexec on Orin with --dumpProfile: 15,829 trace averages, nearly all its
    # lines, each a line of its own.
    data, averages = _claimed_in_corpus_log("lix_trt8.5.10_trtexec_orin_mnist", TraceAverage)
    assert len(averages) == data.count(b"] [I] Average on ") == 15829


_NUMBER = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["1", "1.", ".5", "1e3", "1e", "+inf", "nan", "-0", "x", "", "\u0661"]),
)
_RUNS = st.sampled_from(
    ["10", "0", "3", "9223372036854775807", "9223372036854775808", "", "\u0663"]
)
_TRACE_AVERAGE = st.builds(
    lambda runs, gpu, host, end, enqueue, tail: (
        f"Average on {runs} runs - GPU latency: {gpu} ms - Host latency: {host} ms ({end}"
        f"enqueue {enqueue} ms){tail}"
    ),
    _RUNS,
    _NUMBER,
    _NUMBER,
    st.one_of(st.just(""), _NUMBER.map("end to end {} ms, ".format)),
    _NUMBER,
    st.sampled_from(["", " ", "x", ")"]),
)
_ENVELOPE = st.sampled_from(
    [
        _INFO,
        "[03/25/2023-07:13:26] [W] ",
        "[03/25/2023-07:13:26] [I] [TRT] ",
        "[03/25/2023-07:13:26] [I]  ",
    ]
)
_LINE = st.one_of(
    st.builds(lambda envelope, body: envelope + body, _ENVELOPE, _TRACE_AVERAGE),
    st.sampled_from(["  bare continuation", _NEXT, ""]),
)


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, min_size=1, max_size=8), st.integers(1, 64))
@example([_INFO + _AVERAGE, _INFO + _AVERAGE_END_TO_END, _NEXT], 1)
def test_generated_trace_averages_are_claimed_only_as_the_grammar_reads_them(
    lines: list[str], chunk: int
) -> None:
    _check_claims(("\n".join(lines) + "\n").encode(), chunk)


# TensorRT 8.5.3 trtexec --dumpProfile (sparsedrive corpus log), its padding shortened.
_ROW_8_5 = (
    "      Reformatting CopyNode for Network Input prev_map_feat        1.50           0.0127"
    "             0.0051      0.1"
)
# The 8.2 layout (performance.toml's case): no median.
_ROW_8_2 = (
    "Reformatting CopyNode for Input Tensor 0 to Conv_0       58.18           0.4247      6.6"
)
# TensorRT 10.x (sample_logs/trtexec_10.x_build_inference_profile.log): the numbers first.
_ROW_10 = "      29.71       0.0030       0.0029       9.6   /conv1/Conv + /relu1/Relu"


def test_profile_row_and_option_guards_are_read_for_trtexec_s_own_start_rule() -> None:
    lark = message_parser()
    guards = dict(core_guards(lark))
    # The lexer tries the numbers-first terminal before the name-first one.
    numbers_first = lark.get_terminal("PROFILE_NUMBERS_FIRST").pattern.to_regexp()
    assert numbers_first in guards["profile_row"]
    assert guards["profile_row_numbers_first"] != ("(",)
    # OPTION_KEY comes last: every other terminal is a guard, DEVICE_KEY's among them.
    option_guards = guards["option_line"]
    assert numbers_first in option_guards
    assert any("Selected Device" in pattern for pattern in option_guards)


def test_profile_rows_of_each_layout_are_claimed_with_the_values_printed() -> None:
    items = _claimed_items([_INFO + _ROW_8_5, _INFO + _ROW_8_2, _INFO + _ROW_10, _NEXT])
    assert [type(item) for item in items] == [ProfileRow] * 3
    first, second, third = items
    assert isinstance(first, ProfileRow) and isinstance(second, ProfileRow)
    assert isinstance(third, ProfileRow)
    assert first.layer == "Reformatting CopyNode for Network Input prev_map_feat"
    assert (first.total_ms, first.average_ms, first.median_ms, first.percent) == (
        1.5,
        0.0127,
        0.0051,
        0.1,
    )
    assert (first.line, first.severity, first.producer) == (1, "info", "trtexec")
    assert second.layer == "Reformatting CopyNode for Input Tensor 0 to Conv_0"
    assert (second.total_ms, second.average_ms, second.median_ms, second.percent) == (
        58.18,
        0.4247,
        None,
        6.6,
    )
    assert third.layer == "/conv1/Conv + /relu1/Relu"
    assert (third.total_ms, third.average_ms, third.median_ms, third.percent) == (
        29.71,
        0.003,
        0.0029,
        9.6,
    )


def test_the_profile_s_header_and_columns_are_not_claimed() -> None:
    lines = [
        _INFO + "=== Profile (118 iterations ) ===",
        _INFO + "   Layer   Time (ms)   Avg. Time (ms)   Median Time (ms)   Time %",
        _INFO + "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer",
        _NEXT,
    ]
    assert _claimed_items(lines) == []


def test_a_line_of_another_rule_that_passes_the_first_test_is_not_claimed() -> None:
    # TensorRT 8.6 trtexec's device section: it starts as an option line does and ends in a
    # number, as a profile row does, but the grammar reads a device property (its key is a
    # terminal the lexer tries before OPTION_KEY).
    # (``core/src/trtexec/tests.rs`` checks that it passes the core's first test.)
    line = _INFO + "Compute Capability: 8.9"
    assert _claimed_items([line, _NEXT]) == []
    (event,) = grammar_events(line)
    assert type(event) is DeviceProperty


def test_option_lines_are_claimed_with_and_without_a_value() -> None:
    # TensorRT 7.1 trtexec on a Jetson (corpus log); 10.14's "Output:" has no value.
    lines = ["Format: Caffe", "Model: ", "Output:", "Memory Pools: workspace: default"]
    items = _claimed_items([_INFO + line for line in lines] + [_NEXT])
    assert [(type(item), item.key, item.value) for item in items] == [  # type: ignore[attr-defined]
        (OptionLine, "Format", "Caffe"),
        (OptionLine, "Model", ""),
        (OptionLine, "Output", ""),
        (OptionLine, "Memory Pools", "workspace: default"),
    ]


def test_option_like_lines_of_other_rules_are_left_to_the_grammar() -> None:
    device = "Selected Device: NVIDIA RTX 6000 Ada Generation"
    header = "Trace averages of 10 runs:"
    tactic = "Tactic: 0x0000000000000000 Time: 0.0123"
    lines = [
        _INFO + device,
        _INFO + header,
        _INFO + tactic,
        "[03/25/2023-07:13:26] [W] Precision: FP32",
    ]
    assert _claimed_items([*lines, _NEXT]) == []
    assert type(grammar_events(_INFO + device)[0]) is DeviceProperty
    assert type(grammar_events(_INFO + header)[0]) is InferenceProgress
    assert type(grammar_events(_INFO + tactic)[0]) is not OptionLine


def test_a_claimed_option_line_takes_the_section_it_sits_in() -> None:
    text = "\n".join(
        [
            _INFO + "=== Model Options ===",
            _INFO + "Format: Caffe",
            _INFO + "=== Build Options ===",
            _INFO + "Max batch: 1",
            _INFO + "Precision: FP32",
        ]
    )
    options = [event for event in parse_text(text).events if isinstance(event, OptionLine)]
    assert [(option.section, option.key, option.value) for option in options] == [
        ("Model Options", "Format", "Caffe"),
        ("Build Options", "Max batch", "1"),
        ("Build Options", "Precision", "FP32"),
    ]


@pytest.mark.slow
@needs_corpus
def test_the_core_claims_the_profile_rows_of_a_profiled_log() -> None:
    # TensorRT 8.5.3 trtexec --dumpProfile over a network of plugins: the profile's rows are
    # lines 156-994 (after its header and columns row), 839 of them, the last "Total".
    _, rows = _claimed_in_corpus_log("sparsedrive_trt8.5.3", ProfileRow)
    assert len(rows) == 839


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(messages.map(_INFO.__add__), st.sampled_from(["  bare continuation", _NEXT])),
        min_size=1,
        max_size=8,
    ),
    st.integers(1, 64),
)
@example([_INFO + _ROW_8_5, _INFO + _ROW_10, _INFO + "Format: Caffe", _NEXT], 3)
def test_generated_trtexec_messages_are_claimed_only_as_the_grammar_reads_them(
    lines: list[str], chunk: int
) -> None:
    # Every frequent form, profile rows and option lines among them, in trtexec's envelope.
    _check_claims(("\n".join(lines) + "\n").encode(), chunk)
