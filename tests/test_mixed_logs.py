"""Logs that mix producers and styles: per-run styles, other libraries' glog lines,
Torch-TensorRT's multi-line messages, and the sparsity notes in the layer tables."""

from __future__ import annotations

import pytest

from trtlog.analysis import BuildLog
from trtlog.check import run_checks
from trtlog.events import Diagnostic, Foreign, Unrecognized
from trtlog.parse import parse_text
from trtlog.parse.summarize import summarize
from trtlog.render.facts import summary_facts

# A Python API build, then two trtexec runs (lines in each style as TensorRT 10.16 prints them).
MIXED = """\
[07/07/2026-06:12:03] [TRT] [I] [MemUsageChange] Init CUDA: CPU +14, GPU +0, now: CPU 167, GPU 458 (MiB)
[07/07/2026-06:12:03] [TRT] [V] Original: 24 layers
&&&& RUNNING TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --onnx=model.onnx
[07/07/2026-06:12:04] [I] === Model Options ===
[07/07/2026-06:12:04] [V] [TRT] Original: 24 layers
&&&& PASSED TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --onnx=model.onnx
&&&& RUNNING TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --onnx=model.onnx
[07/07/2026-06:12:05] [I] === Model Options ===
&&&& PASSED TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --onnx=model.onnx
"""


@pytest.mark.parametrize("fast", [True, False])
def test_each_run_has_its_style(fast: bool) -> None:
    summary = summarize(parse_text(MIXED, fast=fast))
    assert summary.styles == [
        {"style": "python-api", "runs": [0]},
        {"style": "trtexec", "runs": [1, 2]},
    ]
    assert dict(summary_facts(summary))["Style"] == "python-api (run 0), trtexec (runs 1-2)"


def test_one_style_is_named_once() -> None:
    trtexec_only = MIXED.split("&&&& RUNNING", 1)[1]
    summary = summarize(parse_text("&&&& RUNNING" + trtexec_only))
    assert summary.styles == []
    assert dict(summary_facts(summary))["Style"] == "trtexec"


def test_other_libraries_glog_lines_are_foreign_not_warnings() -> None:
    text = (
        "[07/07/2026-06:12:03] [TRT] [I] [MemUsageChange] Init CUDA: CPU +14, GPU +0, now: "
        "CPU 167, GPU 458 (MiB)\n"
        # absl's Python logging (its thread id), then glog's fatal level.
        "W0725 16:43:50.537823 139848660895552 file.py:280] Some other library warns\n"
        "F0725 16:43:50.537823 139848660895552 helper.cc:12] Check failed: x\n"
        "[07/07/2026-06:12:03] [TRT] [W] Tensor DataType is determined at build time for "
        "tensors not marked as input or output.\n"
    )
    for fast in (True, False):
        log = parse_text(text, fast=fast)
        assert [type(event) for event in log.events[1:3]] == [Foreign, Foreign]
        assert [event.severity for event in log.events[1:3]] == ["warning", "fatal"]
        summary = summarize(log)
        assert (summary.warnings, summary.errors, summary.first_error) == (1, 0, None)
        assert summary.styles == []


def test_a_plugins_own_log_line_after_the_layer_listing_is_foreign() -> None:
    # TensorRT 8.5 trtexec building a custom plugin that logs through its own logger (the
    # lines below are from such a build); the line after a listing that no layer form takes is
    # kept as unrecognised unless it opens with a date and time of its own.
    listing = (
        "[06/22/2024-20:52:41] [V] [TRT] Engine Layer Information:\n"
        "Layer(PluginV2): /Identity_TRT, Tactic: 0x0000000000000000, TRT::Identity_TRT_0 "
        "(Float[1,40000,256]) -> 1 (Float[1,40000,256])\n"
    )
    for after, kind in (
        ("2024-06-22 20:52:41.045771: T identity.cpp:270] destroy \n", Foreign),
        ("Layer(NewKind): /Identity_TRT, a form not known yet\n", Unrecognized),
    ):
        for fast in (True, False):
            log = parse_text(listing + after, fast=fast)
            assert type(log.events[-1]) is kind, (after, fast)
            assert log.events[-1].line == 3
            expected = (0, 1) if kind is Foreign else (1, 0)
            assert (log.counts.unrecognized, log.counts.foreign) == expected


def test_torch_tensorrt_keeps_the_lines_of_its_multi_line_messages() -> None:
    # TRTorch's unsupported-operator error as quoted in pytorch/TensorRT#511, the envelope in
    # Torch-TensorRT's spelling; the two lines after the list are its own, left foreign.
    text = (
        "ERROR: [Torch-TensorRT] - Method requested cannot be compiled by TRTorch.\n"
        "Unsupported operators listed below:\n"
        "  -  aten::__contains__.str_list(str[] l, str item) -> (bool)\n"
        "  -  aten::dict() -> (Dict(str, Tensor))\n"
        "You can either implement converters for these ops in your application or request "
        "implementation\n"
        "https://www.github.com/nvidia/TRTorch/issues\n"
        "WARNING: [Torch-TensorRT] - Unable to read CUDA capable devices. Return status: 801\n"
        "Unable to import quantization op. Please install modelopt library\n"
    )
    for fast in (True, False):
        log = parse_text(text, fast=fast)
        first, second = log.of(Diagnostic)
        assert (first.line, first.end_line, len(first.continuation)) == (1, 4, 3)
        assert first.continuation[0] == "Unsupported operators listed below:"
        # A Python print after a one-line warning is not part of it.
        assert (second.line, second.end_line, second.continuation) == (7, 7, ())
        assert [event.line for event in log.of(Foreign)] == [5, 6, 8]


SPARSE_BUILD = """\
[07/07/2026-06:12:46] [TRT] [V] Engine Layer Information:
Layer(CaskConvolution): node_conv2d + node_relu, Tactic: 0x98e92db98836b738, x (Half[-1,1:2,28,28]) -> relu (Half[-1,32:2,28,28])
Layer(CaskConvolution): node_conv2d_1 + node_relu_1, Tactic: 0x98e92db98836b738, relu (Half[-1,32:2,28,28]) -> relu_1 (Half[-1,32:2,28,28])
Layer(CaskPooling): node_max_pool2d, Tactic: 0x98e92db98836b738, relu_1 (Half[-1,32:2,28,28]) -> y (Half[-1,32:2,14,14])
[07/07/2026-06:14:38] [TRT] [V] (Sparsity) Found 2 layer(s) eligible to use sparse tactics: node_conv2d + node_relu, node_conv2d_1 + node_relu_1
[07/07/2026-06:14:38] [TRT] [V] (Sparsity) Chose 1 layer(s) using sparse tactics: node_conv2d_1 + node_relu_1
"""


@pytest.mark.parametrize("fast", [True, False])
def test_layers_say_which_use_sparse_tactics(fast: bool) -> None:
    # Constructed: the notes' wording is 10.16's, the layer names those of its sparsity sample.
    log = BuildLog.from_parsed(parse_text(SPARSE_BUILD, fast=fast))
    for table in (log.layers, log.precision):
        rows = table.set_index("name")[["sparse_eligible", "sparse_tactic"]]
        assert rows.to_dict("index") == {
            "node_conv2d + node_relu": {"sparse_eligible": True, "sparse_tactic": False},
            "node_conv2d_1 + node_relu_1": {"sparse_eligible": True, "sparse_tactic": True},
            "node_max_pool2d": {"sparse_eligible": False, "sparse_tactic": False},
        }
        assert str(table["sparse_tactic"].dtype) == "boolean"


def test_without_sparsity_notes_the_columns_are_missing() -> None:
    log = BuildLog.from_parsed(parse_text(SPARSE_BUILD.split("[07/07/2026-06:14:38]")[0]))
    assert log.layers["sparse_tactic"].isna().all()
    assert log.layers["sparse_eligible"].isna().all()


# Torch-TensorRT 2.x's own Python loggers (lines as torch-tensorrt 2.5 prints them with
# TensorRT 10.6; the build time after the progress bar's cursor-up code).
TORCH_TENSORRT_DYNAMO = """\
DEBUG:torch_tensorrt.dynamo.lowering.passes.remove_input_alias_fixing_clones:Removing node clone_12 from graph, since it is a clone node which is the only user of placeholder arg210_1 and was inserted by the compiler.
INFO:torch_tensorrt.dynamo.conversion._TRTInterpreter:TRT INetwork construction elapsed time: 0:00:08.304947
INFO:torch_tensorrt [TensorRT Conversion Context]:[MemUsageChange] Init builder kernel library: CPU +1636, GPU +288, now: CPU 3867, GPU 1637 (MiB)
\x1b[1AINFO:torch_tensorrt.dynamo.conversion._TRTInterpreter:Build TRT engine elapsed time: 0:00:04.808916
INFO:torch_tensorrt.dynamo.conversion._TRTInterpreter:TRT Engine uses: 5411340 bytes of Memory
"""


@pytest.mark.parametrize("fast", [True, False])
def test_torch_tensorrt_build_time_is_a_build(fast: bool) -> None:
    from trtlog.events import PhaseDuration

    log = parse_text(TORCH_TENSORRT_DYNAMO, fast=fast)
    phases = [
        (event.line, event.phase, event.seconds, event.build) for event in log.of(PhaseDuration)
    ]
    assert phases == [
        (2, "TRT INetwork construction", pytest.approx(8.304947), None),
        (4, "Build TRT engine", pytest.approx(4.808916), 0),
    ]
    # Its other messages are its own, never TensorRT's (no "Removing <layer>" here).
    assert [type(event) for event in log.events if event.line in (1, 5)] == [Foreign, Foreign]
    summary = summarize(log)
    assert (summary.builds, summary.build_seconds) == (1, pytest.approx(4.808916))
    assert log.counts.unrecognized == 0 and log.counts.foreign == 2


@pytest.mark.parametrize(
    "seconds_text, seconds",
    [("0:00:04.808916", 4.808916), ("1 day, 2:03:04", 93784.0), ("0:01:05", 65.0)],
)
def test_torch_tensorrt_elapsed_times(seconds_text: str, seconds: float) -> None:
    from trtlog.events import PhaseDuration

    line = f"INFO:torch_tensorrt.dynamo.conversion._TRTInterpreter:Build TRT engine elapsed time: {seconds_text}\n"
    (phase,) = parse_text(line).of(PhaseDuration)
    assert phase.seconds == pytest.approx(seconds)


# TensorRT-LLM's C++ runtime loading an engine (as Triton's TensorRT-LLM backend logs it): its
# own messages, and TensorRT's, which it relays under its own prefix.
TRTLLM_RUNTIME = """\
[TensorRT-LLM][INFO] Engine version 0.15.0 found in the config file, assuming engine(s) built by new builder API.
[TensorRT-LLM][INFO] Loaded engine size: 3404 MiB
[TensorRT-LLM][INFO] [MemUsageChange] TensorRT-managed allocation in IExecutionContext creation: CPU +0, GPU +1234, now: CPU 0, GPU 4638 (MiB)
[TensorRT-LLM][WARNING][1] Device 0 peer access Device 1 is not available.
[TensorRT-LLM][INFO] Using 10718 tokens in paged KV cache.
"""


@pytest.mark.parametrize("fast", [True, False])
def test_tensorrt_llm_runtime_relays_tensorrts_messages(fast: bool) -> None:
    log = parse_text(TRTLLM_RUNTIME, fast=fast)
    kinds = [type(event).__name__ for event in log.events]
    # TensorRT's messages are read; the runtime's own are another program's lines.
    assert kinds == ["Foreign", "MemoryAllocation", "MemUsageChange", "Diagnostic", "Foreign"]
    assert [event.severity for event in log.events] == ["info"] * 3 + ["warning", "info"]
    assert {event.producer for event in log.events} == {"trtllm"}
    summary = summarize(log)
    assert (summary.log_style, summary.recognized, summary.foreign) == ("tensorrt-llm", 3, 2)


# TF-TRT calibrating an INT8 engine (TensorFlow 2.4 with TensorRT 7.2): TensorRT's errors through
# TF-TRT's logger, TensorFlow's own lines around them (tensorflow/tensorrt issue 119).
TF_TRT = """\
2021-01-07 22:13:55.902438: E tensorflow/compiler/tf2tensorrt/utils/trt_logger.cc:41] DefaultLogger ../rtSafe/safeContext.cpp (105) - Cudnn Error in initializeCommonContext: 1 (Could not initialize cudnn, please check cudnn installation.)
2021-01-07 22:13:55.902585: E tensorflow/compiler/tf2tensorrt/kernels/trt_engine_op.cc:838] Calibration failed: Internal: Failed to build TensorRT engine
2021-01-07 22:13:55.903016: I tensorflow/compiler/tf2tensorrt/kernels/trt_engine_op.cc:812] Starting calibration thread on device 0, Calibration Resource @ 0x7f7c7c01ed10
"""


@pytest.mark.parametrize("fast", [True, False])
def test_tf_trt_relays_tensorrts_errors(fast: bool) -> None:
    log = parse_text(TF_TRT, fast=fast)
    assert [type(event) for event in log.events] == [Diagnostic, Foreign, Foreign]
    error = log.events[0]
    assert (error.severity, error.producer, error.line) == ("error", "trt", 1)
    assert error.timestamp is not None and error.timestamp.microsecond == 902438
    summary = summarize(log)
    # TensorFlow's own error is not the build's.
    assert (summary.log_style, summary.recognized, summary.foreign) == ("tf-trt", 1, 2)
    assert summary.errors == 1 and summary.first_error is not None
    assert summary.first_error.startswith("line 1: ")


@pytest.mark.parametrize("fast", [True, False])
def test_tf_trt_built_as_a_dependency_relays_tensorrts_errors(fast: bool) -> None:
    # TensorFlow Serving and other programs build TensorFlow under "external/org_tensorflow/"
    # (Adlik issue 497, TensorFlow 2.x with TensorRT 7.2).
    text = TF_TRT.replace(" tensorflow/", " external/org_tensorflow/tensorflow/")
    log = parse_text(text, fast=fast)
    assert [type(event) for event in log.events] == [Diagnostic, Foreign, Foreign]
    summary = summarize(log)
    assert (summary.log_style, summary.errors, summary.foreign) == ("tf-trt", 1, 2)


# Paddle Inference relaying TensorRT 8.0's messages through glog from its logger's file, beside
# its own glog lines (PaddleOCR issue 6737, Paddle issue 28505).
PADDLE = """\
I1110 10:23:48.005442 17962 engine.cc:83] Run Paddle-TRT FP16 mode
W0628 12:15:05.175945  2834 helper.h:107] TensorRT was linked against cuDNN 8.2.1 but loaded cuDNN 8.1.1
E0628 12:15:08.423333  2940 helper.h:111] 10: [optimizer.cpp::computeCosts::1855] Error Code 10: Internal Error (Could not find any implementation for node pool2d (Output: pool2d_1.tmp_0188).)
I1110 10:24:08.889302 17962 tensorrt_subgraph_pass.cc:115] ---  detect a sub-graph with 4 nodes
"""


@pytest.mark.parametrize("fast", [True, False])
def test_paddle_inference_relays_tensorrts_messages(fast: bool) -> None:
    log = parse_text(PADDLE, fast=fast)
    assert [(type(event), event.producer) for event in log.events] == [
        (Foreign, "glog"),
        (Diagnostic, "trt"),
        (Diagnostic, "trt"),
        (Foreign, "glog"),
    ]
    error = log.events[2]
    assert (error.severity, error.error_code, error.category) == ("error", 10, "Internal Error")
    summary = summarize(log)
    # Paddle's own lines outnumber TensorRT's: the style is that of TensorRT's.
    assert (summary.log_style, summary.warnings, summary.errors) == ("paddle-inference", 1, 1)


def test_a_plugins_logger_with_tensorflows_prefix_is_not_tensorflow() -> None:
    # A custom plugin's own logger prints the same prefix for its source file (TensorRT 8.5).
    line = "2024-06-22 20:52:41.518511: I identity.cpp:161] enqueue hello"
    (event,) = parse_text("[06/22/2024-20:52:41] [I] Starting inference\n" + line).events[1:]
    assert (type(event), event.producer, event.severity) == (Foreign, "none", None)


@pytest.mark.parametrize("fast", [True, False])
def test_tensorrts_lines_pasted_after_blanks_are_its_own(fast: bool) -> None:
    # A log pasted into a bug report with its stamps cut away, a blank left before each tag
    # (TensorRT 7.1's CUDA error, TensorRT issue 1976); an indented line between them stays
    # under the record above it (here the error's own detail).
    text = "\n".join(
        [
            "[05/11/2022-02:42:27] [E] [TRT] ../rtSafe/safeRuntime.cpp (32) - Cuda Error in "
            "free: 700 (an illegal memory access was encountered)",
            "  what():  std::exception",
            " [E] [TRT] ../builder/cudnnBuilderUtils.cpp (354) - Cuda Error in findFastestTactic:"
            " 77 (an illegal memory access was encountered)",
        ]
    )
    log = parse_text(text, fast=fast)
    assert [type(event) for event in log.events] == [Diagnostic, Diagnostic]
    assert [(event.line, event.end_line) for event in log.events] == [(1, 2), (3, 3)]
    assert [event.severity for event in log.events] == ["error", "error"]
    assert summarize(log).errors == 2


def _prefixed(prefix: str, fast: bool) -> tuple[BuildLog, BuildLog]:
    from tests.conftest import SAMPLES

    text = (SAMPLES / "trtexec_8.x_build.log").read_text()
    prefixed = "".join(prefix + line for line in text.splitlines(keepends=True))
    plain = BuildLog.from_parsed(parse_text(text, fast=fast))
    return plain, BuildLog.from_parsed(parse_text(prefixed, fast=fast))


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize(
    "prefix",
    [
        "2025-03-01T10:00:00.1234567Z ",  # GitHub Actions' raw log
        "2026-08-30T03:51:41.123456789Z ",  # docker logs -t, kubectl logs --timestamps
        "2023-03-23 16:02:43.906237724  ",  # s6-overlay
    ],
)
def test_a_wrappers_stamp_before_every_line_hides_nothing(fast: bool, prefix: str) -> None:
    plain, prefixed = _prefixed(prefix, fast)
    assert plain.summary.outcome == "PASSED" and len(plain.layers) == 6
    for field in (
        "tensorrt_version",
        "precision",
        "runs",
        "builds",
        "outcome",
        "warnings",
        "build_seconds",
        "recognized",
        "unrecognized",
        "foreign",
    ):
        assert getattr(prefixed.summary, field) == getattr(plain.summary, field), field
    # The engine's layers, bare lines under their record, are read too.
    assert prefixed.layers["name"].tolist() == plain.layers["name"].tolist()


@pytest.mark.parametrize("fast", [True, False])
def test_a_run_banner_after_any_prefix_is_read(fast: bool) -> None:
    # A wrapper script's own stamp before each line (a trtexec build run by a training repo's
    # script): the run's banners and enveloped lines are read; its bare lines are not.
    plain, prefixed = _prefixed("2023-12-04_08:50:03#", fast)
    for field in ("tensorrt_version", "precision", "runs", "builds", "outcome", "warnings"):
        assert getattr(prefixed.summary, field) == getattr(plain.summary, field), field


@pytest.mark.parametrize("fast", [True, False])
def test_a_logger_printing_the_level_as_a_word(fast: bool) -> None:
    # tao-converter (TensorRT 8.5, an Isaac ROS issue): TensorRT's messages and its own.
    text = (
        "[INFO] [MemUsageChange] Init CUDA: CPU +564, GPU +0, now: CPU 1929, GPU 277 (MiB)\n"
        "[WARNING] The implicit batch dimension mode has been deprecated. Please create the"
        " network with NetworkDefinitionCreationFlag::kEXPLICIT_BATCH flag whenever possible.\n"
        "[ERROR] 4: [network.cpp::validate::2738] Error Code 4: Internal Error (Network must"
        " have at least one output)\n"
        "[ERROR] Unable to create engine\n"
        "[INFO] [launch]: Default logging verbosity is set to INFO\n"
    )
    log = parse_text(text, fast=fast)
    kinds = [type(event).__name__ for event in log.events]
    # Its own error shares the prefix: only TensorRT's shapes of an error are TensorRT's.
    assert kinds == ["MemUsageChange", "Diagnostic", "Diagnostic", "Foreign", "Foreign"]
    assert log.events[2].error_code == 4
    summary = summarize(log)
    assert (summary.log_style, summary.warnings, summary.errors) == ("custom-logger", 1, 1)
    found = run_checks(BuildLog.from_parsed(log))
    assert found[found["rule"] == "build-failed"]["line"].tolist() == [3]


@pytest.mark.parametrize("fast", [True, False])
def test_frigates_tensorrt_detector_relays_tensorrts_messages(fast: bool) -> None:
    # Frigate 0.12 on TensorRT 8.5 (a Frigate issue): s6-overlay's stamp, then Frigate's
    # logging format; the second run's lines under docker compose's service name.
    s6 = "2023-03-23 16:02:43.953339693  "
    text = (
        f"{s6}[2023-03-23 16:02:43] frigate.detectors.plugins.tensorrt INFO    : Loaded engine"
        " size: 34 MiB\n"
        f"{s6}[2023-03-23 16:02:43] frigate.detectors.plugins.tensorrt ERROR   : 1:"
        " [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization"
        " (Serialization assertion stdVersionRead == serializationVersion failed.Version tag"
        " does not match. Note: Current Version: 213, Serialized Engine Version: 232)\n"
        f"{s6}[2023-03-23 16:02:44] frigate.app                    INFO    : Stopping\n"
        f"frigate    | {s6}[2023-03-23 16:02:45] frigate.detectors.plugins.tensorrt ERROR   :"
        " 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine"
        " deserialization failed.)\n"
    )
    own_error = (
        f"{s6}[2023-03-23 16:02:37] frigate.detectors.plugins.tensorrt ERROR   : ERROR: failed to"
        " load libraries. libcudart.so.12: cannot open shared object file\n"
    )
    log = parse_text(own_error + text, fast=fast)
    kinds = [type(event).__name__ for event in log.events]
    # The detector's own error is Frigate's; TensorRT's carry their error codes.
    assert kinds == ["Foreign", "MemoryAllocation", "Diagnostic", "Foreign", "Diagnostic"]
    assert [event.error_code for event in log.events if isinstance(event, Diagnostic)] == [1, 4]
    summary = summarize(log)
    assert (summary.log_style, summary.errors, summary.foreign) == ("python-logging", 2, 2)
    found = run_checks(BuildLog.from_parsed(log))
    (message,) = found[found["rule"] == "build-failed"]["message"]
    assert "an engine that failed to load (none was built)" in message


@pytest.mark.parametrize("fast", [True, False])
def test_python_logging_with_the_level_alone_relays_tensorrts_messages(fast: bool) -> None:
    # Torch-TensorRT building FP8 through an application's logging format (an NVIDIA docstring,
    # TensorRT 10.x): a skipped tactic, the Myelin region that found none, the build's failure.
    text = (
        "22:32:34 - ERROR - Error Code: 9: Skipping tactic 0x0000000000000000 due to exception"
        " [autotuner.cpp:3296: get_best_tactics] Autotuner: no tactics to implement operation:\n"
        "22:32:34 - INFO - Loading the calibration data\n"
        "22:32:34 - ERROR - IBuilder::buildEngineWithConfig: Error Code 10: Internal Error (Could"
        " not find any implementation for node {ForeignNode[x...y]}.)\n"
    )
    log = parse_text(text, fast=fast)
    # Only an error in TensorRT's shape is TensorRT's where the application's share the prefix.
    errors = [event for event in log.events if isinstance(event, Diagnostic)]
    assert [(event.error_code, event.line) for event in errors] == [(10, 3)]
    assert [type(event) for event in log.events[:2]] == [Foreign, Foreign]
    found = run_checks(BuildLog.from_parsed(log))
    (message,) = found[found["rule"] == "build-failed"]["message"]
    assert message.startswith("1 TensorRT error and no engine built; the first is at line 3")
