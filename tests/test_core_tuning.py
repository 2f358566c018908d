"""The native core's rarer tuning records (``core/src/tuning.rs``) against the grammar:
skipped tactics, tactic-pruning counts, kernel names and timing-cache hits.

Every claimed line, of generated logs here and of every corpus log in ``tests/test_core.py``,
must be what the grammar makes of it, line number and all.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, examples, needs_corpus
from tests.test_claims import same
from tests.test_core import (
    _AWKWARD,
    _FORMATS,
    _ID,
    _PARAMETERS,
    _RUNNER,
    _STAMPS,
    _SUBJECT,
    _TIME,
    _WORD,
    _check_claims,
    _scanner,
)
from trtlog.events.autotuning import SetTacticName, TacticPruning, TacticSkipped, TimingCacheHit
from trtlog.parse.assembly import Record
from trtlog.parse.envelope_grammar import split_envelope
from trtlog.parse.records import RecordParser
from trtlog.parse.scanner import ClaimedRecords, byte_chunks

_KINDS = (SetTacticName, TacticPruning, TacticSkipped, TimingCacheHit)
_COUNT = st.sampled_from(["0", "672", "99999999999999999999", "\u0663", "-1", "", "1 2"])
_TAIL = st.sampled_from(["", " ", ".", "x"])
_PHRASE_PIECES = st.sampled_from(
    [" Set Tactic Name: k", ": 1 available tactics, ", " [A -> B] got cached result: R", " ["]
)
_TRICKY_SUBJECT = st.lists(st.one_of(_SUBJECT, _PHRASE_PIECES), max_size=3).map("".join)
_SKIPPED = st.one_of(
    st.builds(
        lambda sep, tactic, keyword, requested, available, tail: (
            f"Tactic{sep} {tactic}{keyword}{requested}, available: {available}{tail}"
        ),
        st.sampled_from([":", ""]),
        _ID,
        st.sampled_from(
            [" skipped. Scratch requested: ", " scratch requested: ", " Scratch requested: "]
        ),
        _COUNT,
        _COUNT,
        _TAIL,
    ),
    st.builds(
        lambda sep, tactic, tail: f"Tactic{sep} {tactic} is the only option, timing skipped{tail}",
        st.sampled_from([":", ""]),
        _ID,
        _TAIL,
    ),
)
_PRUNING = st.builds(
    lambda layer, a, b, c, d, tail: (
        f"{layer}: {a} available tactics, {b} unparsable, {c} pruned, {d} remaining after tactic"
        f" pruning.{tail}"
    ),
    _TRICKY_SUBJECT,
    _COUNT,
    _COUNT,
    _COUNT,
    _COUNT,
    _TAIL,
)
_KERNEL_NAME = st.builds(
    lambda subject, gap, kernel, odd, tactic, parameters: (
        f"{subject}{gap}Set Tactic Name: {kernel}{odd}{tactic}{parameters}"
    ),
    _TRICKY_SUBJECT,
    st.sampled_from(["", " ", "  "]),
    _WORD,
    st.one_of(st.just(""), _AWKWARD),
    st.one_of(st.just(""), _ID.map(" Tactic: {}".format)),
    _PARAMETERS,
)
_CACHE_HIT = st.builds(
    lambda subject, inputs, outputs, runner, tactic, time, tail: (
        f"{subject} [{inputs} -> {outputs}] got cached result: {runner}, tactic {tactic},"
        f" {time} ms{tail}"
    ),
    _TRICKY_SUBJECT,
    _FORMATS,
    _FORMATS,
    _RUNNER,
    _ID,
    _TIME,
    _TAIL,
)
_LINE = st.one_of(
    st.builds(
        lambda stamp, body: stamp + body,
        st.sampled_from(_STAMPS),
        st.one_of(_SKIPPED, _PRUNING, _KERNEL_NAME, _CACHE_HIT),
    ),
    st.sampled_from(["  bare continuation", "[07/07/2026-02:11:09] [I] next", ""]),
)


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, min_size=1, max_size=12), st.integers(1, 64))
@example(
    [
        "[07/07/2026-02:11:09] [V] [TRT]  Set Tactic Name: k Tactic: 0x1",
        "[07/07/2026-02:11:09] [V] [TRT]   Set Tactic Name: k",
        "[07/07/2026-02:11:09] [V] [TRT] a (CUDNN) Set Tactic Name: k",
        "[07/07/2026-02:11:09] [V] [TRT] a: x: 1 available tactics, 0 unparsable, 0 pruned, 1 "
        "remaining after tactic pruning.",
        "[07/07/2026-02:11:09] [V] [TRT]  [x [ -> ] got cached result: R, tactic 0x1, nan ms",
        "[07/07/2026-02:11:09] [I] next",
    ],
    64,
)
def test_generated_tuning_records_are_claimed_only_as_the_grammar_reads_them(
    lines: list[str], chunk: int
) -> None:
    _check_claims(("\n".join(lines) + "\n").encode(), chunk)


def _claimed_lines(data: bytes) -> dict[int, object]:
    """The items of these kinds the core claims, by line number."""
    scanner = _scanner()
    claimed: dict[int, object] = {}
    for piece in scanner.scan([data]):
        if isinstance(piece, ClaimedRecords):
            for line, item in enumerate(piece.items, start=piece.first_line):
                kind = item[0] if type(item) is tuple else type(item)
                if kind in _KINDS:
                    claimed[line] = item
    return claimed


def _grammar_event(line: str, number: int) -> object:
    envelope, body = split_envelope(line)
    (event,) = RecordParser(fast=False).parse(Record(number, line, envelope, body))
    return event


def test_each_form_is_claimed_as_the_grammar_reads_it() -> None:
    stamp = "[07/07/2026-02:11:09] [V] [TRT] "
    bodies = [
        # TensorRT 8.0.3 trtexec (hackathon corpus log).
        "Tactic: 0x0000000000000001 skipped. Scratch requested: 200704, available: 1024",
        "Tactic: 0 is the only option, timing skipped",
        # TensorRT 8.6.0 trtexec.
        "MatMul-12: 187 available tactics, 1 unparsable, 93 pruned, 94 remaining after tactic "
        "pruning.",
        # TensorRT 8.0.3 trtexec (a decimal id); 8.5.10 without a subject; 7.x's cuDNN variant.
        "Conv__25 + Relu Set Tactic Name: maxwell_scudnn_128x32_relu_medium_nn_v1 Tactic: "
        "1062367460111450758",
        "Set Tactic Name: ampere_sgemm_32x32_sliced1x4_relu_tn_v1 Tactic: 0x0000000000020457 "
        "numSplitK: 1 numBuffers: 0 numKernels: 1",
        "vgg0_conv4_fwd + vgg0_relu4_fwd (scudnn) Set Tactic Name: "
        "volta_scudnn_128x128_relu_medium_nn_v1",
        # TensorRT 10.16 trtexec.
        "node_max_pool2d [Float(25088,784,28,1) -> Float(6272,196,14,1)] got cached result: "
        "CaskPooling, tactic 0xdd39499496c9cc38, 0.00294885 ms",
    ]
    lines = [stamp + body for body in bodies] + ["[07/07/2026-02:11:09] [I] end"]
    claimed = _claimed_lines(("\n".join(lines) + "\n").encode())
    assert sorted(claimed) == list(range(1, len(bodies) + 1))
    for number, line in enumerate(lines[:-1], start=1):
        assert same(claimed[number], _grammar_event(line, number)), line
    # Read off the lines by hand.
    events = list(claimed.values())
    skipped, only, pruning, named, unnamed, variant, hit = events
    assert isinstance(skipped, TacticSkipped) and isinstance(only, TacticSkipped)
    assert (skipped.tactic, skipped.scratch_requested, skipped.scratch_available) == (
        1,
        200704,
        1024,
    )
    assert (only.tactic, only.reason) == (0, "only option")
    assert isinstance(pruning, TacticPruning)
    assert (pruning.layer, pruning.available, pruning.remaining) == ("MatMul-12", 187, 94)
    assert isinstance(named, SetTacticName) and isinstance(unnamed, SetTacticName)
    assert (named.subject, named.tactic) == ("Conv__25 + Relu", 1062367460111450758)
    assert named.kernel == "maxwell_scudnn_128x32_relu_medium_nn_v1"
    assert (unnamed.subject, unnamed.tactic) == (None, 0x20457)
    assert unnamed.kernel_parameters == "numSplitK: 1 numBuffers: 0 numKernels: 1"
    assert isinstance(variant, SetTacticName)
    assert (variant.subject, variant.variant) == ("vgg0_conv4_fwd + vgg0_relu4_fwd", "scudnn")
    assert isinstance(hit, TimingCacheHit)
    assert (hit.subject, hit.formats) == (
        "node_max_pool2d",
        "Float(25088,784,28,1) -> Float(6272,196,14,1)",
    )
    assert (hit.cached_runner, hit.tactic, hit.time_ms) == (
        "CaskPooling",
        0xDD39499496C9CC38,
        0.00294885,
    )


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize(
    "name",
    [
        "lix_trt8.5.10_trtexec_orin_mnist_best_dumpProfile.log",
        "hackathon_trt8.6.0_trtexec_build_rtx3090.log",
        "hackathon_trt10.16.1_trtexec_build_h100.log",
    ],
)
def test_the_core_claims_every_such_line_of_a_build_as_the_grammar_reads_it(name: str) -> None:
    path = next(p for p in CORPUS_LOGS if p.name == name)
    with path.open("rb") as stream:
        data = b"".join(byte_chunks(stream))
    claimed = _claimed_lines(data)
    phrases = ("Set Tactic Name: ", "got cached result: ", "available tactics, ", "cratch req",
               "only option")  # fmt: skip
    wanted = 0
    for number, line in enumerate(data.decode().split("\n"), start=1):
        if not any(phrase in line for phrase in phrases):
            continue
        wanted += 1
        assert number in claimed, line
        assert same(claimed[number], _grammar_event(line, number)), line
    # The 8.5 build's kernel names, the 8.6 build's pruning counts, the 10.16 build's cache hits
    # and skipped tactics: every one of them.
    assert wanted == len(claimed) > 0
