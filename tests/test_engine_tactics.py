"""The engine's own tactic: which timed tactic each engine layer runs (``in_engine`` in
``tactics`` and ``choices``, ``tactic_ms`` and ``gap_percent`` in ``layers``).

Expectations were read off the logs by hand (line numbers in the comments)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.test_builds import THREE_BUILDS, corpus_build_log
from trtlog.analysis.buildlog import parse_build_log
from trtlog.analysis.engine_tactics import in_engine
from trtlog.cli.app import app


def test_each_build_marks_the_tactic_its_engine_layer_runs() -> None:
    log = parse_build_log(THREE_BUILDS)
    tactics = log.tactics
    marked = tactics[tactics["in_engine"]]
    # Engine Layer Information, lines 37, 77, 117: "Layer(CaskConvolution): /conv1/Conv +
    # /relu1/Relu, Tactic: 0x61f0c2d99a3b7e08 / 0x5c0e9a17d3b2f481 / 0x2a7c91f3b0e4d561"; the
    # timings of those tactics are lines 28, 68 and 108.
    assert list(zip(marked["build"], marked["tactic"], marked["line"], strict=True)) == [
        (0, "0x61f0c2d99a3b7e08", 28),
        (1, "0x5c0e9a17d3b2f481", 68),
        (2, "0x2a7c91f3b0e4d561", 108),
    ]
    # Build 2's engine runs the tactic build 0 timed but did not choose.
    assert not tactics[(tactics["build"] == 0) & (tactics["line"] == 29)]["in_engine"].any()
    assert log.choices["in_engine"].tolist() == [True, True, True]
    conv = log.layers[log.layers["name"] == "/conv1/Conv + /relu1/Relu"]
    last = conv[conv["build"] == 2].iloc[0]
    # Line 108: "...tilesize64x32x8 Tactic: 0x2a7c91f3b0e4d561 Time: 0.0146"; the runner-up,
    # line 109, 0.0150.
    assert last["kernel"] == "sm80_xmma_fprop_implicit_gemm_tilesize64x32x8"
    assert last["tactic_ms"] == pytest.approx(0.0146)
    assert last["gap_percent"] == pytest.approx((0.0150 - 0.0146) / 0.0146 * 100)
    # The pooling layer was not tuned: nothing measured its tactic.
    pool = log.layers[log.layers["name"] == "/pool/MaxPool"]
    assert pool["tactic_ms"].isna().all()


def test_the_format_combination_with_the_engine_layers_formats_is_marked() -> None:
    log = corpus_build_log("hackathon_trt8.6.0_trtexec_build_rtx3090.log")
    choices = log.choices
    conv = choices[choices["layer"] == "Conv-1 + ReLU-2"]
    # Line 3417: "Layer(CaskConvolution): Conv-1 + ReLU-2, Tactic: 0x98e92db98836b738, ...
    # (Half[-1,1:2,28,28]) -> tensor-2 (Half[-1,32:2,28,28])"; line 492 tunes "Half(784,1:2,28,1)
    # -> Half(12544,1:2,448,16)".
    (used,) = conv[conv["in_engine"]].itertuples()
    assert (used.tactic, used.formats) == (
        "0x98e92db98836b738",
        "Half(784,1:2,28,1) -> Half(12544,1:2,448,16)",
    )


def test_the_channel_last_combination_is_not_the_engines() -> None:
    log = corpus_build_log("hackathon_trt8.0.3_trtexec_build_fp16_gtx1070.log")
    choices = log.choices
    shuffle = choices[
        choices["layer"] == "MaxPool2d_1__22 + Reshape + (Unnamed Layer* 14) [Shuffle]"
    ]
    # Lines 647 and 652 both choose tactic 0, for "Float(3136,49,7,1) -> Float(3136,1,1,1)" and
    # the channel-last "Float(3136,1,448,64) -> Float(3136,1,3136,3136)"; line 1015's engine
    # layer reads "MaxPool2d_1:0[Float(-2,64,7,7)] -> ...[Float(-2,3136,1,1)]": plain NCHW.
    assert shuffle[shuffle["in_engine"]]["line"].tolist() == [647]


def test_a_10_x_engine_layer_tuned_only_by_an_earlier_strategy() -> None:
    log = corpus_build_log("hackathon_trt10.16.1_trtexec_build_h100.log")
    choices = log.choices
    marked = choices[choices["in_engine"]]
    # The kept strategy 3 tuned the foreign nodes; its engine's node_max_pool2d (Tactic:
    # 0xdd39499496c9cc38) is strategy 4's choice, reused.
    pool = marked[marked["layer"] == "node_max_pool2d"].iloc[0]
    assert (pool["strategy"], pool["tactic"]) == (4, "0xdd39499496c9cc38")
    assert len(marked) == 5 and marked["layer"].is_unique


def test_tactics_of_a_layer_mark_the_engines_tactic() -> None:
    result = CliRunner().invoke(
        app, ["tactics", "--log", str(THREE_BUILDS), "--layer", "/conv1/Conv", "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    views = json.loads(result.stdout)
    used = [
        (row["build"], row["tactic"], row["line"]) for row in views["tactics"] if row["in_engine"]
    ]
    assert used == [(0, "0x61f0c2d99a3b7e08", 28), (1, "0x5c0e9a17d3b2f481", 68),
                    (2, "0x2a7c91f3b0e4d561", 108)]  # fmt: skip
    assert [row["in_engine"] for row in views["layer_choices"]] == [True, True, True]


def test_rows_of_another_build_or_tactic_are_not_the_engines() -> None:
    import pandas as pd

    rows = pd.DataFrame(
        {
            "build": pd.array([0, 1, 1], dtype="Int64"),
            "strategy": pd.array([None, None, None], dtype="Int64"),
            "layer": ["conv", "conv", "conv"],
            "formats": ["Float(1,1,1,1) -> Float(1,1,1,1)"] * 3,
            "tactic": ["0x0000000000000001", "0x0000000000000001", "0x0000000000000002"],
        }
    )
    engine = {(1, None, "conv"): (2, (("Float", "linear", 0), ("Float", "linear", 0)))}
    assert in_engine(rows, engine).tolist() == [False, False, True]
