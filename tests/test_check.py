"""Lint rules: each fires on a real log where the problem is (the quoted lines show it) and stays
quiet on one where it is not; settings, gates and SARIF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import trtlog
from tests.conftest import corpus_dir, needs_corpus
from trtlog.analysis import BuildLog
from trtlog.check import RULES, CheckSettingError, resolve_settings, run_checks
from trtlog.cli.app import app
from trtlog.parse import parse_text

pytestmark = needs_corpus
runner = CliRunner()

LOGS = {
    "fp16 gtx1070": ("logs/hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log", {}),
    "fp32 gtx1070": ("logs/hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log", {}),
    "8.6 rtx3090": ("logs/hackathon_trt8.6.0_trtexec_build_rtx3090.log", {}),
    "10.16 h100": ("logs/hackathon_trt10.16.1_trtexec_build_h100.log", {}),
    "10.14 plugin": ("logs/hackathon_trt10.14.1_trtexec_plugin_rtx6000ada_interleaved.log", {}),
    "qat resnet18": ("logs/lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log", {}),
    "trex qat a100": (
        "json/trex/pytorch__resnet__A100__qat__resnet-qat.onnx.engine.graph.json",
        {"profile": "json/trex/pytorch__resnet__A100__qat__resnet-qat.onnx.engine.profile.json"},
    ),
    "mobilenet qat": ("json/trex_test_TITANRTX_mobilenet_qat.engine.graph.json", {}),
    "resnet50 int8": ("json/kalfazed_trt8.6.1_trex_resnet50int8.engine.graph.json", {}),
    "onnx parser errors": ("logs/hackathon_trt10.16.2_pyapi_onnxparser_with_errors.log", {}),
}
_findings: dict[str, object] = {}


def findings(case: str):  # type: ignore[no-untyped-def]
    if case not in _findings:
        path, extra = LOGS[case]
        exports = {kind: corpus_dir() / file for kind, file in extra.items()}
        _findings[case] = run_checks(trtlog.load(corpus_dir() / path, **exports))
    return _findings[case]


def of(case: str, rule: str):  # type: ignore[no-untyped-def]
    found = findings(case)
    return found[found["rule"] == rule]


# (rule, where it fires, where it does not, what the finding must say)
FIRES = [
    # Line 16: "[E] ModelImporter.cpp:... While parsing node number 1 [UnknownNode1 -> ...]", 8
    # parser errors, the script's print of the two nodes' errors (lines 729-730: "In node 1 with
    # name: ..."), and no "Engine generation completed".
    ("build-failed", "onnx parser errors", "8.6 rtx3090", "10 TensorRT errors and no engine built; the first is at line 16"),
    # "Precision: FP32+FP16" (line 11); Conv-1 + ReLU-2 runs FP32 on the GTX 1070.
    ("wider-precision", "fp16 gtx1070", "fp32 gtx1070", "Conv-1 + ReLU-2 runs in fp32"),
    # conv1.weight + QuantizeLinear_7 + Conv_9 reads "Four wide ... Int8", writes "Row major linear FP32".
    ("quantized-float-output", "trex qat a100", "10.16 h100", "conv1.weight + QuantizeLinear_7 + Conv_9 reads Int8 and writes Float"),
    # QuantizeLinear_2 is a Scale layer with Float in and Int8 out.
    ("unfused-qdq", "mobilenet qat", "resnet50 int8", "QuantizeLinear_2 (Scale) quantizes on its own"),
    # Line 6502: "Layer(Reformat): QuantizeLinear_2, ..., inputs.1 (Float[1,3,224,224]) -> 176
    # (Int8[1,3,224,224])"; resnet50 int8's one Float -> Int8 Reformat is the builder's CopyNode.
    ("unfused-qdq", "qat resnet18", "resnet50 int8", "QuantizeLinear_2 (Reformat) quantizes on its own"),
    # 13 Reformat layers: 25.4% of the profile; QuantizeLinear_2 alone "percentage": 5.60748.
    ("reformat-share", "trex qat a100", "resnet50 int8", "13 reformat layers take 25.4% of the profiled time"),
    # "TacticName": "ampere_fp32_icudnn_int8x4_128x64_relu_medium_nn_v1": no tensor-core kernel.
    ("no-tensor-cores", "trex qat a100", "8.6 rtx3090", "ampere_fp32_icudnn_int8x4_128x64_relu_medium_nn_v1"),
    # "TacticName": "sm70_xmma_fprop_conv1x1_i8f32_..._simt_small_batch_bias_relu": an XMMA kernel
    # on CUDA cores (simt), which the kernel's name says.
    ("no-tensor-cores", "resnet50 int8", "8.6 rtx3090", "/backbone/fc/Gemm (int8) runs sm70_xmma_fprop_conv1x1_i8f32_f32_f32"),
    # Conv-1 + ReLU-2 reads 1 channel in FP16 (Half[-1,1:2,28,28], line 3417).
    ("channel-alignment", "8.6 rtx3090", "fp32 gtx1070", "Conv-1 + ReLU-2 (fp16): C=1 not"),
    # "Tactic: 0x0000000000000001 skipped. Scratch requested: 200704, available: 1024" and more.
    ("workspace-limited", "10.16 h100", "8.6 rtx3090", "tactics skipped for lack of memory"),
    # "* GPU compute time is unstable, with coefficient of variance = 7.69863%." (line 8791)
    ("unstable-gpu-time", "qat resnet18", "fp32 gtx1070", "coefficient of variance 7.69863%"),
    # {ForeignNode[node_linear]} profiled 5.73603 + 1.24104 s of the 14.8108 s of tuning.
    ("build-time-hog", "10.16 h100", "qat resnet18", "{ForeignNode[node_linear]} took 6.98 s, 47%"),
    # "Dynamic dimensions required for input: inputT0, but no shapes were provided." (line 158)
    ("dynamic-shapes-no-profile", "10.14 plugin", "8.6 rtx3090", "input inputT0 has dynamic dimensions; built for 1"),
    # "Your ONNX model has been generated with INT64 weights" (line 211)
    ("int64-weights", "8.6 rtx3090", "fp32 gtx1070", "generated with INT64 weights"),
    # "- 2 weights are affected by this issue: Detected subnormal FP16 values." (line 3412)
    ("subnormal-fp16-weights", "8.6 rtx3090", "fp32 gtx1070", "2 weights: Detected subnormal FP16 values."),
]  # fmt: skip


# Rules no corpus log fires: (rule, lines of public logs that fire it, what the finding says).
FIRES_ON_LINES = [
    # TensorRT 10.x's Python API (a public log): the warning, then the nodes at VERBOSE.
    (
        "fp16-layernorm",
        "[09/09/2026-15:54:26] [TRT] [W] Detected layernorm nodes in FP16.\n"
        "[09/09/2026-15:54:26] [TRT] [V] /encoder/norm/ReduceMean, /encoder/norm/Sub,"
        " /encoder/norm/Pow, /encoder/norm/Add\n"
        "[09/09/2026-15:54:26] [TRT] [W] Running layernorm after self-attention in FP16 may cause"
        " overflow. Exporting the model to the latest available ONNX opset (later than opset 17)"
        " to use the INormalizationLayer, or forcing layernorm layers to run in FP32 precision"
        " can help with preserving accuracy.\n",
        "layernorm nodes in FP16: /encoder/norm/ReduceMean, /encoder/norm/Sub, /encoder/norm/Pow"
        " and 1 more",
    ),
    # TensorRT 8.6's Python API building INT8 (a public log), and DeepStream's nvinfer.
    (
        "int8-missing-scales",
        "[08/07/2024-07:04:41] [TRT] [W] Missing scale and zero-point for tensor input_ids, expect"
        " fall back to non-int8 implementation for any layer consuming or producing given tensor\n"
        "WARNING: [TRT]: Missing scale and zero-point for tensor block_4a_relu/Relu:0, expect fall"
        " back to non-int8 implementation for any layer consuming or producing given tensor\n",
        "2 tensors without a scale: input_ids, block_4a_relu/Relu:0",
    ),
    # Paddle Inference relaying TensorRT 8.0 (PaddleOCR issue 6737): cuBLAS, then cuDNN twice.
    (
        "library-mismatch",
        "W0628 12:15:04.902067  2920 helper.h:107] TensorRT was linked against cuBLAS/cuBLAS LT"
        " 11.5.1 but loaded cuBLAS/cuBLAS LT 11.4.1\n"
        "W0628 12:15:05.175945  2834 helper.h:107] TensorRT was linked against cuDNN 8.2.1 but"
        " loaded cuDNN 8.1.1\n"
        "W0628 12:15:05.175945  2834 helper.h:107] TensorRT was linked against cuDNN 8.2.1 but"
        " loaded cuDNN 8.1.1\n",
        "linked against cuBLAS/cuBLAS LT 11.5.1, loaded 11.4.1; cuDNN 8.2.1, loaded 8.1.1",
    ),
]


def test_every_rule_is_tested() -> None:
    tested = {rule for rule, *_ in FIRES} | {rule for rule, *_ in FIRES_ON_LINES}
    assert sorted(tested) == sorted(rule.id for rule in RULES)


@pytest.mark.parametrize(
    ("rule", "text", "says"), FIRES_ON_LINES, ids=[r[0] for r in FIRES_ON_LINES]
)
def test_rule_fires_on_the_lines_that_show_the_problem(rule: str, text: str, says: str) -> None:
    found = run_checks(BuildLog.from_parsed(parse_text(text)))
    assert list(found.loc[found["rule"] == rule, "message"]) == [says]
    assert list(found.loc[found["rule"] == rule, "line"]) == [1]
    # The build these rules are quiet on: an FP16 build of a CNN.
    assert of("8.6 rtx3090", rule).empty


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rule", "fires", "quiet", "says"), FIRES, ids=[f"{case[0]}-{case[1]}" for case in FIRES]
)
def test_rule_fires_where_the_problem_is(rule: str, fires: str, quiet: str, says: str) -> None:
    found = of(fires, rule)
    assert len(found), f"{rule} found nothing in {fires}"
    assert any(says in message for message in found["message"]), list(found["message"])
    assert of(quiet, rule).empty, list(of(quiet, rule)["message"])


def test_findings_point_at_the_log_line() -> None:
    found = of("qat resnet18", "unstable-gpu-time")
    assert list(found["line"]) == [8791]
    assert list(of("8.6 rtx3090", "int64-weights")["line"]) == [211]


@pytest.mark.slow
def test_thresholds_change_what_fires() -> None:
    log = trtlog.load(corpus_dir() / LOGS["qat resnet18"][0])
    settings, disabled = resolve_settings({}, {"unstable-gpu-percent": 10.0}, [])
    assert run_checks(log, settings, disabled).query("rule == 'unstable-gpu-time'").empty
    settings, disabled = resolve_settings({"disable": ["channel-alignment"]}, {}, [])
    assert run_checks(log, settings, disabled).query("rule == 'channel-alignment'").empty
    with pytest.raises(CheckSettingError, match="unknown threshold"):
        resolve_settings({"no-such-threshold": 1}, {}, [])
    with pytest.raises(CheckSettingError, match="unknown rule"):
        resolve_settings({}, {}, ["no-such-rule"])


def log_path(case: str) -> str:
    return str(corpus_dir() / LOGS[case][0])


@pytest.mark.slow
def test_fail_level_gates_the_exit_code() -> None:
    # The 10.14 log has an error-level finding (dynamic shapes without a profile).
    assert runner.invoke(app, ["check", "--log", log_path("10.14 plugin")]).exit_code == 3
    assert (
        runner.invoke(
            app, ["check", "--log", log_path("10.14 plugin"), "--fail-level", "never"]
        ).exit_code
        == 0
    )
    # The FP32 GTX 1070 build has only a warning (workspace): error level passes, warning fails.
    assert runner.invoke(app, ["check", "--log", log_path("fp32 gtx1070")]).exit_code == 0
    result = runner.invoke(
        app, ["check", "--log", log_path("fp32 gtx1070"), "--fail-level", "warning"]
    )
    assert result.exit_code == 3
    assert (
        runner.invoke(
            app, ["check", "--log", log_path("fp32 gtx1070"), "--fail-level", "loud"]
        ).exit_code
        == 2
    )


@pytest.mark.slow
def test_pyproject_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.trtlog.check]\nfail-level = "warning"\ndisable = ["workspace-limited"]\n'
    )
    monkeypatch.chdir(tmp_path)
    # The only finding of the FP32 build is disabled; the warning level comes from the file.
    result = runner.invoke(app, ["check", "--log", log_path("fp32 gtx1070"), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == []
    result = runner.invoke(app, ["check", "--log", log_path("qat resnet18")])
    assert result.exit_code == 3


@pytest.mark.slow
def test_sarif_output(tmp_path: Path) -> None:
    target = tmp_path / "trtlog.sarif"
    result = runner.invoke(
        app,
        [
            "check",
            "--log",
            log_path("8.6 rtx3090"),
            "-f",
            "sarif",
            "-o",
            str(target),
            "--fail-level",
            "never",
        ],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(target.read_text())
    assert document["version"] == "2.1.0"
    run = document["runs"][0]
    assert {rule["id"] for rule in run["tool"]["driver"]["rules"]} == {rule.id for rule in RULES}
    int64 = [result for result in run["results"] if result["ruleId"] == "int64-weights"]
    assert int64[0]["level"] == "note"
    assert int64[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 211}


def test_list_rules() -> None:
    result = runner.invoke(app, ["check", "--list", "-f", "json"])
    assert result.exit_code == 0
    rules = json.loads(result.stdout)
    assert [rule["rule"] for rule in rules] == [rule.id for rule in RULES]
    assert all(rule["why"] and rule["try"] for rule in rules)


@pytest.mark.slow
def test_workspace_limited_names_the_device_memory_short(tmp_path: Path) -> None:
    # 7.x-8.x precede a skip for memory with the device request; 10.x's skips say the size in
    # bytes (629145600 = 600 MiB) but not what was available.
    log = tmp_path / "orin.log"
    log.write_text(
        "[10/01/2025-08:26:34] [V] [TRT] --------------- Timing Runner: /conv1/Conv (CaskConvolution)\n"
        "[10/01/2025-08:26:34] [W] [TRT] Tactic Device request: 600MB Available: 302MB. Device"
        " memory is insufficient to use tactic.\n"
        "[10/01/2025-08:26:34] [W] [TRT] UNSUPPORTED_STATE: Skipping tactic 33 due to insufficient"
        " memory on requested size of 629145600 detected for tactic 0xa5a46bfbd719d757.\n"
        "[10/01/2025-08:26:34] [W] [TRT] Skipping tactic 3 due to insuficient memory on requested"
        " size of 449 detected for tactic 4.\n"
        "Try decreasing the workspace size with IBuilderConfig::setMaxWorkspaceSize().\n"
    )
    found = run_checks(trtlog.load(log))
    (message,) = found[found["rule"] == "workspace-limited"]["message"]
    assert message == (
        "2 tactics skipped for lack of memory; the largest asked for 600.0 MiB (/conv1/Conv);"
        " device memory short 1 time, the largest request 600 MiB with 302 MiB free (/conv1/Conv)"
    )


def test_a_run_that_ended_failed_fails_the_gate() -> None:
    # TensorRT 10.8's trtexec: an internal error, then the run's closing banner.
    text = (
        "&&&& RUNNING TensorRT.trtexec [TensorRT v100800] # trtexec --onnx=m.onnx\n"
        "[03/02/2025-10:11:12] [E] Error[2]: [caskBuilderUtils.cpp::validateCaskKLibSize::59]"
        " Error Code 2: Internal Error (Assertion validateCaskKLibSize failed.)\n"
        "&&&& FAILED TensorRT.trtexec [TensorRT v100800] # trtexec --onnx=m.onnx\n"
    )
    found = run_checks(BuildLog.from_parsed(parse_text(text)))
    failed = found[found["rule"] == "build-failed"]
    assert list(failed["message"]) == ["run 0 ended FAILED: trtexec --onnx=m.onnx"]
    assert list(failed["line"]) == [3]


def test_a_finished_info_level_build_with_an_error_is_not_failed() -> None:
    # TensorRT 8.6's Python API at INFO level ("Engine generation completed" is VERBOSE in 8.x):
    # one recoverable error, and the build's memory report.
    text = (
        "[06/04/2024-10:01:00] [TRT] [I] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: CPU 131,"
        " GPU 417 (MiB)\n"
        "[06/04/2024-10:01:02] [TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1:"
        " Cuda Runtime (out of memory)\n"
        "[06/04/2024-10:01:09] [TRT] [I] Total Activation Memory: 1577062400\n"
        "[06/04/2024-10:01:09] [TRT] [I] [MemUsageChange] TensorRT-managed allocation in building"
        " engine: CPU +0, GPU +15, now: CPU 0, GPU 15 (MiB)\n"
    )
    log = BuildLog.from_parsed(parse_text(text))
    assert log.summary.errors == 1
    found = run_checks(log)
    assert found[found["rule"] == "build-failed"].empty
    # Without the memory the finished build reports, the error stands alone: one error.
    unfinished = BuildLog.from_parsed(parse_text(text.rsplit("[06/04", 1)[0]))
    failed = run_checks(unfinished)
    message = failed[failed["rule"] == "build-failed"]["message"].iloc[0]
    assert message.startswith("1 TensorRT error and no engine built; the first is at line 2: ")


def test_errors_tensorrt_goes_on_from_do_not_fail_the_gate() -> None:
    # Lines of public logs: TensorRT 8.6 skipping tactics it could not allocate for (the
    # allocator's error, then the skip), and tensorrtx's builder destroyed after the engine was
    # saved (an application logging at WARNING level: no line says the build finished).
    text = (
        "[E] 9: Skipping tactic0x0000000000000000 due to exception [::0] autotuning: User"
        " allocator error allocating 34360788477-byte buffer\n"
        "[E] 1: [defaultAllocator.cpp::nvinfer1::internal::DefaultAllocator::allocate::20] Error"
        " Code 1: Cuda Runtime (out of memory)\n"
        "[W] UNSUPPORTED_STATESkipping tactic 0 due to insufficient memory on requested size of"
        " 9261154304 detected for tactic 0x0000000000000000.\n"
        "[04/26/2023-13:51:10] [E] [TRT] 3: [builder.cpp::~Builder::307] Error Code 3: API Usage"
        " Error (Parameter check failed at: optimizer/api/builder.cpp::~Builder::307, condition:"
        " mObjectCounter.use_count() == 1. Destroying a builder object before destroying objects"
        " it created leads to undefined behavior.)\n"
    )
    log = BuildLog.from_parsed(parse_text(text))
    assert log.summary.errors == 3
    found = run_checks(log)
    assert found[found["rule"] == "build-failed"].empty
    # An error TensorRT did not go on from still fails it.
    fatal = (
        "[E] [TRT] 10: [optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (Could"
        " not find any implementation for node pool2d.)\n"
    )
    found = run_checks(BuildLog.from_parsed(parse_text(text + fatal)))
    (message,) = found[found["rule"] == "build-failed"]["message"]
    assert message.startswith("1 TensorRT error and no engine built; the first is at line 5: 10:")


def test_an_engine_the_runtime_refused_is_not_called_a_failed_build() -> None:
    # TensorRT 8.2 on a Jetson Nano refusing an engine serialized by another release.
    text = (
        "[02/12/2022-23:52:06] [E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::34] Error"
        " Code 1: Serialization (Serialization assertion safeVersionRead =="
        " safeSerializationVersion failed.Version tag does not match. Note: Current Version: 43,"
        " Serialized Engine Version: 97)\n"
        "[02/12/2022-23:52:06] [E] [TRT] 4: [runtime.cpp::deserializeCudaEngine::76] Error Code"
        " 4: Internal Error (Engine deserialization failed.)\n"
    )
    found = run_checks(BuildLog.from_parsed(parse_text(text)))
    (message,) = found[found["rule"] == "build-failed"]["message"]
    assert message.startswith(
        "2 TensorRT errors and an engine that failed to load (none was built); the first"
    )


def test_a_tactic_skipped_in_a_later_build_excuses_no_error() -> None:
    # Made up from 8.6's lines: the first build's allocation fails and nothing is skipped in
    # it; the second build skips a tactic.
    text = (
        "[V] [TRT] Original: 3 layers\n"
        "[E] [TRT] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of"
        " memory)\n"
        "[V] [TRT] Original: 3 layers\n"
        "[W] [TRT] UNSUPPORTED_STATESkipping tactic 0 due to insufficient memory on requested size"
        " of 9261154304 detected for tactic 0x0000000000000000.\n"
    )
    log = BuildLog.from_parsed(parse_text(text))
    assert [event.build for event in log.events if event.severity == "error"] == [0]
    found = run_checks(log)
    (message,) = found[found["rule"] == "build-failed"]["message"]
    assert message.startswith("1 TensorRT error and no engine built; the first is at line 2")


def test_tactics_skipped_for_time_are_not_short_of_memory() -> None:
    # TensorRT 8.6 (a public trtexec log built with an 8 GiB workspace) drops tactics whose
    # first runs exceed the time limit.
    text = (
        "[11/02/2023-23:03:13] [V] [TRT] --------------- Timing Runner: /conv1/Conv"
        " (CaskConvolution)\n"
        "[11/02/2023-23:03:13] [V] [TRT] Fast skip Tactic:0x4efce38acc876f5c which exceed time"
        " limit during pre-run\n"
        "[11/02/2023-23:03:13] [V] [TRT] Fast skip Tactic:0x5953bec563d26434 which exceed time"
        " limit during pre-run\n"
    )
    found = run_checks(BuildLog.from_parsed(parse_text(text)))
    assert found[found["rule"] == "workspace-limited"].empty


def test_a_layers_share_of_tuning_is_never_over_the_whole() -> None:
    # Made up in 8.5's form: no per-layer times, so a layer's is measured between one-second
    # stamps, and the layers' add up to more than the 1.04766 s TensorRT reports.
    stamp = "[05/28/2023-17:24:{}] [V] [TRT] "
    text = "".join(
        stamp.format(second) + line + "\n"
        for second, line in [
            (21, "--------------- Timing Runner: /linear/MatMul (CaskConvolution)"),
            (21, "Tactic: 0x0000000000000001 Time: 0.1"),
            (22, "Tactic: 0x0000000000000002 Time: 0.2"),
            (22, "Fastest Tactic: 0x0000000000000001 Time: 0.1"),
            (23, "--------------- Timing Runner: /fc/Gemm (CaskConvolution)"),
            (23, "Tactic: 0x0000000000000003 Time: 0.1"),
            (23, "Formats and tactics selection completed in 1.04766 seconds."),
        ]
    )
    found = run_checks(BuildLog.from_parsed(parse_text(text)))
    messages = list(found.loc[found["rule"] == "build-time-hog", "message"])
    assert messages, "the layer tuned longest is a hog"
    shares = [int(message.split("% of")[0].rsplit(" ", 1)[1]) for message in messages]
    assert all(share <= 100 for share in shares), messages
