"""The native core's records about layers, the builder's notes and phase durations
(``core/src/layers.rs``) against the grammar: per-layer memory, reformat layers added, a Myelin
region's ONNX layers, the notes and "<phase> completed in X seconds.".

Generated lines, near misses included, must be claimed only as the grammar reads them
(``tests/test_core.py`` does the same for every corpus line); real lines must be claimed, with
the values read off the line.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS_LOGS, examples, needs_corpus
from tests.test_core import _STAMPS, _SUBJECT, _check_claims, _claimed
from trtlog.events.autotuning import ReformatLayerAdded
from trtlog.events.graph import ForeignNodeMetadata
from trtlog.events.memory import LayerMemory
from trtlog.events.notes import BuilderNote
from trtlog.events.phases import PhaseDuration

_STAMP = "[07/07/2026-02:11:15] [V] [TRT] "
_NEXT = "[07/07/2026-02:11:15] [I] next"


def _claimed_events(*bodies: str) -> list[object]:
    """The events the core claims of one line per body, each followed by a record."""
    lines = [_STAMP + body for body in bodies] + [_NEXT]
    events, _ = _claimed(("\n".join(lines) + "\n").encode(), 1 << 20)
    return events


def test_real_lines_are_claimed_with_the_values_they_print() -> None:
    # TensorRT 10.16 trtexec --verbose and 8.4 (hackathon corpus logs).
    memory, memory_8_4, reformat, foreign, note, phase = _claimed_events(
        "Layer: node_conv2d + node_relu Host Persistent: 5664 bytes Device Persistent: 0 bytes "
        "Scratch Memory: 0 bytes",
        "Layer: Conv-1 + ReLU-2 Host Persistent: 1664 Device Persistent: 5120 Scratch Memory: 0",
        "Adding reformat layer: Reformatted Output Tensor 0 to PWN(node_linear_1_5) (y) from "
        "Half(10,1) to Float(10,1)",
        "ForeignNode {ForeignNode[node_linear_r0...node_add]} [profile 1] metadata: "
        "[ONNX Layer: node_linear_r0][ONNX Layer: node_add]",
        "Set number of tactics to 300 at optimization level 5",
        "Subgraph compilation completed in 5.726 seconds.",
    )
    assert isinstance(memory, LayerMemory)
    assert (memory.line, memory.layer, memory.host_persistent) == (
        1,
        "node_conv2d + node_relu",
        5664,
    )
    assert (memory.device_persistent, memory.scratch) == (0, 0)
    assert isinstance(memory_8_4, LayerMemory)
    assert (memory_8_4.layer, memory_8_4.device_persistent) == ("Conv-1 + ReLU-2", 5120)
    assert isinstance(reformat, ReformatLayerAdded)
    assert reformat.tensor == "Reformatted Output Tensor 0 to PWN(node_linear_1_5)"
    assert (reformat.source, reformat.from_format, reformat.to_format) == (
        "y",
        "Half(10,1)",
        "Float(10,1)",
    )
    assert isinstance(foreign, ForeignNodeMetadata)
    assert foreign.node == "{ForeignNode[node_linear_r0...node_add]}"
    assert (foreign.profile, foreign.onnx_layers) == (1, ("node_linear_r0", "node_add"))
    assert isinstance(note, BuilderNote)
    assert note.text == "Set number of tactics to 300 at optimization level 5"
    assert isinstance(phase, PhaseDuration)
    assert (phase.line, phase.phase, phase.seconds) == (6, "Subgraph compilation", 5.726)


def test_near_misses_are_left_to_the_grammar() -> None:
    # The layer ends at the first key and number: what follows must be the rest of the rule.
    # The phase ends at the first phrase and number likewise; a blank message is an empty one.
    assert not _claimed_events(
        "Layer: a Host Persistent: 1x Host Persistent: 1 Device Persistent: 2",
        "a completed in 0.0 seconds. a completed in 0.0 seconds.",
        "ForeignNode {ForeignNode[a]} metadata: ",
        "\t ",
    )


_NUMBER = st.sampled_from(["0", "1664", "٣", "", "1.5", "99999999999999999999999"])
_UNIT = st.sampled_from(["", " bytes", " bytes ", "bytes"])
_LAYER_MEMORY = st.builds(
    lambda layer, key, host, unit, dkey, device, scratch: (
        f"Layer: {layer}{key}{host}{unit}{dkey}{device}{unit}{scratch}"
    ),
    _SUBJECT,
    st.sampled_from([" Host Persistent: ", " HostPersistent: ", " Host  Persistent: "]),
    _NUMBER,
    _UNIT,
    st.sampled_from([" Device Persistent: ", " DevicePersistent: ", " Host Persistent: "]),
    _NUMBER,
    st.one_of(st.just(""), st.builds(" Scratch Memory: {}{}".format, _NUMBER, _UNIT)),
)
_FORMAT = st.sampled_from(["Float(6272,196,14,1)", "Half(784,1:8,56,4)", "1", "", "x to Y", " "])
_REFORMAT = st.builds(
    lambda tensor, source, first, second: (
        f"Adding reformat layer: {tensor} ({source}) from {first} to {second}"
    ),
    st.one_of(_SUBJECT, st.sampled_from(["a (b) from C to D", "Reformatted Input Tensor 0"])),
    st.one_of(_SUBJECT, st.sampled_from(["x) from Y", "max_pool2d"])),
    _FORMAT,
    _FORMAT,
)
_FOREIGN_NODE = st.builds(
    lambda node, profile, tail: f"ForeignNode {{ForeignNode[{node}]}}{profile} metadata:{tail}",
    st.one_of(
        _SUBJECT, st.sampled_from(["a...b", "x]} metadata: {ForeignNode[y", "x]} [profile 2"])
    ),
    st.sampled_from(["", " [profile 1]", " [profile 12]", " [profile x]", " [profile ٣]", " "]),
    st.sampled_from(["", " ", " [ONNX Layer: a]", " [ONNX Layer: a][ONNX Layer: b c]", "x", "  ["]),
)
_PHASE = st.builds(
    lambda phase, seconds, tail: f"{phase} completed in {seconds} seconds.{tail}",
    st.one_of(_SUBJECT, st.sampled_from(["Graph construction", "a completed in 1 seconds."])),
    st.sampled_from(["0.037093", "inf", "nan", "1e", "1e5", "+1.0E3", ".5", "٣", "-1", ""]),
    st.sampled_from(["", " ", ".", " a completed in 1 seconds."]),
)
_NOTE = st.builds(
    lambda note, tail: note + tail,
    st.sampled_from(
        [
            "Set number of tactics to 300 at optimization level 5",
            "Setting workspace to 200704enables more tactics for profiling",
            "Enabling FP8 fusions at optimization level 5",
            "Enabling FPé fusions at optimization level 5",
            "Compiler backend is used during engine build.",
            "[MS] Number of streams used is 3",
            "Loading standard plugins",
            "\t",
            " ",
            "Original",
        ]
    ),
    st.sampled_from(["", " ", ".", " x", "\t", " completed in 1 seconds.", ": 1 layers"]),
)
_LINE = st.one_of(
    st.builds(
        lambda stamp, body: stamp + body,
        st.sampled_from(_STAMPS),
        st.one_of(_LAYER_MEMORY, _REFORMAT, _FOREIGN_NODE, _PHASE, _NOTE),
    ),
    st.sampled_from(["  bare continuation", "[07/07/2026-02:11:09] [I] next", ""]),
)


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, min_size=1, max_size=12), st.integers(1, 64))
@example([_STAMP + "Layer: a Host Persistent: 1 bytes Device Persistent: 2 bytes", _NEXT], 64)
def test_generated_lines_are_claimed_only_as_the_grammar_reads_them(
    lines: list[str], chunk: int
) -> None:
    _check_claims(("\n".join(lines) + "\n").encode(), chunk)


@needs_corpus
def test_the_core_claims_the_layer_lines_of_a_10_16_build() -> None:
    # TensorRT 10.16 trtexec build: per-layer memory, reformat layers, Myelin regions' metadata,
    # notes and phase durations, each a one-line record.
    path = next(p for p in CORPUS_LOGS if p.name.startswith("hackathon_trt10.16.1_trtexec"))
    data = path.read_bytes()
    events, _ = _claimed(data, 1 << 20)
    kinds = {type(event) for event in events}
    assert {
        LayerMemory,
        ReformatLayerAdded,
        ForeignNodeMetadata,
        BuilderNote,
        PhaseDuration,
    } <= kinds
    memory_lines = data.count(b"[V] [TRT] Layer: ")
    assert memory_lines > 10
    assert sum(isinstance(event, LayerMemory) for event in events) == memory_lines
