"""The fold: what each event learns from the events before it."""

from __future__ import annotations

from trtlog.events import (
    ChoseRunner,
    FastestTactic,
    FormatCombination,
    LayerCount,
    LegacyPerfStatistic,
    OptionLine,
    RunnerSkipped,
    SetTacticName,
    TacticSkipped,
    TacticTiming,
)
from trtlog.events.base import TacticId
from trtlog.parse import parse_text


def lines(*messages: str, prefix: str = "[03/19/2022-12:29:30] [V] [TRT] ") -> str:
    return "".join(f"{prefix}{message}\n" for message in messages)


def test_8x_tactics_take_layer_from_runner_and_kernel_from_set_tactic_name() -> None:
    log = parse_text(lines(
        "=============== Computing costs for ",
        "*************** Autotuning format combination: Float(784,784,28,1) -> Float(25088,784,28,1) ***************",
        "--------------- Timing Runner: Conv__25 + Relu (CudaDepthwiseConvolution)",
        "CudaDepthwiseConvolution has no valid tactics for this config, skipping",
        "--------------- Timing Runner: Conv__25 + Relu (CaskConvolution)",
        "Conv__25 + Relu Set Tactic Name: maxwell_scudnn_128x32_relu_medium_nn_v1 Tactic: 1062367460111450758",
        "Tactic: 1062367460111450758 Time: 0.014168",
        "Conv__25 + Relu Set Tactic Name: maxwell_scudnn_128x32_relu_large_nn_v0 Tactic: 1754984623894446479",
        "Tactic: 1754984623894446479 Time: 0.011236",
        "Fastest Tactic: 1754984623894446479 Time: 0.011236",
        ">>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 1754984623894446479",
    ))  # fmt: skip
    formats = "Float(784,784,28,1) -> Float(25088,784,28,1)"
    timings = log.of(TacticTiming)
    assert [(t.layer, t.formats, t.runner, t.kernel) for t in timings] == [
        ("Conv__25 + Relu", formats, "CaskConvolution", "maxwell_scudnn_128x32_relu_medium_nn_v1"),
        ("Conv__25 + Relu", formats, "CaskConvolution", "maxwell_scudnn_128x32_relu_large_nn_v0"),
    ]
    (skipped,) = log.of(RunnerSkipped)
    assert (skipped.layer, skipped.runner) == ("Conv__25 + Relu", "CudaDepthwiseConvolution")
    (fastest,) = log.of(FastestTactic)
    assert (fastest.layer, fastest.runner, fastest.tactic) == (
        "Conv__25 + Relu",
        "CaskConvolution",
        TacticId(1754984623894446479),
    )
    (chosen,) = log.of(ChoseRunner)
    assert (chosen.layer, chosen.formats, chosen.runner) == (
        "Conv__25 + Relu",
        formats,
        "CaskConvolution",
    )
    assert (
        log.of(FormatCombination)[0].layer is None
    )  # 8.0-8.5 name no layer on "Computing costs for"


def test_7x_unnumbered_kernel_names_go_to_the_next_timing() -> None:
    log = parse_text(lines(
        "--------------- Timing Runner: (Unnamed Layer* 6) [Fully Connected] + (Unnamed Layer* 7) [Activation] (CaskFullyConnected)",
        "(Unnamed Layer* 6) [Fully Connected] + (Unnamed Layer* 7) [Activation] (caskFullyConnectedFP32) Set Tactic Name: volta_sgemm_128x32_relu_nn_v1",
        "Tactic: 8190451076631534509 time 0.028288",
        "(Unnamed Layer* 6) [Fully Connected] + (Unnamed Layer* 7) [Activation] (caskFullyConnectedFP32) Set Tactic Name: volta_sgemm_32x128_relu_nn_v1",
        "Tactic: 5918215112415401770 time 0.028576",
        "Tactic: 0 skipped. Scratch requested: 672, available: 0",
        prefix="[TensorRT] VERBOSE: ",
    ))  # fmt: skip
    assert [t.kernel for t in log.of(TacticTiming)] == [
        "volta_sgemm_128x32_relu_nn_v1",
        "volta_sgemm_32x128_relu_nn_v1",
    ]
    assert log.of(SetTacticName)[0].variant == "caskFullyConnectedFP32"
    (skipped,) = log.of(TacticSkipped)
    assert skipped.layer == "(Unnamed Layer* 6) [Fully Connected] + (Unnamed Layer* 7) [Activation]"


def test_10x_chosen_runner_gets_its_runner_id() -> None:
    log = parse_text(lines(
        "=============== Computing costs for node_conv2d + node_relu",
        "*************** Autotuning format combination: Float(784,784,28,1) -> Float(25088,784,28,1) ***************",
        "--------------- Timing Runner: node_conv2d + node_relu (CaskConvolution[0x80000009])",
        "Tactic Name: sm80_xmma_fprop_implicit_gemm Tactic: 0x5b8bf1b8028629d9 Time: 0.00569811",
        "node_conv2d + node_relu (CaskConvolution[0x80000009]) profiling completed in 0.112085 seconds. Fastest Tactic: 0x5b8bf1b8028629d9 Time: 0.00569811",
        "--------------- Timing Runner: node_conv2d + node_relu (CaskFlattenConvolution[0x80000036])",
        "Skipping CaskFlattenConvolution: No valid tactics for node_conv2d + node_relu",
        ">>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 0x5b8bf1b8028629d9",
    ))  # fmt: skip
    (chosen,) = log.of(ChoseRunner)
    assert (chosen.layer, chosen.runner, chosen.runner_id) == (
        "node_conv2d + node_relu",
        "CaskConvolution",
        0x80000009,
    )
    (fastest,) = log.of(FastestTactic)
    assert fastest.formats == "Float(784,784,28,1) -> Float(25088,784,28,1)"


def test_each_original_opens_a_build() -> None:
    log = parse_text(lines(
        "Original: 10 layers", "After vertical fusions: 6 layers",
        "Tactic: 0 Time: 0.1",
        "Original: 10 layers", "After vertical fusions: 5 layers",
        "Tactic: 0 Time: 0.2",
    ))  # fmt: skip
    assert [(c.build, c.stage, c.count) for c in log.of(LayerCount)] == [
        (0, "Original", 10), (0, "vertical fusions", 6), (1, "Original", 10), (1, "vertical fusions", 5),
    ]  # fmt: skip
    assert [t.build for t in log.of(TacticTiming)] == [0, 1]


def test_options_learn_their_section() -> None:
    log = parse_text(
        "[03/19/2022-12:29:28] [I] === Build Options ===\n"
        "[03/19/2022-12:29:28] [I] Precision: FP32+FP16\n"
        "[03/19/2022-12:29:28] [I] \n"
        "[03/19/2022-12:29:28] [I] === Device Information ===\n"
        "[03/19/2022-12:29:28] [I] Selected Device: NVIDIA GeForce GTX 1070\n"
        "[03/19/2022-12:29:28] [I] TensorRT version: 8.2.3\n"
        "[03/19/2022-12:29:29] [I] Loaded static plugins:\n"
    )
    options = log.of(OptionLine)
    assert [(o.key, o.section) for o in options] == [("Precision", "Build Options")]


def test_legacy_statistics_learn_their_metric() -> None:
    log = parse_text(
        "[02/21/2021-22:49:52] [I] Enqueue Time\n"
        "[02/21/2021-22:49:52] [I] min: 1.9458 ms\n"
        "[02/21/2021-22:49:52] [I] GPU Compute\n"
        "[02/21/2021-22:49:52] [I] min: 1.9292 ms\n"
    )
    assert [(s.metric, s.value) for s in log.of(LegacyPerfStatistic)] == [
        ("Enqueue Time", 1.9458),
        ("GPU Compute", 1.9292),
    ]
