"""The native core's envelope splitter against the envelope grammar on generated lines: the
same ``(Envelope, body)``, or None where only the grammar can tell. (Every corpus line and every
case of ``grammar_cases/envelope.toml`` are compared in ``test_claims.py`` and
``test_grammar_rules.py``.)"""

from __future__ import annotations

from datetime import datetime
from functools import cache

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from trtlog import _core
from trtlog.parse.envelope_grammar import envelope_parser, split_envelope
from trtlog.parse.envelope_split import envelope_splitter

# The envelope grammar's terminals in the rows the core splits itself (each optional part both
# with and without it). A stamp alone, "[TRT] [V]" and the rarer envelopes (``GRAMMAR_ROWS``)
# are left to the grammar.
SPLIT_ROWS = [
    ("TIMESTAMP", "LEVEL_TAG", "LIBRARY_TAG"),
    ("TIMESTAMP", "LEVEL_TAG"),
    ("TIMESTAMP", "LIBRARY_TAG", "LEVEL_TAG"),
    ("TIMESTAMP", "LIBRARY_TAG"),
    ("PYTHON_TRT_LEVEL",),
    ("LEVEL_TAG",),
    ("LEVEL_TAG", "LIBRARY_TAG"),
    ("CLOCK_STAMP", "WORD_LEVEL_TAG", "SOURCE_TAG"),
    ("ISO_STAMP_LEVEL",),
    ("ONNXRUNTIME_PREFIX",),
    ("ONNXRUNTIME_PREFIX", "ISO_STAMP_LEVEL"),
    ("TRITON_PREFIX",),
    ("DEEPSTREAM_PREFIX",),
    ("TORCH_TRT_PREFIX",),
    ("PYTHON_LOGGING_PREFIX",),
]
BODIES = st.lists(
    st.sampled_from(["Tactic: 0x1 Time: 2", "x", " ", "[V] ", "[TRT] ", ":", "[", "]", "0"]),
    max_size=3,
).map("".join)


@cache
def terminal_text(name: str, ascii_only: bool) -> st.SearchStrategy[str]:
    pattern = envelope_parser().get_terminal(name).pattern.to_regexp()
    alphabet = st.characters(codec="ascii") if ascii_only else None
    return st.from_regex(pattern, fullmatch=True, alphabet=alphabet)


def envelope_lines(ascii_only: bool) -> st.SearchStrategy[str]:
    rows = st.sampled_from(SPLIT_ROWS)
    prefixes = rows.flatmap(
        lambda row: st.tuples(*(terminal_text(name, ascii_only) for name in row)).map("".join)
    )
    return st.tuples(prefixes, BODIES).map("".join).filter(lambda line: "\n" not in line)


@settings(max_examples=examples(3000), deadline=None)
@given(envelope_lines(ascii_only=True))
@example(
    "2021-10-15 14:49:00.677340570 [W:onnxruntime:log, a.h:53 log] [2021-10-15 06:49:00 UNKNOWN] x"
)
@example("I0511 01:22:37.728954 1 tensorrt.cc:3193] Detected images as execution binding")
@example("[13:48:27.826] [INFO] [builderUtils.cpp:328:buildAndSerializeEngine] Engine saved")
@example("DEBUG:torch_tensorrt.dynamo.conversion._TRTInterpreter:Converting node x")
@example("[12/27/2023-03:46:29] [TRT-LLM] [I] Total time of building Unnamed Network 0")
def test_the_core_splits_every_ascii_envelope_as_the_grammar_does(line: str) -> None:
    # In ASCII the core's patterns read what the grammar's do: it splits each line itself.
    split = envelope_splitter().split(line)
    assert split is not None, line
    assert split == split_envelope(line), line


@settings(max_examples=examples(3000), deadline=None)
@given(envelope_lines(ascii_only=False))
def test_the_core_splits_any_envelope_as_the_grammar_does_or_leaves_it(line: str) -> None:
    # Python's \d, \w and \s take characters beyond ASCII: the core leaves such lines to the
    # grammar rather than split them otherwise.
    split = envelope_splitter().split(line)
    if split is not None:
        assert split == split_envelope(line), line
    if not line.isascii():
        assert split is None or split[0].style == "none", line


# The rarer envelopes the core leaves to the grammar: each line it splits anyway must be split
# as the grammar does (the prefixes as generated, then a message or text that starts like one).
GRAMMAR_ROWS = [
    ("TRTLLM_RUNTIME_PREFIX",),
    ("TENSORFLOW_PREFIX",),
    ("PASTED_LEVEL_TAGS",),
    ("JETSON_TAG",),
    ("TIMESTAMP",),
]


@settings(max_examples=examples(1500), deadline=None)
@given(
    st.sampled_from(GRAMMAR_ROWS).flatmap(
        lambda row: st.tuples(*(terminal_text(name, True) for name in row)).map("".join)
    ),
    BODIES,
)
def test_the_core_leaves_the_rarer_envelopes_to_the_grammar_or_agrees(
    prefix: str, body: str
) -> None:
    line = prefix + body
    if "\n" in line:
        return
    split = envelope_splitter().split(line)
    assert split is None or split == split_envelope(line), line
    # The grammar reads the prefix as an envelope of its own.
    assert split_envelope(line)[0].style != "none", line


@pytest.mark.parametrize(
    "line",
    [
        "[07/07/2026-02:11:00] [V] [TRT] \ud800 a lone surrogate",
        "[07/07/2026-02:11:00] [I] Model: m\u00f3del.onnx",
        "[\u0663" + "7/07/2026-02:11:00] [I] Arabic-Indic digits",
    ],
)
def test_lines_python_reads_otherwise_are_left_to_the_grammar(line: str) -> None:
    assert envelope_splitter().split(line) is None


def test_one_envelope_object_per_prefix() -> None:
    splitter = envelope_splitter()
    first = splitter.split("[07/07/2026-02:11:00] [W] [TRT] one")
    second = splitter.split("[07/07/2026-02:11:00] [W] [TRT] two")
    assert first is not None and second is not None
    assert first[0] is second[0]
    assert (first[1], second[1]) == ("one", "two")


def test_each_prefix_is_built_once() -> None:
    built: list[tuple[str, str | None, str | None, str]] = []

    def build(style: str, stamp: str | None, level: str | None, producer: str) -> str:
        built.append((style, stamp, level, producer))
        return style

    splitter = _core.EnvelopeSplitter(build, "none")
    for line in ["[07/07/2026-02:11:00] [V] [TRT] a", "[07/07/2026-02:11:00] [V] [TRT] b", "x"]:
        splitter.split(line)
    assert built == [("trtexec", "[07/07/2026-02:11:00]", "V", "trt")]
    assert splitter.split("x") == ("none", "x")


_ENVELOPE_PIECES = ["[07/07/2026-02:11:00]", "[07/07/2026-02:11:01]", " ", "  ", "[V]", "[I]",
                    "[W]", "[TRT]", "[TRT-LLM]", "[TensorRT] VERBOSE: ", "[13:47:39.127]",
                    "[DEBUG]", "[TensorRT]", "Tactic: 0x1 Time: 2", "x", "[", "INFO: [TRT]:",
                    "[2023-08-14 10:00:00", " WARNING]", "   INFO]", "2023-08-14 12:00:00.5",
                    "[W:onnxruntime:Default, a.h:88 log]", "I0511 01:22:37.728144", " 1 ",
                    "logging.cc:52]"]  # fmt: skip


@settings(max_examples=examples(2000), deadline=None)
@given(st.lists(st.lists(st.sampled_from(_ENVELOPE_PIECES), max_size=7).map("".join), max_size=6))
@example(["[07/07/2026-02:11:00] [I] x", "[07/07/2026-02:11:00] [I] [TRT] x"])
@example(["[07/07/2026-02:11:00] [V] [TRT] x", "[07/07/2026-02:11:00] [V] [TRT]  x"])
def test_an_envelope_splitter_splits_each_line_as_a_new_one_would(lines: list[str]) -> None:
    # The splitter remembers envelopes by prefix: the lines after it must split as on their own.
    envelopes = envelope_splitter()
    for line in lines:
        split = envelopes.split(line)
        assert split == envelope_splitter().split(line), line
        if split is not None:
            assert split == split_envelope(line), line


@pytest.mark.parametrize(
    "line",
    [
        # Torch-TensorRT 2.x (dinov2 corpus log) and 1.x envelopes, a progress monitor's bar.
        "DEBUG:torch_tensorrt.dynamo.conversion._TRTInterpreter:Converted node x",
        "DEBUG: [Torch-TensorRT TorchScript Conversion Context] - Tactic: 0x1 Time: 0.1",
        "INFO:torch_tensorrt [TensorRT Conversion Context]:Total number of layers: 3",
        "[=====-----] Building engine 1/9",
        "INFO: plain text",
    ],
)
def test_the_envelope_splitter_splits_logging_envelopes_and_bars_itself(line: str) -> None:
    # Not left to the envelope grammar (None), and split as the grammar splits them.
    assert envelope_splitter().split(line) == split_envelope(line)


def test_a_triton_stamp_ends_at_its_second_blank() -> None:
    # glog's prefix with a thread id of many digits (absl), and a padded one: the stamp is the
    # day after the level letter and the time of day, whatever follows.
    absl = "W0725 16:43:50.537823 139848660895552 file.py:280] x"
    padded = "I0511 01:22:37.728144    12 logging.cc:52] Using cublasLt"
    for line, stamp, severity, style, producer in [
        (absl, datetime(1900, 7, 25, 16, 43, 50, 537823), "warning", "glog", "glog"),
        (padded, datetime(1900, 5, 11, 1, 22, 37, 728144), "info", "triton", "trt"),
    ]:
        envelope, _ = split_envelope(line)
        assert (envelope.style, envelope.timestamp) == (style, stamp)
        assert (envelope.severity, envelope.producer) == (severity, producer)
        assert envelope_splitter().split(line) == split_envelope(line)
