"""What fused, in logs that list no engine layers (5.x-7.x, excerpts): the layers tuned under
their fused names and the fusion passes' results; and that a log listing its engine layers
shows those alone."""

from __future__ import annotations

from tests.conftest import corpus_log, needs_corpus
from trtlog.analysis import BuildLog
from trtlog.analysis.queries import fusions_view
from trtlog.parse import parse_text

# TensorRT 7's Python API on a V100, VERBOSE (lines of TensorRT issue 1090): fusion passes, then
# one fused layer tuned; no engine layer is listed.
TRT7_FUSED_AND_TUNED = """\
[TensorRT] VERBOSE: BinaryFusion: Fusing vgg0_conv10_fwd with vgg0_relu10_fwd
[TensorRT] VERBOSE: BinaryFusion: Fusing vgg0_dense0_fwd with vgg0_dense0_relu_fwd
[TensorRT] VERBOSE: After vertical fusions: 29 layers
[TensorRT] VERBOSE: --------------- Timing Runner: <reformat> (Reformat)
[TensorRT] VERBOSE: Tactic: 1002 time 0.059008
[TensorRT] VERBOSE: Fastest Tactic: 1002 Time: 0.059008
[TensorRT] VERBOSE: --------------- Timing Runner: vgg0_conv7_fwd + vgg0_relu7_fwd (CaskConvolution)
[TensorRT] VERBOSE: Tactic: 861694390046228376 time 0.537152
[TensorRT] VERBOSE: Fastest Tactic: 861694390046228376 Time: 0.537152
"""


def test_a_log_without_engine_layers_shows_the_layers_tuned_and_fused() -> None:
    view = fusions_view(BuildLog.from_parsed(parse_text(TRT7_FUSED_AND_TUNED)))
    # A tuned layer's line is that of its first tactic timed; the reformat is no layer.
    assert view[["engine_layer", "original_layers", "via", "line"]].values.tolist() == [
        ["vgg0_conv7_fwd + vgg0_relu7_fwd", "vgg0_conv7_fwd, vgg0_relu7_fwd", "tuning", 8],
        ["vgg0_conv10_fwd + vgg0_relu10_fwd", "vgg0_conv10_fwd, vgg0_relu10_fwd", "fusion pass", 1],
        [
            "vgg0_dense0_fwd + vgg0_dense0_relu_fwd",
            "vgg0_dense0_fwd, vgg0_dense0_relu_fwd",
            "fusion pass",
            2,
        ],
    ]
    # One layer asked for: the fused layer that holds it.
    held = fusions_view(BuildLog.from_parsed(parse_text(TRT7_FUSED_AND_TUNED)), "dense0_relu")
    assert held["engine_layer"].tolist() == ["vgg0_dense0_fwd + vgg0_dense0_relu_fwd"]


def test_a_chain_of_fusions_shows_its_last_result() -> None:
    # TensorRT 6 (lines of TensorRT issue 252): two scales fused, then the result with a third.
    text = (
        "[TensorRT] VERBOSE: Fusing (Unnamed Layer* 0) [Scale] with (Unnamed Layer* 1) [Scale]\n"
        "[TensorRT] VERBOSE: Fusing (Unnamed Layer* 0) [Scale] + (Unnamed Layer* 1) [Scale]"
        " with (Unnamed Layer* 2) [Scale]\n"
    )
    view = fusions_view(BuildLog.from_parsed(parse_text(text)))
    assert view["engine_layer"].tolist() == [
        "(Unnamed Layer* 0) [Scale] + (Unnamed Layer* 1) [Scale] + (Unnamed Layer* 2) [Scale]"
    ]
    assert view["count"].tolist() == [3]
    # Whole numbers, as in every other view (JSON and CSV print no "2.0").
    assert str(view["line"].dtype) == "Int64" and view["line"].tolist() == [2]


@needs_corpus
def test_a_log_listing_its_engine_layers_shows_those_alone() -> None:
    # 8.6's passes fuse constants with shuffles that are folded away later: no engine layer.
    log = BuildLog.from_parsed(corpus_log("hackathon_trt8.6.0_trtexec_build_rtx3090.log"))
    assert (log.fusions["first"] == "constant1024").any()
    view = fusions_view(log)
    assert set(view["via"]) <= {"name", "inserted"}
    assert "constant1024 + (Unnamed Layer* 11) [Shuffle]" not in set(view["engine_layer"])
