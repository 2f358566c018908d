"""The analysis tables over real corpus logs. Every expected value was read off the log by hand
(line numbers are the log's own, 1-based) and is not copied from trtlog's output."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import CORPUS_LOGS, corpus_dir, corpus_log, needs_corpus
from trtlog.analysis import TABLES, BuildLog
from trtlog.parse import parse_text

pytestmark = needs_corpus

_logs: dict[str, BuildLog] = {}


def build_log(name: str) -> BuildLog:
    if name not in _logs:
        _logs[name] = BuildLog.from_parsed(corpus_log(name))
    return _logs[name]


def stage_story(log: BuildLog, build: int = 0) -> list[tuple[str, int]]:
    stages = log.stages[log.stages["build"] == build]
    return list(zip(stages["stage"], stages["layers"], strict=True))


def strategy_story(log: BuildLog, strategy: int) -> list[tuple[str, int]]:
    stages = log.stages[log.stages["strategy"] == strategy]
    return list(zip(stages["stage"], stages["layers"], strict=True))


# --- stages -------------------------------------------------------------------------------

TRT8_0_STAGES = [
    ("Original", 26),
    ("dead-layer removal", 26),
    ("Myelin optimization", 20),
    ("scale fusion", 20),
    ("vertical fusions", 10),
    ("dupe layer removal", 10),
    ("final dead-layer removal", 10),
    ("tensor merging", 10),
    ("concat removal", 10),
    ("reformat layers", 12),
]


def test_stages_8_0_3() -> None:
    log = build_log("hackathon_trt8.0.3_trtexec_build_fp16_gtx1070.log")
    assert stage_story(log) == TRT8_0_STAGES
    assert list(log.stages["line"][[0, 9]]) == [264, 976]
    assert list(log.stages["change"]) == [0, 0, -6, 0, -10, 0, 0, 0, 0, 2]
    assert log.stages["strategy"].isna().all()


def test_stages_8_2_3() -> None:
    # Lines 288-347 and 819: the same story as the 8.0.3 build of the same model.
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    assert stage_story(log) == TRT8_0_STAGES
    assert list(log.stages["line"]) == [288, 289, 302, 312, 343, 344, 345, 346, 347, 819]


@pytest.mark.slow
def test_stages_8_5_10() -> None:
    log = build_log("lix_trt8.5.10_trtexec_orin_mnist_best_dumpProfile.log")
    assert [count for _, count in stage_story(log)] == [18, 18, 15, 9] + [7] * 10
    assert stage_story(log)[3] == ("scale fusion", 9)
    assert stage_story(log)[-1] == ("reformat layers", 7)
    assert log.stages["line"].iloc[-1] == 9089


def test_stages_8_6_0_names_the_backend_strategy() -> None:
    # "Building graph using backend strategy 2" (line 378) follows the generic optimisations.
    log = build_log("hackathon_trt8.6.0_trtexec_build_rtx3090.log")
    counts = [count for _, count in stage_story(log)]
    assert counts == [24, 24, 19, 16] + [10] * 9 + [15]
    assert set(log.stages["strategy"]) == {2}


def test_stages_10_16_keep_each_backend_strategy_apart() -> None:
    # 10.x builds the graph once per backend strategy: 4 (line 517), 3 (3036), 2 (4460), all
    # in one build, and keeps strategy 3 (line 4459: "Chose this engine with backend strategy
    # 3"; line 4686 skips 2).
    log = build_log("hackathon_trt10.16.1_trtexec_build_h100.log")
    assert set(log.stages["build"]) == {0}
    assert list(log.stages["strategy"].unique()) == [4, 3, 2]
    kept = log.stages.groupby("strategy")["kept"].first().to_dict()
    assert kept == {4: False, 3: True, 2: False}
    assert strategy_story(log, 4)[:4] == [
        ("Original", 24),
        ("dead-layer removal", 24),
        ("adding DebugOutput nodes", 24),
        ("Myelin optimization", 17),
    ]
    assert strategy_story(log, 4)[-1] == ("reformat layers", 15)
    story_3 = strategy_story(log, 3)
    assert story_3[0] == ("adding DebugOutput nodes", 24)
    assert story_3[1] == ("Myelin optimization", 5)
    assert story_3[-1] == ("reformat layers", 6)
    second_of_strategy_3 = log.stages[log.stages["strategy"] == 3].iloc[1]
    assert (second_of_strategy_3["change"], second_of_strategy_3["line"]) == (-19, 3048)
    assert strategy_story(log, 2)[1] == ("Myelin optimization", 7)


# --- choices and tactics ------------------------------------------------------------------


def choice(log: BuildLog, layer: str, formats: str) -> pd.Series:
    rows = log.choices[(log.choices["layer"] == layer) & (log.choices["formats"] == formats)]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def test_choice_8_2_3_conv_with_separate_tactic_name_lines() -> None:
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    row = choice(log, "Conv__25 + Relu", "Float(784,784,28,1) -> Float(25088,784,28,1)")
    # Line 528: Chose Runner Type: CaskConvolution Tactic: 7144526460361122478 (0x632674f65e3422ae)
    assert row["runner"] == "CaskConvolution"
    assert row["tactic"] == "0x632674f65e3422ae"
    # Line 508: "Conv__25 + Relu Set Tactic Name: maxwell_scudnn_128x32_relu_small_nn_v0 ..."
    assert row["kernel"] == "maxwell_scudnn_128x32_relu_small_nn_v0"
    assert row["best_ms"] == pytest.approx(0.010752)
    # The runner-up is CaskConvolution tactic -4787320710726427159 at 0.0111.
    assert row["runner_up_ms"] == pytest.approx(0.0111)
    assert row["runner_up_tactic"] == "0xbd90052d8b47dde9"
    assert row["gap_percent"] == pytest.approx((0.0111 - 0.010752) / 0.010752 * 100)
    # 5 CudnnConvolution tactics + 18 CaskConvolution tactics.
    assert row["tactics_tried"] == 23
    assert row["runners_tried"] == 2
    assert "CudaDepthwiseConvolution" in row["runners_skipped"]
    assert "FusedConvActConvolution" in row["runners_skipped"]


def test_choice_8_2_3_pooling() -> None:
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    row = choice(log, "MaxPool2d", "Float(25088,784,28,1) -> Float(6272,196,14,1)")
    # Line 557: Chose Runner Type: TiledPooling Tactic: 6488321; 16 TiledPooling + 1 CudnnPooling.
    assert (row["runner"], row["tactic"]) == ("TiledPooling", "0x0000000000630101")
    assert row["best_ms"] == pytest.approx(0.004416)
    assert row["runner_up_ms"] == pytest.approx(0.004792)
    assert row["tactics_tried"] == 17
    assert pd.isna(row["kernel"])


def test_choice_8_4_1_hex_tactics() -> None:
    log = build_log("hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log")
    row = choice(log, "Conv-1 + ReLU-2", "Float(784,784,28,1) -> Float(25088,784,28,1)")
    # Line 710; kernel from line 689; runner-up 0xbd90052d8b47dde9 at 0.00756066.
    assert (row["runner"], row["tactic"]) == ("CaskConvolution", "0x632674f65e3422ae")
    assert row["kernel"] == "maxwell_scudnn_128x32_relu_small_nn_v0"
    assert row["best_ms"] == pytest.approx(0.00713448)
    assert row["runner_up_ms"] == pytest.approx(0.00756066)
    assert row["tactics_tried"] == 23


def test_choice_8_6_0_kernel_from_tactic_name_lines() -> None:
    log = build_log("hackathon_trt8.6.0_trtexec_build_rtx3090.log")
    row = choice(log, "Conv-1 + ReLU-2", "Float(784,784,28,1) -> Float(25088,784,28,1)")
    assert (row["runner"], row["tactic"]) == ("CaskConvolution", "0x5b8bf1b8028629d9")
    assert row["kernel"] == (
        "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3"
        "_warpsize1x2x1_g1_ffma_t1r5s5_aligna4_alignc4"
    )
    assert row["best_ms"] == pytest.approx(0.00569811)
    assert row["runner_up_ms"] == pytest.approx(0.00579785)
    assert row["tactics_tried"] == 21
    # "profiling completed in 0.112085 seconds"
    assert row["tuning_seconds"] == pytest.approx(0.112085)


def test_choice_10_16() -> None:
    log = build_log("hackathon_trt10.16.1_trtexec_build_h100.log")
    rows = log.choices[
        (log.choices["layer"] == "node_conv2d + node_relu")
        & (log.choices["formats"] == "Float(784,784,28,1) -> Float(25088,784,28,1)")
    ]
    row = rows.iloc[0]
    # Line 588: Chose Runner Type: CaskConvolution Tactic: 0x5b8bf1b8028629d9; 28 timed tactics
    # between lines 556 and 588; "profiling completed in 0.0819054 seconds".
    assert (row["build"], row["runner"], row["tactic"]) == (
        0,
        "CaskConvolution",
        "0x5b8bf1b8028629d9",
    )
    assert row["runner_id"] == 0x80000009
    assert row["kernel"].startswith("sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw")
    assert row["best_ms"] == pytest.approx(0.00534603)
    assert row["runner_up_ms"] == pytest.approx(0.00545964)
    assert row["runner_up_tactic"] == "0xb0bf940d5e0f9f45"
    assert row["tactics_tried"] == 28
    assert row["tuning_seconds"] == pytest.approx(0.0819054)
    assert row["runners_skipped"] == "CaskFlattenConvolution (no valid tactics)"


def test_tactic_rows_rank_and_mark_the_winner() -> None:
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    tactics = log.tactics
    block = tactics[
        (tactics["layer"] == "Conv__25 + Relu")
        & (tactics["formats"] == "Float(784,784,28,1) -> Float(25088,784,28,1)")
    ]
    assert len(block) == 23
    cudnn = block[block["runner"] == "CudnnConvolution"]
    # Tactics 0, 1, 2, 4, 5 at 0.0267, 0.024684, 0.031852, 0.039528, 0.040392: tactic 1 is fastest.
    assert list(cudnn.sort_values("rank")["tactic"].str[-1]) == ["1", "0", "2", "4", "5"]
    assert list(cudnn["fastest"]).count(True) == 1
    assert not cudnn["chosen"].any()
    winner = block[block["chosen"]]
    assert list(winner["tactic"]) == ["0x632674f65e3422ae"]
    assert winner["kernel"].iloc[0] == "maxwell_scudnn_128x32_relu_small_nn_v0"


@pytest.mark.slow
def test_choices_rows_match_chose_runner_lines_in_every_log() -> None:
    for path in CORPUS_LOGS:
        text = path.read_text(errors="replace")
        expected = len(re.findall(r"Chose Runner Type", text))
        log = build_log(path.name)
        assert len(log.choices) == expected, path.name
        assert log.tactics["chosen"].sum() <= expected, path.name


# --- fusions and provenance ---------------------------------------------------------------


def originals(log: BuildLog, engine_layer: str) -> list[str]:
    provenance = log.provenance
    return list(provenance[provenance["engine_layer"] == engine_layer]["original_layer"])


def test_provenance_from_fused_names_8_2_3() -> None:
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    assert originals(log, "Conv__25 + Relu") == ["Conv__25", "Relu"]
    assert originals(log, "MaxPool2d_1__22 + Reshape + (Unnamed Layer* 14) [Shuffle]") == [
        "MaxPool2d_1__22",
        "Reshape",
        "(Unnamed Layer* 14) [Shuffle]",
    ]
    assert originals(log, "y + z") == ["y", "z"]
    # Line 330: "ConvReluFusion: Fusing Conv__25 with Relu" ends in engine layer Conv__25 + Relu.
    fusion = log.fusions[log.fusions["line"] == 330].iloc[0]
    assert (fusion["pass_name"], fusion["first"], fusion["second"]) == (
        "ConvReluFusion",
        "Conv__25",
        "Relu",
    )
    assert fusion["engine_layer"] == "Conv__25 + Relu"


def test_provenance_from_foreign_node_metadata_10_16() -> None:
    log = build_log("hackathon_trt10.16.1_trtexec_build_h100.log")
    # Line 3064: ForeignNode {ForeignNode[node_conv2d...node_relu]} metadata: ...
    assert originals(log, "{ForeignNode[node_conv2d...node_relu]}") == ["node_conv2d", "node_relu"]
    # Line 3470 lists six ONNX layers for the last Myelin region.
    assert originals(
        log, "{ForeignNode[gemm2.bias + ONNXTRT_Broadcast_4...ONNXTRT_castHelper_9]}"
    ) == ["node_view", "node_linear", "node_relu_2", "node_linear_1", "node_softmax", "node_argmax"]
    reformat = (
        "Reformatting CopyNode for Input Tensor 0 to {ForeignNode[node_conv2d_1...node_relu_1]}"
    )
    row = log.provenance[log.provenance["engine_layer"] == reformat].iloc[0]
    assert pd.isna(row["original_layer"]) and row["via"] == "inserted"
    # Every engine layer of the listing (lines 4688-4693) has provenance.
    assert log.provenance["engine_layer"].nunique() == 6


# --- memory -------------------------------------------------------------------------------

MEMORY_LOGS = [
    "hackathon_trt8.0.3_trtexec_build_fp16_gtx1070.log",
    "hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log",
    "hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log",
    "hackathon_trt8.6.0_trtexec_build_rtx3090.log",
    "lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log",
    "nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log",
    "hackathon_trt10.16.1_trtexec_build_h100.log",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", MEMORY_LOGS)
def test_per_layer_memory_adds_up_to_the_reported_totals(name: str) -> None:
    log = build_log(name)
    for (build, strategy), layers in log.memory.groupby(["build", "strategy"], dropna=False):
        totals = log.memory_totals
        same_strategy = (
            totals["strategy"].isna() if pd.isna(strategy) else totals["strategy"] == strategy
        )
        totals = totals[(totals["build"] == build) & same_strategy & (totals["kind"] == "total")]
        reported = dict(zip(totals["item"], totals["bytes"], strict=True))
        device = reported.get("device persistent", reported.get("per-runner device persistent"))
        host = reported.get("host persistent", reported.get("per-runner host persistent"))
        assert device == layers["device_persistent"].sum()
        # TensorRT rounds each layer's host persistent memory up to 16 bytes before adding.
        assert host == ((layers["host_persistent"] + 15) // 16 * 16).sum()
        if "scratch" in reported:
            # Scratch memory is shared between layers: the total is the largest single need.
            assert reported["scratch"] == layers["scratch"].fillna(0).max()


def test_memory_8_2_3_by_hand() -> None:
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    memory = log.memory.set_index("layer")
    # Lines 838-849.
    assert len(memory) == 12
    assert tuple(memory.loc["Conv__27 + Relu_1", ["host_persistent", "device_persistent"]]) == (
        1664,
        206336,
    )
    totals = log.memory_totals
    peak = totals[totals["kind"] == "peak"].iloc[0]
    # Line 853: Peak memory usage of TRT CPU/GPU memory allocators: CPU 12 MiB, GPU 438 MiB
    assert (peak["cpu_bytes"], peak["gpu_bytes"]) == (12 * 2**20, 438 * 2**20)
    activation = totals[(totals["kind"] == "total") & totals["item"].str.startswith("activation")]
    # Line 834 after "Pre-optimized block assignment." (820), line 860 after "Optimized block
    # assignment." (855).
    assert list(activation["item"]) == ["activation (before block optimisation)", "activation"]
    assert list(activation["bytes"]) == [1078224386, 2409473]


# --- layers, reformats, performance, warnings ---------------------------------------------


def test_layers_8_2_3() -> None:
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    layers = log.layers.set_index("name")
    assert len(layers) == 12
    conv = layers.loc["Conv__27 + Relu_1"]
    # Kernel joined from line 837's Set Tactic Name for tactic -9153228964338181824.
    assert conv["kernel"] == "maxwell_scudnn_128x32_sliced1x4_ldg4_relu_exp_small_nhwc_tn_v1"
    assert conv["tactic"] == "0x80f932c0b8ce5940"
    assert conv["precision"] == "fp32"
    assert layers.loc["(Unnamed Layer* 52) [Shuffle]", "precision"] == "int32"
    # Line 816: "Adding reformat layer: Reformatted Input Tensor 0 to Conv__27 + Relu_1
    # (MaxPool2d:0) from Float(6272,196,14,1) to Float(6272,1,448,32)".
    assert layers.loc[
        "Reformatting CopyNode for Input Tensor 0 to Conv__27 + Relu_1", "reformat"
    ] == ("input of Conv__27 + Relu_1: Float(6272,196,14,1) -> Float(6272,1,448,32)")
    assert layers.loc["Conv__27 + Relu_1", "original_layers"] == "Conv__27; Relu_1"


def test_layers_fp16_and_profile_time_10_16() -> None:
    log = build_log("hackathon_trt10.16.1_trtexec_build_h100.log")
    layers = log.layers.set_index("name")
    # Line 4691: Half in, Half out; line 4688: Float in, Float out.
    assert layers.loc["{ForeignNode[node_conv2d_1...node_relu_1]}", "precision"] == "fp16"
    assert layers.loc["{ForeignNode[node_conv2d...node_relu]}", "precision"] == "fp32"


def test_layers_take_profile_times_8_5_10() -> None:
    log = build_log("lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log")
    layers = log.layers.set_index("name")
    # Line 8814 of the profile: 128.46 ms total, 0.0172 ms average, 4.8 %.
    conv = layers.loc["conv1.weight + QuantizeLinear_7 + Conv_9 + MaxPool_12"]
    assert (conv["time_ms"], conv["average_ms"], conv["percent"]) == (128.46, 0.0172, 4.8)
    assert conv["precision"] == "int8"


def test_reformats_8_2_3() -> None:
    log = build_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    reformats = log.reformats
    inserted = reformats[reformats["inserted"]]
    # Lines 816-817: inserted during autotuning; lines 870 and 872 list the same two layers in
    # the engine: one row each, never the same layer twice.
    assert len(reformats) == 2
    assert list(inserted["layer"]) == ["Conv__27 + Relu_1", "MaxPool2d_1"]
    assert list(inserted["from_format"]) == ["Float(6272,196,14,1)", "Float(12544,1,896,64)"]
    assert list(inserted["to_format"]) == ["Float(6272,1,448,32)", "Float(12544,196,14,1)"]
    assert list(reformats["in_engine"]) == [True, True]
    assert list(reformats["line"]) == [816, 817]


def test_reformats_with_profile_time_and_one_row_per_engine_layer() -> None:
    log = build_log("lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log")
    engine = log.reformats[log.reformats["in_engine"]].set_index("name")
    # The engine is listed twice (lines 6502 and 6546); each reformat layer appears once.
    assert engine.index.is_unique
    assert engine.loc["QuantizeLinear_2", "time_ms"] == 85.71


def test_perf_summary_8_5_10() -> None:
    log = build_log("lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log")
    assert len(log.perf) == 1
    perf = log.perf.iloc[0]
    text = (
        corpus_dir() / "logs" / "lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log"
    ).read_text()
    throughput = float(re.search(r"Throughput: ([\d.]+) qps", text).group(1))
    assert perf["throughput_qps"] == throughput == 7329.45
    latency = re.search(r"\] Latency: min = ([\d.]+) ms, max = ([\d.]+) ms", text)
    assert (perf["latency_min_ms"], perf["latency_max_ms"]) == (
        float(latency.group(1)),
        float(latency.group(2)),
    )
    assert len(log.profile) == 24
    assert log.profile["iterations"].iloc[0] == 7477


def test_perf_one_row_per_run_7_1() -> None:
    # The Jetson 7.1 log runs trtexec seven times, each with its own summary.
    log = build_log("jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log")
    assert list(log.perf["run"]) == list(range(7))


def test_each_pasted_performance_summary_is_a_run_of_its_own() -> None:
    # trtexec 8.4 --loadEngine run three times and pasted together without "&&&& RUNNING" (the
    # trace averages' figures made up for the test).
    summary = """\
[07/31/2022-{clock}] [I] Average on 16 runs - GPU latency: 180.1 ms - Host latency: 197.7 ms (enqueue 183.3 ms)
[07/31/2022-{clock}] [I] Average on 16 runs - GPU latency: 180.2 ms - Host latency: 197.8 ms (enqueue 183.4 ms)
[07/31/2022-{clock}] [I] === Performance summary ===
[07/31/2022-{clock}] [I] Throughput: {qps} qps
[07/31/2022-{clock}] [I] Latency: min = 196.026 ms, max = 198.59 ms, mean = {mean} ms, median = 198.062 ms, percentile(99%) = 198.59 ms
"""
    text = "".join(
        f"trtexec --loadEngine=raft.FP32.engine --batch={batch}\n"
        + summary.format(clock=clock, qps=qps, mean=mean)
        for batch, clock, qps, mean in (
            (1024, "10:50:17", "5560.21", "197.778"),
            (4096, "10:51:48", "22153.6", "198.494"),
            (32768, "10:56:48", "178359", "197.33"),
        )
    )
    perf = BuildLog.from_parsed(parse_text(text)).perf
    assert list(perf["run"]) == [0, 1, 2]
    assert list(perf["throughput_qps"]) == [5560.21, 22153.6, 178359.0]
    assert list(perf["latency_mean_ms"]) == [197.778, 198.494, 197.33]
    # Each run's trace averages come before its summary.
    assert list(perf["trace_averages"]) == [2, 2, 2]


def test_warnings_counted_per_form() -> None:
    log = build_log("hackathon_trt10.16.2_pyapi_refit_with_errors.log")
    by_first_line = {row.first_line: (row.severity, row.count) for row in log.warnings.itertuples()}
    # Lines 2-3, 4, 5/14/23/24; the refit errors of lines 6-9 and 15-22 differ only in the
    # weight named in parentheses, those of lines 10-13 only in the layer.
    assert by_first_line == {
        2: ("warning", 2),
        4: ("warning", 1),
        5: ("warning", 4),
        6: ("error", 12),
        10: ("error", 4),
    }


def test_warnings_read_from_fields_count_together_per_message() -> None:
    # "Missing scale and zero-point for tensor input_ids, expect fall back to non-int8
    # implementation for any layer consuming or producing given tensor" (8.6, INT8 builds), for
    # two tensors in two builds: one message.
    text = "".join(
        f"[06/04/2024-10:{minute}:00] [TRT] [W] Missing scale and zero-point for tensor {tensor},"
        " expect fall back to non-int8 implementation for any layer consuming or producing given"
        " tensor\n"
        for minute, tensor in (("01", "input_ids"), ("02", "attention_mask"))
    )
    table = BuildLog.from_parsed(parse_text(text)).warnings
    assert list(table["count"]) == [2]
    assert list(table["example"]) == ["missing_quantization_scale: tensor='input_ids'"]


def test_warnings_of_one_message_about_other_layers_count_together() -> None:
    from trtlog.analysis.warnings import message_form

    # TensorRT 8.6 on Orin's DLA: the layer is quoted, its type and the message are the form.
    dla = "Layer '{}' ({}): Unsupported on DLA. Switching this layer's device type to GPU."
    assert message_form(dla.format("/model.24/Constant_3_output_0", "CONSTANT")) == (
        message_form(dla.format("(Unnamed Layer* 7) [Shuffle]", "CONSTANT"))
    )
    assert message_form(dla.format("x", "SHUFFLE")) != message_form(dla.format("x", "CONSTANT"))
    # A Myelin region in a coded error (10.3), and a version of three parts (8.2); an
    # apostrophe in a word quotes nothing.
    region = "Could not find any implementation for node {}."
    assert message_form(region.format("{ForeignNode[/0/Constant_4.../1/Slice_5]}")) == (
        message_form(region.format("{ForeignNode[onnx::MatMul_9...Add_12]}"))
    )
    assert message_form("expecting library version 8.2.3 got 8.2.1, please rebuild.") == (
        "expecting library version N got N, please rebuild."
    )
    assert message_form("Switching this layer's device type to GPU.") == (
        "Switching this layer's device type to GPU."
    )


@pytest.mark.slow
def test_warnings_keep_type_names_but_blank_indices() -> None:
    from trtlog.analysis.warnings import message_form

    assert (
        message_form("generated with INT64 weights on sm80")
        == "generated with INT64 weights on sm80"
    )
    assert message_form("op index_1_shape_0 at base.py:107") == "op index_N_shape_N at base.py:N"


@pytest.mark.slow
def test_warnings_are_the_builds_as_the_summary_counts_them() -> None:
    log = build_log("torchtrt_trt10.6_dynamo_debug_dinov2_ansi.log")
    # Python's 64 "WARNING:py.warnings" lines are another program's, not the build's; line 338
    # is TensorRT's warning ("Functionality provided through tensorrt.plugin module is
    # experimental in TensorRT 10.6."), line 24332 Torch-TensorRT's runtime's ("Detected this
    # engine is being instantitated in a multi-GPU system with multi-device safe mode disabled").
    assert not log.warnings["form"].str.startswith("WARNING:py.warnings").any()
    assert list(log.warnings["first_line"]) == [338, 24332]
    assert int(log.warnings["count"].sum()) == log.summary.warnings + log.summary.errors


# --- every table of every log -------------------------------------------------------------

# Table -> the constant naming its columns in the module that builds it.
COLUMN_CONSTANTS = {
    "stages": "COLUMNS",
    "tactics": "TACTIC_COLUMNS",
    "choices": "CHOICE_COLUMNS",
    "fusions": "FUSION_COLUMNS",
    "provenance": "PROVENANCE_COLUMNS",
    "reformats": "COLUMNS",
    "memory": "MEMORY_COLUMNS",
    "memory_totals": "TOTAL_COLUMNS",
    "layers": "COLUMNS",
    "profile": "PROFILE_COLUMNS",
    "warnings": "COLUMNS",
    "timeline": "COLUMNS",
    "precision": "COLUMNS",
    "times": "TIMES_COLUMNS",
    "options": "COLUMNS",
}
FIXED_COLUMNS = {
    table: getattr(import_module(f"trtlog.analysis.{TABLES[table]}"), constant)
    for table, constant in COLUMN_CONSTANTS.items()
}
_PERF_STATISTIC = re.compile(r"^(?P<metric>[a-z0-9_]+?)_(min|max|mean|median|p[\d.]+)_ms$")


def documented(table: str) -> str:
    return import_module(f"trtlog.analysis.{TABLES[table]}").__doc__ or ""


@pytest.mark.slow
@pytest.mark.parametrize("path", CORPUS_LOGS, ids=[path.name for path in CORPUS_LOGS])
def test_every_table_has_its_documented_columns(path: Path) -> None:
    log = build_log(path.name)
    for name, columns in FIXED_COLUMNS.items():
        assert list(log.table(name).columns) == columns, name
    for column in log.perf.columns:
        statistic = _PERF_STATISTIC.match(column)
        assert f"``{statistic.group('metric') if statistic else column}``" in documented("perf")


@pytest.mark.slow
def test_fixed_columns_are_named_in_the_module_docstrings() -> None:
    for name, columns in FIXED_COLUMNS.items():
        for column in columns:
            assert f"``{column}``" in documented(name), (name, column)
