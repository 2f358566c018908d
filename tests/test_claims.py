"""The native core's claims of one-line records against the grammar: the same events, or no
opinion, on every line.

A record the core could not claim as it read it (an envelope it does not read, escape codes in
its line) is claimed once Python has split its envelope (``RecordParser.claim``). Every line of
every corpus log goes through both that and the grammar; so do generated lines of each frequent
form in every envelope, with awkward names, ids and numbers; and whole logs are parsed both ways.
The grammar is the specification: any difference fails.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, SAMPLES, examples, needs_corpus
from trtlog import _core
from trtlog.events import FastestTactic, FormatCombination, TimingRunner
from trtlog.events.base import TacticId
from trtlog.parse import parse_file, parse_text
from trtlog.parse.assembly import Record
from trtlog.parse.envelope import Envelope
from trtlog.parse.envelope_grammar import split_envelope
from trtlog.parse.envelope_split import envelope_splitter
from trtlog.parse.items import events_of
from trtlog.parse.reader import numbered_segments, open_log
from trtlog.parse.records import RecordParser

ALL_LOGS = sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS


def grammar_events(envelope_line: str) -> list[object]:
    envelope, body = split_envelope(envelope_line)
    return RecordParser(fast=False).parse(Record(7, envelope_line, envelope, body))


PARSER = RecordParser()


def claimed_item(envelope_line: str) -> object:
    """What the core claims of a one-line record (an event or a block), or None."""
    envelope, body = split_envelope(envelope_line)
    return PARSER.claim(envelope, body, 7)


def core_events(envelope_line: str) -> list[object] | None:
    item = claimed_item(envelope_line)
    if item is None:
        return None
    # Blocks stand for events: those must be the grammar's.
    return list(events_of([item]))  # type: ignore[list-item]


def same(left: object, right: object) -> bool:
    """Equal, with NaN equal to NaN (TensorRT prints "nan" times) and types compared too."""
    if type(left) is not type(right):
        return False
    if isinstance(left, float) and left != left:
        return right != right  # type: ignore[comparison-overlap]
    if isinstance(left, (list, tuple)):
        return len(left) == len(right) and all(map(same, left, right))  # type: ignore[arg-type]
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(  # type: ignore[attr-defined]
            same(value, right[key])  # type: ignore[index]
            for key, value in left.items()
        )
    if is_dataclass(left):
        return all(same(getattr(left, f.name), getattr(right, f.name)) for f in fields(left))
    return left == right


def assert_agrees(
    envelope_line: str, envelopes: _core.EnvelopeSplitter[Envelope] | None = None
) -> bool:
    """The core's events equal the grammar's wherever it claims the line; whether it did.
    ``envelopes``: a splitter that has split the lines before this one."""
    for splitter in (envelope_splitter(), envelopes or envelope_splitter()):
        split = splitter.split(envelope_line)
        if split is not None:
            assert split == split_envelope(envelope_line), envelope_line
    claimed = core_events(envelope_line)
    if claimed is not None:
        assert same(claimed, grammar_events(envelope_line)), envelope_line
    return claimed is not None


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda path: path.name)
def test_every_line_parses_the_same_both_ways(path: Path) -> None:
    # One splitter for the whole log, as the parser keeps one: the envelopes it remembers must
    # not change how it splits the next line.
    envelopes = envelope_splitter()
    with open_log(path) as stream:
        for _, segment in numbered_segments(stream):
            assert_agrees(segment, envelopes)
    fast, slow = parse_file(path), parse_file(path, fast=False)
    assert same(fast.events, slow.events)
    assert fast.counts == slow.counts


@needs_corpus
def test_the_core_claims_most_lines_of_a_build_log_as_records() -> None:
    # The frequent forms are most of a verbose build: the core must claim them.
    path = next(path for path in CORPUS_LOGS if "10.16.1_trtexec_build" in path.name)
    with open_log(path) as stream:
        segments = [segment for _, segment in numbered_segments(stream)]
    taken = sum(core_events(segment) is not None for segment in segments)
    assert taken > 0.7 * len(segments)


STAMP = "[07/07/2026-02:11:00] "
ENVELOPES = [
    STAMP + "[V] [TRT] ",
    STAMP + "[W] [TRT] ",
    "[07/07/2026-02:11:00] [TRT] [V] ",
    "[07/07/2026-02:11:00][V][TRT]",
    "[TensorRT] VERBOSE: ",
    "[V] ",
    "DEBUG: [Torch-TensorRT TorchScript Conversion Context] - ",
    # trtexec's own lines: the trtexec_message rule.
    STAMP + "[I] ",
    # TensorRT-Edge-LLM's logger.
    "[13:47:39.127] [DEBUG] [TensorRT] ",
    "[13:47:39.127] [INFO] [llmBuilder.cpp:212:build] ",
    # DeepStream's nvinfer, onnx2trt, and ONNX Runtime relaying TensorRT and speaking for itself.
    "DEBUG: [TRT]: ",
    "[2023-08-14 10:00:00 VERBOSE] ",
    "2023-08-14 12:00:00.123456789 [W:onnxruntime:Default, tensorrt_execution_provider.h:88 log] "
    "[2023-08-14 10:00:00 UNKNOWN] ",
    "2023-08-14 12:00:00.123456789 [W:onnxruntime:Default, tensorrt_execution_provider.cc:1 f] ",
    # Triton: its TensorRT backend's logger, then Triton's own.
    "I0511 01:22:37.728144 1 logging.cc:52] ",
    "I0511 01:22:37.728144 1 tensorrt.cc:3193] ",
    "",
]
names = st.one_of(
    st.sampled_from(
        [
            "node_conv2d + node_relu",
            "{ForeignNode[/a/b...c]}",
            "PWN(x + y, z)",
            "(Unnamed Layer* 3) [Shuffle]",
            "Conv (CaskConvolution) x",
            "a -> b",
            "Optimizer Reformat(x:0 -> <out>)",
            "layer (Reformat) profiling completed in 1 seconds.",
            "x [Float(1) -> Half(1)] y",
        ]
    ),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=30),
)
ids = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**64 - 1).map(str),
    st.integers(min_value=0, max_value=2**64 - 1).map(lambda value: f"0x{value:016x}"),
    st.sampled_from(["0xd15ea5edd15ea5ed", "0", "-3360065831133338131", "0XAB"]),
)
numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.sampled_from(["inf", "-inf", "nan", "3.40282e+38", "1e-05", ".5", "7", "+1.0E3"]),
)
kernels = st.sampled_from(
    ["sm90_xmma_fprop_implicit_gemm_f32f32", "maxwell_scudnn_128x32_relu_medium_nn_v1", "k"]
)
formats = st.sampled_from(
    ["", "Float(784,784,28,1)", "Half(784,1:8,28,1), Int32(1)", "Float(3,1) ", "Int8(1:32)"]
)
runners = st.sampled_from(["CaskConvolution", "Reformat", "Myelin", "PointWiseV2", "x1"])
runner_ids = st.sampled_from(["", "[0x80000009]", "[0x0]"])
parameters = st.sampled_from(["", " numSplitK: 1 numBuffers: 0 numKernels: 1"])
# A profile row's numbers: as trtexec prints them, and what its terminals do not take.
_printed_numbers = st.sampled_from(["1.50", "0.0127", "-0.5", "100.0"])
profile_numbers = st.one_of(
    st.lists(_printed_numbers, min_size=3, max_size=4),
    st.lists(
        st.one_of(_printed_numbers, st.sampled_from(["3", "1e3", ".5", "12.", "\u0663.5"])),
        min_size=2,
        max_size=5,
    ),
)
profile_gaps = st.sampled_from([" ", "   ", "      "])

messages = st.one_of(
    # trtexec's per-layer profile rows, name first (3 or 4 numbers) or numbers first.
    st.builds(
        lambda indent, name, values, gap: indent + name + "".join(gap + v for v in values),
        st.sampled_from(["", "   "]),
        st.one_of(names, st.sampled_from(["Total", "a 1.0", "x: y", " ", ""])),
        profile_numbers,
        profile_gaps,
    ),
    st.builds(
        lambda values, gap, layer: "".join(gap + v for v in values) + layer,
        profile_numbers,
        profile_gaps,
        st.one_of(names, st.sampled_from(["   Total", "    x", "   ", "  1.0 2.0 3.0"])),
    ),
    # trtexec's option lines, and lines like them that are other rules'.
    st.builds(
        lambda key, value: f"{key}:{value}",
        st.one_of(
            names,
            st.sampled_from(
                ["Precision", "Selected Device", "Trace averages of 10 runs", "Tactic", " a", ""]
            ),
        ),
        st.sampled_from(["", " ", " FP32", "Disabled", " a: b", " 1.0 2.0 3.0", " 0x1 Time: 1"]),
    ),
    st.builds(lambda i, t: f"Tactic: {i} Time: {t}", ids, numbers),
    st.builds(lambda i, t: f"Tactic: {i} time {t}", ids, numbers),
    st.builds(lambda i, t: f"Tactic {i} time {t}", ids, numbers),
    st.builds(
        lambda k, p, i, t: f"Tactic Name: {k}{p} Tactic: {i} Time: {t}",
        kernels,
        parameters,
        ids,
        numbers,
    ),
    st.builds(lambda i, t: f"Fastest Tactic: {i} Time: {t}", ids, numbers),
    st.builds(
        lambda n, r, ri, s, i, t: (
            f"{n} ({r}{ri}) profiling completed in {s} seconds. Fastest Tactic: {i} Time: {t}"
        ),
        names,
        runners,
        runner_ids,
        numbers,
        ids,
        numbers,
    ),
    st.builds(
        lambda n, r, ri: f"--------------- Timing Runner: {n} ({r}{ri})", names, runners, runner_ids
    ),
    st.builds(
        lambda a, b: f"*************** Autotuning format combination: {a} -> {b} ***************",
        formats,
        formats,
    ),
    st.builds(
        lambda a, b: f"*************** Autotuning Reformat:{a} -> {b} ***************",
        formats,
        formats,
    ),
    st.builds(lambda n: f"=============== Computing costs for {n}", names),
    st.builds(lambda n: f"=============== Computing reformatting costs{n}", names),
    st.sampled_from(
        [
            "=============== Computing reformatting costs:",
            "Tactic: 0 is the only option, timing skipped",
        ]
    ),
    st.builds(
        lambda i, r, a, form: form.format(i, r, a),
        ids,
        st.integers(0, 2**40),
        st.integers(0, 2**40),
        st.sampled_from(
            [
                "Tactic: {} skipped. Scratch requested: {}, available: {}",
                "Tactic {} scratch requested: {}, available: {}",
            ]
        ),
    ),
    st.builds(lambda r, n: f"Skipping {r}: No valid tactics for {n}", runners, names),
    st.builds(lambda r: f"{r} has no valid tactics for this config, skipping", runners),
    st.just("=============== Computing costs for "),
    st.builds(lambda r, i: f">>>>>>>>>>>>>>> Chose Runner Type: {r} Tactic: {i}", runners, ids),
    st.builds(lambda n: f" (foreignNode) {n}", names),
    st.builds(
        lambda n, h, d, s: f"Layer: {n} Host Persistent: {h} Device Persistent: {d}{s}",
        names,
        st.integers(0, 10**9),
        st.integers(0, 10**9),
        st.sampled_from(["", " Scratch Memory: 0", " Scratch Memory: 2048"]),
    ),
    st.builds(
        lambda n, k, i, p: f"{n} Set Tactic Name: {k}{i}{p}",
        names,
        kernels,
        st.sampled_from(["", " Tactic: 0x0ebe499388e08286", " Tactic: 7144526460361122478"]),
        parameters,
    ),
    st.builds(
        lambda n, a, b, r, i, t: f"{n} [{a} -> {b}] got cached result: {r}, tactic {i}, {t} ms",
        names,
        formats,
        formats,
        runners,
        ids,
        numbers,
    ),
    st.builds(
        lambda n, a, b, c, d, tail: (
            f"{n}: {a} available tactics, {b} unparsable, {c} pruned, {d} remaining after "
            f"tactic pruning.{tail}"
        ),
        st.one_of(names, st.sampled_from(["x: 1 available tactics, y", ":", "a: b"])),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        st.sampled_from(["0", "11", "x"]),
        st.integers(0, 10**6),
        st.sampled_from(["", " ", "."]),
    ),
    st.builds(
        lambda node, profile, tail: f"ForeignNode {{ForeignNode[{node}]}}{profile} metadata:{tail}",
        st.one_of(
            names,
            st.sampled_from(["a...b", "x]} metadata: {ForeignNode[y", "x]} [profile 2", ""]),
        ),
        st.sampled_from(["", " [profile 1]", " [profile 12]", " [profile x]", " [profile 1] "]),
        st.sampled_from(
            ["", " ", " [ONNX Layer: a]", " [ONNX Layer: a][ONNX Layer: b c]", "x", "  [ONNX"]
        ),
    ),
    st.builds(
        lambda t, n, a, b: f"Adding reformat layer: {t} ({n}) from {a} to {b}",
        st.one_of(names, st.sampled_from(["Reformatted Input Tensor 0 to x", "a (b) from C to D"])),
        st.one_of(names, st.sampled_from(["x) from Y", "", "max_pool2d"])),
        st.one_of(formats, st.sampled_from(["Half(1) to x", "1", "Float(1) to Half(2)"])),
        st.one_of(formats, st.sampled_from(["Half(784,1:8,56,4)", " ", "x to Y"])),
    ),
    st.builds(
        lambda runs, gpu, host, end, enqueue: (
            f"Average on {runs} runs - GPU latency: {gpu} ms - Host latency: {host} ms ({end}"
            f"enqueue {enqueue} ms)"
        ),
        st.sampled_from(["10", "1", "0", "x", "-1"]),
        numbers,
        numbers,
        st.one_of(st.just(""), numbers.map(lambda value: f"end to end {value} ms, ")),
        numbers,
    ),
    st.builds(
        lambda indent, bar, phase, done, total, tail: (
            f"{indent}[{bar}] {phase} {done}/{total}{tail}"
        ),
        st.sampled_from(["", " ", "  ", "\t"]),
        st.sampled_from(["=====-----", "----------", "=", "", "==x"]),
        st.one_of(names, st.sampled_from(["Building engine", "a 1/2", "Timing 3/4 nodes", ""])),
        st.sampled_from(["0", "3", "12"]),
        st.sampled_from(["6", "229", "1/2"]),
        st.sampled_from(["", " ", "x", " 1/2"]),
    ),
    st.builds(lambda n, s: f"{n} completed in {s} seconds.", names, numbers),
    st.builds(
        lambda n, s, t: f"{n} completed in {s} seconds. {t} completed in {s} seconds.",
        names,
        numbers,
        names,
    ),
    st.builds(
        lambda note, tail: note + tail,
        st.sampled_from(
            [
                "Set number of tactics to 300 at optimization level 5",
                "Setting workspace to 200704enables more tactics for profiling",
                "Enabling FP8 fusions at optimization level 5",
                "Compiler backend is used during engine build.",
                "Some tactics do not have sufficient workspace memory to run.",
                "\t",
            ]
        ),
        st.sampled_from(
            ["", " ", ".", " x", " (CaskConvolution) profiling completed in 1 seconds."]
        ),
    ),
)


@settings(max_examples=examples(3000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ENVELOPES), messages)
# Found by this test: a blank before " Set Tactic Name: " is not a subject.
@example("[07/07/2026-02:11:00][V][TRT]", "  Set Tactic Name: sm90_xmma_fprop_implicit_gemm_f32f32")
# Found by this test: the phase is the shortest text before " completed in ... seconds.".
@example(
    "[07/07/2026-02:11:00] [V] [TRT] ", "a completed in 0.0 seconds. a completed in 0.0 seconds."
)
# Found by this test: a blank message is an empty one, though a note may start with a tab.
@example("[07/07/2026-02:11:00] [V] [TRT] ", "\t ")
def test_generated_lines_parse_the_same_both_ways(envelope: str, message: str) -> None:
    assert_agrees(envelope + message)


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ENVELOPES[:-1]), st.lists(messages, min_size=1, max_size=6))
def test_bare_lines_parse_the_same_both_ways(envelope: str, bare: list[str]) -> None:
    # Lines without an envelope under a record (a progress monitor's bars, another program's
    # output) are parsed on their own: by the core where it claims them.
    text = "\n".join([envelope + "Note: the lines below have no envelope", *bare])
    fast, slow = parse_text(text), parse_text(text, fast=False)
    assert same(fast.events, slow.events), text
    assert fast.counts == slow.counts, text


HOT_LINES = [
    STAMP + "[V] [TRT] Tactic Name: sm90_xmma_fprop Tactic: 0xd705508dd9583354 Time: 0.013",
    STAMP + "[V] [TRT] Tactic: 0x00000000000003e8 Time: 0.00193877",
    "[TensorRT] VERBOSE: Tactic: 1002 time 0.064928",
    STAMP + "[V] [TRT] Fastest Tactic: 0xd15ea5edd15ea5ed Time: inf",
    STAMP + "[V] [TRT] c1 (CaskConvolution[0x80000009]) profiling completed in 0.11 seconds. "
    "Fastest Tactic: 0x5b8bf1b8028629d9 Time: 0.0057",
    STAMP + "[V] [TRT] --------------- Timing Runner: c1 + r1 (CaskConvolution[0x80000009])",
    STAMP + "[V] [TRT] *************** Autotuning format combination: Float(1,1) -> "
    "Half(1,1) ***************",
    STAMP + "[V] [TRT] =============== Computing costs for c1 + r1",
    STAMP + "[V] [TRT] =============== Computing reformatting costs for available formats",
    STAMP + "[V] [TRT] Tactic: 0x0000000000000001 skipped. Scratch requested: 6, available: 0",
    STAMP + "[V] [TRT] Skipping CaskFlattenConvolution: No valid tactics for c1 + r1",
    STAMP + "[V] [TRT] CudaDepthwiseConvolution has no valid tactics for this config, skipping",
    STAMP + "[V] [TRT] >>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 0x63",
    STAMP + "[V] [TRT]  (foreignNode)    0, 0.0188, 1.00000, 0.92564, sm80_xmma_gemm, 0x4841,",
    STAMP + "[V] [TRT] Layer: c1 Host Persistent: 1664 Device Persistent: 8192 Scratch Memory: 0",
    STAMP + "[V] [TRT] c1 Set Tactic Name: maxwell_scudnn_128x32 Tactic: 0x0ebe499388e08286",
    STAMP + "[V] [TRT] c1 [Float(1024,1) -> Half(1024,1)] got cached result: Reformat, "
    "tactic 0x00000000000003e8, 0.0029 ms",
    STAMP + "[V] [TRT] MatMul-9_r0 + ReLU-11_r0: 289 available tactics, 1 unparsable, 144 "
    "pruned, 145 remaining after tactic pruning.",
    STAMP + "[V] [TRT] Adding reformat layer: Reformatted Input Tensor 0 to PWN(a) (x) from "
    "Float(6272,196,14,1) to Half(784,1:8,56,4)",
    STAMP + "[V] [TRT] ForeignNode {ForeignNode[node_linear_r0...node_add]} metadata: "
    "[ONNX Layer: node_linear_r0][ONNX Layer: node_add]",
    # 10.16, the second optimisation profile (graph.toml's case).
    STAMP + "[V] [TRT] ForeignNode {ForeignNode[gemm1.weight...ONNXTRT_castHelper_9]} [profile 1] "
    "metadata: [ONNX Layer: node_view][ONNX Layer: node_linear]",
    STAMP + "[V] [TRT] Set number of tactics to 300 at optimization level 5",
    STAMP + "[V] [TRT] Setting workspace to 200704enables more tactics for profiling",
    STAMP + "[V] [TRT] Subgraph compilation completed in 5.726 seconds.",
    STAMP + "[I] [TRT] Engine generation completed in 12.6 seconds.",
    STAMP + "[I] Average on 10 runs - GPU latency: 0.0433136 ms - Host latency: 0.0513611 ms "
    "(enqueue 0.0253128 ms)",
    STAMP + "[I] Average on 10 runs - GPU latency: 2.1 ms - Host latency: 3.3 ms (end to end "
    "4.2 ms, enqueue 0.9 ms)",
    STAMP + "[I] [TRT]   [=---------] Optimizing graph 4/33",
    # 8.5.3 (sparsedrive corpus log) and 10.x (sample log) profile rows; 7.1 options (Jetson).
    STAMP + "[I]   Reformatting CopyNode for Network Input prev_map_feat        1.50           "
    "0.0127             0.0051      0.1",
    STAMP + "[I]       29.71       0.0030       0.0029       9.6   /conv1/Conv + /relu1/Relu",
    STAMP + "[I] Format: Caffe",
    STAMP + "[I] Output:",
    "[=====-----] Building engine 3/6",
]


@pytest.mark.parametrize("line", HOT_LINES)
def test_the_core_claims_each_frequent_form(line: str) -> None:
    assert assert_agrees(line), f"the core did not claim: {line}"


def test_a_myelin_region_of_a_later_profile_keeps_its_profile() -> None:
    line = next(line for line in HOT_LINES if "[profile 1]" in line)
    (event,) = core_events(line) or []
    assert event.node == "{ForeignNode[gemm1.weight...ONNXTRT_castHelper_9]}"  # type: ignore[attr-defined]
    assert event.profile == 1  # type: ignore[attr-defined]
    assert event.onnx_layers == ("node_view", "node_linear")  # type: ignore[attr-defined]


# A line of each tuning form that comes as a row, with the class it stands for.
TUNING_LINES = [
    (HOT_LINES[3], FastestTactic),
    (HOT_LINES[4], FastestTactic),
    (HOT_LINES[5], TimingRunner),
    (HOT_LINES[6], FormatCombination),
    (
        STAMP + "[V] [TRT] *************** Autotuning Reformat: Float(1,1) -> Half(1,1) "
        "***************",
        FormatCombination,
    ),
]


@pytest.mark.parametrize("line, kind", TUNING_LINES)
def test_tuning_forms_come_as_events_of_their_class(line: str, kind: type) -> None:
    item = claimed_item(line)
    assert type(item) is kind
    (grammar_event,) = grammar_events(line)
    assert type(grammar_event) is kind
    assert same(item, grammar_event)


def test_a_claimed_fastest_tactic_holds_a_tactic_id() -> None:
    event = claimed_item(HOT_LINES[4])
    assert type(event.tactic) is TacticId  # type: ignore[union-attr]
    assert event.tactic == 0x5B8BF1B8028629D9  # type: ignore[union-attr]
    assert str(event.tactic) == "0x5b8bf1b8028629d9"  # type: ignore[union-attr]
