"""Forms of real logs from bug reports (lines quoted as printed): INT8 calibration's steps, a
run's version on its closing banner, the engine's tactic of each layer in the layers view, and
Polygraphy's builder configuration."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.test_claims import same
from trtlog.analysis import BuildLog
from trtlog.analysis.precision import requested_precisions
from trtlog.analysis.queries import fusions_view, layers_view
from trtlog.events import (
    BuilderNote,
    Foreign,
    OptionLine,
    PhaseDuration,
    PhaseMarker,
    SectionHeader,
    TimingCache,
)
from trtlog.parse import parse_text
from trtlog.parse.summarize import summarize

# TensorRT 7's sample_int8 calibrating (the steps indented by two blanks, as printed).
CALIBRATION = """\
[I] [TRT] Starting Calibration with batch size 50.
[I] [TRT]   Calibrated batch 0 in 0.00211989 seconds.
[I] [TRT]   Calibrated batch 1 in 0.00203472 seconds.
[I] [TRT]   Post Processing Calibration data in 0.180447 seconds.
[I] [TRT] Calibration completed in 0.64 seconds.
[I] [TRT] Writing Calibration Cache for calibrator: TRT-7000-EntropyCalibration2
[04/20/2024-08:47:42] [TRT] [I] Timing cache disabled. Turning it on will improve builder speed.
"""


@pytest.mark.parametrize("fast", [True, False])
def test_int8_calibrations_steps_are_read(fast: bool) -> None:
    log = parse_text(CALIBRATION, fast=fast)
    assert [type(event) for event in log.events] == [
        PhaseMarker,
        BuilderNote,
        BuilderNote,
        BuilderNote,
        PhaseDuration,
        BuilderNote,
        TimingCache,
    ]
    assert (log.counts.recognized, log.counts.unrecognized) == (7, 0)
    cache = log.events[-1]
    assert isinstance(cache, TimingCache) and cache.action == "disabled"
    assert same(log.events, parse_text(CALIBRATION, fast=not fast).events)


def test_the_version_on_a_runs_closing_banner_is_the_logs() -> None:
    # The start of the log was not kept: only "&&&& PASSED" names the version.
    text = (
        "[06/10/2023-09:51:10] [I] Throughput: 1190.98 qps\n"
        "&&&& PASSED TensorRT.trtexec [TensorRT v8412] # trtexec --loadEngine=model.engine\n"
    )
    summary = summarize(parse_text(text))
    assert (summary.tensorrt_version, summary.tensorrt_version_source) == ("8.4.12", "stated")


# TensorRT 8.5 trtexec --int8 --verbose: the engine's layers, each with the tactic it runs, and
# no tuning kept in the log.
ENGINE_LAYERS = """\
[02/08/2023-15:25:37] [V] [TRT] Engine Layer Information:
Layer(CaskConvolution): Conv_0 + PWN(Clip_3), Tactic: 0x02d9f5211e4d2d82, Reformatted Input Tensor 0 to Conv_0 + PWN(Clip_3)[Int8(1,3,512,768)] -> 395[Int8(1,32,256,384)]
Layer(CudaDepthwiseConvolution): Conv_4 + PWN(Clip_7), Tactic: 0xfffffffffffffffd, 395[Int8(1,32,256,384)] -> 400[Int8(1,32,256,384)]
"""


def test_the_layers_view_names_the_tactic_each_engine_layer_runs() -> None:
    view = layers_view(BuildLog.from_parsed(parse_text(ENGINE_LAYERS)))
    assert list(view["name"]) == ["Conv_0 + PWN(Clip_3)", "Conv_4 + PWN(Clip_7)"]
    assert list(view["tactic"]) == ["0x02d9f5211e4d2d82", "0xfffffffffffffffd"]


# Polygraphy 0.47 (TensorRT 8.6) and 0.33 (8.0) building with --fp16 and --int8, and 0.2x's
# one-line form: the precisions the build enabled are read from its builder configuration.
POLYGRAPHY_BUILDS = [
    (
        """\
[I] Building engine with configuration:
    Flags                  | [FP16, INT8]
    Engine Capability      | EngineCapability.DEFAULT
    Memory Pools           | [WORKSPACE: 953.67 MiB, TACTIC_DRAM: 24209.12 MiB]
[I] Finished engine building in 12.280 seconds
""",
        ["fp32", "fp16", "int8"],
    ),
    (
        """\
[I] Building engine with configuration:
    Workspace            | 1000000000 bytes (953.67 MiB)
    Precision            | TF32: False, FP16: True, INT8: False, Strict Types: False
[I] Finished engine building in 6.857 seconds
""",
        ["fp32", "fp16"],
    ),
    (
        "[I] Building engine with configuration: max_workspace_size=16777216 bytes (16.00 MB) | "
        "tf32=False, fp16=False, int8=True, strict_types=False | 1 profiles\n",
        ["fp32", "int8"],
    ),
    (
        """\
[I] Building engine with configuration:
    Flags                  | []
    Engine Capability      | EngineCapability.STANDARD
""",
        ["fp32"],
    ),
]


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize(("text", "enabled"), POLYGRAPHY_BUILDS)
def test_polygraphys_builder_configuration_says_the_precisions(
    text: str, enabled: list[str], fast: bool
) -> None:
    log = parse_text(text, fast=fast)
    assert log.counts.unrecognized == 0 and log.counts.foreign == 0
    header, *rows = [event for event in log.events if type(event) is not PhaseDuration]
    assert isinstance(header, SectionHeader) and header.title == "Builder Configuration"
    assert all(isinstance(row, OptionLine) for row in rows)
    assert [row.section for row in rows] == ["Builder Configuration"] * len(rows)
    # Each row is its own line of the log.
    one_line = text.count("\n") == 1
    assert [row.line for row in rows] == ([1] if one_line else list(range(2, 2 + len(rows))))
    assert requested_precisions(log.events, []) == enabled
    expected = "Precision: " + "+".join(name.upper() for name in enabled)
    assert summarize(log).precision == [expected]


def test_polygraphys_settings_are_kept_as_printed() -> None:
    log = parse_text(POLYGRAPHY_BUILDS[0][0])
    rows = {event.key: event.value for event in log.of(OptionLine)}
    assert rows == {
        "Flags": "[FP16, INT8]",
        "Engine Capability": "EngineCapability.DEFAULT",
        "Memory Pools": "[WORKSPACE: 953.67 MiB, TACTIC_DRAM: 24209.12 MiB]",
    }


def test_signed_and_unsigned_numbers_fold_into_one_unrecognised_form() -> None:
    # Lines of no known form, made up for the test: a signed and an unsigned number.
    text = (
        "[V] [TRT] --------------- Picked 14 (-6654219059996125534)\n"
        "[V] [TRT] --------------- Picked 3 (1)\n"
        "[V] [TRT] conv-1 is not fused\n"
    )
    forms = dict(summarize(parse_text(text)).commonest_unrecognized)
    assert forms == {
        "[V] [TRT] --------------- Picked N (N)": 2,
        "[V] [TRT] conv-N is not fused": 1,
    }


# Ultralytics exporting YOLO to TensorRT 10.12 (INFO level; its own lines around TensorRT's).
ULTRALYTICS_EXPORT = """\
Ultralytics 8.3.75 🚀 Python-3.8.19 torch-1.12.1+cu113 CUDA:0 (NVIDIA GeForce RTX 3090, 24268MiB)
TensorRT: starting export with TensorRT 10.12.0.36...
[07/06/2025-14:05:50] [TRT] [I] [MemUsageChange] Init CUDA: CPU -2, GPU +0, now: CPU 2102, GPU 797 (MiB)
TensorRT: input "images" with shape(1, 3, 640, 640) DataType.FLOAT
TensorRT: building FP16 engine as Results/Vehicles/YOLOv10n/runs/detect/train/weights/best.engine
[07/06/2025-14:05:51] [TRT] [I] Local timing cache in use. Profiling results in this builder pass will not be stored.
[07/06/2025-14:08:32] [TRT] [I] Engine generation completed in 161.128 seconds.
"""


def test_an_exporters_banner_names_the_version_and_precision() -> None:
    log = parse_text(ULTRALYTICS_EXPORT)
    summary = summarize(log)
    assert (summary.tensorrt_version, summary.tensorrt_version_source) == ("10.12.0.36", "stated")
    assert summary.precision == ["Precision: FP32+FP16"]
    assert requested_precisions(log.events, summary.precision) == ["fp32", "fp16"]
    assert summary.gpu == "NVIDIA GeForce RTX 3090"


def test_the_precision_flags_on_a_runs_closing_banner_are_the_runs() -> None:
    # The start of the log was not kept: only "&&&& PASSED" shows the command.
    text = (
        "[06/10/2023-09:51:10] [I] Throughput: 1190.98 qps\n"
        "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --fp16\n"
    )
    summary = summarize(parse_text(text))
    assert summary.precision == ["--fp16"]


# jetson-inference's imagenet loading a cached FP16 engine (TensorRT 8.5.1): its own lines and
# TensorRT's share the "[TRT]    " prefix.
JETSON_INFERENCE = """\
[TRT]    TensorRT version 8.5.1
[TRT]    loading NVIDIA plugins...
[TRT]    detected model format - caffe  (extension '.caffemodel')
[TRT]    desired precision specified for GPU: FASTEST
[TRT]    native precisions detected for GPU:  FP32, FP16, INT8
[TRT]    selecting fastest native precision for GPU:  FP16
[TRT]    Loaded engine size: 15 MiB
[TRT]    CUDA engine context initialized on device GPU:
[TRT]       -- layers       75
[TRT]       binding 0
                -- index   0
[TRT]    Timing Report networks/bvlc_googlenet.caffemodel
[TRT]    Network       CPU   1.04583ms  CUDA   0.86154ms
"""


@pytest.mark.parametrize("fast", [True, False])
def test_jetson_inferences_own_lines_are_its_own(fast: bool) -> None:
    log = parse_text(JETSON_INFERENCE, fast=fast)
    assert log.counts.unrecognized == 0
    producers = {event.line: event.producer for event in log.of(Foreign)}
    assert set(producers) == {2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13}
    # Line 11 has no prefix of its own: a bare line under the binding above it.
    assert producers.pop(11) == "none"
    assert set(producers.values()) == {"jetson-inference"}
    summary = summarize(log)
    assert (summary.tensorrt_version, summary.tensorrt_version_source) == ("8.5.1", "stated")
    assert summary.precision == ["Precision: FP32+FP16"]


# trtexec 8.4's performance summary pasted without its dates: trtexec's lines keep a bare "[I] ".
UNDATED_SUMMARY = """\
&&&& RUNNING TensorRT.trtexec [TensorRT v8401] # trtexec --onnx=a.onnx --fp16
[I] === Performance summary ===
[I] Throughput: 476.66 qps
[I] GPU Compute Time: min = 2.05615 ms, max = 2.59482 ms, mean = 2.09467 ms, median = 2.08276 ms, percentile(99%) = 2.58971 ms
[I] Total GPU Compute Time: 2.93304 s
&&&& PASSED TensorRT.trtexec [TensorRT v8401] # trtexec --onnx=a.onnx --fp16
"""


@pytest.mark.parametrize("fast", [True, False])
def test_an_undated_performance_summary_is_read(fast: bool) -> None:
    log = parse_text(UNDATED_SUMMARY, fast=fast)
    assert log.counts.unrecognized == 0
    perf = BuildLog.from_parsed(log).perf
    assert list(perf["throughput_qps"]) == [476.66]
    assert list(perf["gpu_compute_time_mean_ms"]) == [2.09467]
    assert list(perf["total_gpu_compute_time_s"]) == [2.93304]


def test_a_custom_loggers_lines_are_not_taken_for_trtexecs_reports() -> None:
    # Made up for the test: a training script's lines through a "[I] " logger, shaped like a
    # profile's row and 7.x's statistics.
    log = parse_text("[I] Epoch 3: loss 0.123 0.456 0.789\n[I] min: 1.2 ms\n")
    assert [type(event).__name__ for event in log.events] == ["Unrecognized", "Unrecognized"]


# trtexec 7.1's report pasted without its dates (DLA on a Xavier, lines of a public README): a
# metric's statistics and the profile, read as trtexec's once a title of its report opened it.
UNDATED_LEGACY_REPORT = """\
[I] GPU Compute
[I] min: 3.60278 ms
[I] mean: 3.68068 ms
[I] percentile: 3.87695 ms at 99%
[I] total compute time: 3.68068 s
[I] \n[I] === Profile (1514 iterations ) ===
[I]                           Layer   Time (ms)   Avg. Time (ms)   Time %
[I]                     data to nvm       68.17             0.05      1.2
[I]                            prob       11.27             0.01      0.2
[I] [TRT] Deserialization required 1186 microseconds.
[I] Epoch 3: loss 0.123 0.456 0.789
"""


@pytest.mark.parametrize("fast", [True, False])
def test_an_undated_legacy_report_is_read_after_its_title(fast: bool) -> None:
    log = parse_text(UNDATED_LEGACY_REPORT, fast=fast)
    kinds = [type(event).__name__ for event in log.events]
    assert kinds[:5] == ["LegacyPerfHeader", *["LegacyPerfStatistic"] * 4]
    assert kinds[6:10] == ["ProfileHeader", "ProfileColumns", "ProfileRow", "ProfileRow"]
    # A line of the library ends the report: a row-shaped line after it is no row.
    assert kinds[-1] == "Unrecognized"
    log_tables = BuildLog.from_parsed(log)
    assert log_tables.perf["gpu_compute_time_mean_ms"].tolist() == [3.68068]
    profile = log_tables.profile
    assert profile[["iterations", "layer", "total_ms"]].values.tolist() == [
        [1514, "data to nvm", 68.17],
        [1514, "prob", 11.27],
    ]


# trtexec 8.5 on Orin at INFO level: the list of layers placed on each device is the only list
# of the engine's layers.
PLACED_LAYERS = """\
[03/14/2023-10:02:11] [I] [TRT] ---------- Layers Running on DLA ----------
[03/14/2023-10:02:11] [I] [TRT] ---------- Layers Running on GPU ----------
[03/14/2023-10:02:11] [I] [TRT] [GpuLayer] CONVOLUTION: /stem/stem.0/Conv + /stem/stem.2/Relu
[03/14/2023-10:02:11] [I] [TRT] [GpuLayer] POOLING: /down_3/MaxPool
"""


def test_the_layers_placed_on_each_device_show_what_was_fused() -> None:
    view = fusions_view(BuildLog.from_parsed(parse_text(PLACED_LAYERS)))
    assert list(view["engine_layer"]) == [
        "/stem/stem.0/Conv + /stem/stem.2/Relu",
        "/down_3/MaxPool",
    ]
    assert list(view["original_layers"]) == [
        "/stem/stem.0/Conv, /stem/stem.2/Relu",
        "/down_3/MaxPool",
    ]
    assert list(view["line"]) == [3, 4]


def test_tritons_metrics_line_names_the_gpu() -> None:
    # Triton 2.x at start-up; its own lines are another program's.
    text = (
        "I0521 10:04:12.765492 107 metrics.cc:877] Collecting metrics for GPU 0: NVIDIA GeForce"
        " RTX 3090\n"
        "[05/21/2024-10:04:13] [TRT] [I] Loaded engine size: 15 MiB\n"
    )
    assert summarize(parse_text(text)).gpu == "NVIDIA GeForce RTX 3090"


# TensorRT 5's sample_fasterRCNN (INFO): each layer's runners, named by code, then the choice.
LEGACY_CHOICES = """\
[I] [TRT] --------------- Timing fc6 + relu6(6)
[I] [TRT] Tactic 0 time 105.542
[I] [TRT] Tactic 4 time 86.4471
[I] [TRT] Tactic 1 time 67.9823
[I] [TRT] Tactic 5 time 68.6576
[I] [TRT] --------------- Timing fc6 + relu6(15)
[I] [TRT] Tactic 2624962759642542471 time 77.3745
[I] [TRT] Tactic -7597689592892725774 time 70.6929
[I] [TRT] --------------- Chose 6 (1)
[I] [TRT] --------------- Timing rpn_conv/3x3 + rpn_relu/3x3(33)
[I] [TRT] --------------- Chose 14 (-6654219059996125534)
"""


@pytest.mark.parametrize("fast", [True, False])
def test_5xs_choices_name_the_runner_by_its_code(fast: bool) -> None:
    log = BuildLog.from_parsed(parse_text(LEGACY_CHOICES, fast=fast))
    assert log.summary.unrecognized == 0
    choices = log.choices
    assert list(choices["layer"]) == ["fc6 + relu6", "rpn_conv/3x3 + rpn_relu/3x3"]
    assert list(choices["combination"]) == [0, 1]
    assert list(choices["runner"]) == ["6", "14"]
    assert list(choices["tactic"]) == ["0x0000000000000001", "0xa3a777053f4c16a2"]
    # Runner 6's tactic 1 (67.9823 ms); the runner-up is its tactic 5 (68.6576 ms). The second
    # layer's runner 14 was not timed in this log.
    assert choices["best_ms"].iloc[0] == 67.9823
    assert choices["runner_up_ms"].iloc[0] == 68.6576
    assert (choices["tactics_tried"].iloc[0], choices["runners_tried"].iloc[0]) == (6, 2)
    assert pd.isna(choices["best_ms"].iloc[1])


def test_a_layer_timed_again_after_its_choice_is_tuned_anew() -> None:
    # Made up in 5.x's forms: one layer timed twice (as for two formats), each time chosen.
    text = (
        "[I] [TRT] --------------- Timing conv1(14)\n[I] [TRT] Tactic 0 time 0.5\n"
        "[I] [TRT] Tactic 1 time 0.4\n[I] [TRT] --------------- Chose 14 (1)\n"
        "[I] [TRT] --------------- Timing conv1(14)\n[I] [TRT] Tactic 0 time 0.2\n"
        "[I] [TRT] Tactic 1 time 0.3\n[I] [TRT] --------------- Chose 14 (0)\n"
    )
    choices = BuildLog.from_parsed(parse_text(text)).choices
    assert list(choices["combination"]) == [0, 1]
    assert list(choices["best_ms"]) == [0.4, 0.2]
    assert list(choices["runner_up_ms"]) == [0.5, 0.3]
    assert list(choices["tactics_tried"]) == [2, 2]


# TensorRT 7's per-layer memory names each layer's weights first (Python API, VERBOSE).
LAYER_MEMORY_7 = """\
[TensorRT] VERBOSE: Layer: Conv_37 Weights: 0 HostPersistent: 1664 DevicePersistent: 271360
[TensorRT] VERBOSE: Layer: 501 copy Weights: 0 HostPersistent: 0 DevicePersistent: 0
[TensorRT] VERBOSE: Total Weight Memory: 0
"""


@pytest.mark.parametrize("fast", [True, False])
def test_7xs_layer_memory_keeps_the_layers_name(fast: bool) -> None:
    log = BuildLog.from_parsed(parse_text(LAYER_MEMORY_7, fast=fast))
    memory = log.memory
    assert list(memory["layer"]) == ["Conv_37", "501 copy"]
    assert list(memory["device_persistent"]) == [271360, 0]
    totals = log.memory_totals
    assert list(totals[totals["kind"] == "total"]["item"]) == ["weights"]


# TensorRT 10.14's sample_onnx_mnist: the sample's own lines in trtexec's envelope.
SAMPLE_RUN = """\
&&&& RUNNING TensorRT.sample_onnx_mnist [TensorRT v101401] [b48] # ./sample_onnx_mnist --int8
[11/27/2025-05:30:15] [I] Building and running a GPU inference engine for Onnx MNIST
[11/27/2025-05:30:20] [I] Input:
[11/27/2025-05:30:20] [I] @@@@@@@@@@@@@@@@@@@@@@@@@@@@
@@@@@@@@@@@=   ++++#++=*@@@@
[11/27/2025-05:30:20] [I] Output:
[11/27/2025-05:30:20] [I]  Prob 8  0.0000 Class 8:
[11/27/2025-05:30:20] [I]  Prob 9  0.9996 Class 9: **********
&&&& PASSED TensorRT.sample_onnx_mnist [TensorRT v101401] [b48] # ./sample_onnx_mnist --int8
"""


@pytest.mark.parametrize("fast", [True, False])
def test_a_samples_own_lines_are_its_own(fast: bool) -> None:
    log = parse_text(SAMPLE_RUN, fast=fast)
    assert log.counts.unrecognized == 0
    producers = {event.line: event.producer for event in log.of(Foreign)}
    assert {line: producers[line] for line in (2, 4, 7, 8)} == dict.fromkeys((2, 4, 7, 8), "sample")


@pytest.mark.parametrize("fast", [True, False])
def test_a_rule_of_28_characters_is_not_a_samples_digit(fast: bool) -> None:
    log = parse_text("[11/27/2025-05:30:20] [I] ============================\n", fast=fast)
    assert [type(event).__name__ for event in log.events] == ["Unrecognized"]


# TensorRT 10.10's layer listing of a BERT model (TensorRT issue 4397): the Myelin region reads
# token ids and a mask, and computes in FP16. The second layer is made up for the test: a layer
# of integers alone.
TOKEN_IDS_LAYER = (
    "[03/19/2025-08:01:02] [V] [TRT] Engine Layer Information:\n"
    "Layer(Myelin): {ForeignNode[/encoder/Unsqueeze_3 + /encoder/Unsqueeze_4.../match_model/Squeeze]},"
    " Tactic: 0x0000000000000000, concat_ids (Int32[1,40]), concat_mask (Bool[1,40]), sent_ids"
    " (Int32[1,40]), pos_ids (Int32[1,40]) -> Reformatted Output Tensor 0 to {ForeignNode[/encoder/"
    "Unsqueeze_3 + /encoder/Unsqueeze_4.../match_model/Squeeze]} (Half[1])\n"
    "Layer(Gather): shape_of_ids, Tactic: 0x0000000000000000, ids (Int32[2]) -> dims (Int32[2])\n"
)


def test_a_layer_that_reads_token_ids_computes_in_its_data_type() -> None:
    layers = BuildLog.from_parsed(parse_text(TOKEN_IDS_LAYER)).layers
    # Only integers in and out: the layer's precision is theirs.
    assert list(layers["precision"]) == ["fp16", "int32"]


# A TensorRT 10 build in a ROS 2 node: launch writes the node's name before each of its lines.
ROS2_LAUNCH = """\
[INFO] [launch]: Default logging verbosity is set to INFO
[mmros_detection2d_exe-1] [I] [TRT] [MemUsageChange] Init CUDA: CPU +0, GPU +0, now: CPU 35, GPU 952 (MiB)
[mmros_detection2d_exe-1] [I] [TRT] No checker registered for op: TRTBatchedNMS. Attempting to check as plugin.
[mmros_detection2d_exe-1] [I] [TRT] Engine generation completed in 42.7299 seconds.
[mmros_detection2d_exe-1] [E] [TRT] ModelImporter.cpp:967: ERROR: ModelImporter.cpp:796 In function importModel:
[mmros_detection2d_exe-1] terminate called after throwing an instance of 'std::runtime_error'
"""


@pytest.mark.parametrize("fast", [True, False])
def test_a_ros2_nodes_lines_keep_their_envelope(fast: bool) -> None:
    log = parse_text(ROS2_LAUNCH, fast=fast)
    assert log.counts.unrecognized == 0
    summary = summarize(log)
    assert (summary.build_seconds, summary.errors) == (42.7299, 1)
    # Launch's own line and the node's other output are other programs' lines.
    assert sorted(event.line for event in log.of(Foreign)) == [1, 6]


@pytest.mark.parametrize("fast", [True, False])
def test_a_ros2_nodes_stamped_lines_are_one_line_each(fast: bool) -> None:
    # The node's logger stamps its lines (trtexec's envelope) after launch's prefix.
    text = (
        "[component_container_mt-1] [01/01/2026-10:00:00] [I] [TRT] Total Activation Memory: 1000\n"
        "[component_container_mt-1] [01/01/2026-10:00:01] [I] [TRT] Total Weights Memory: 2000\n"
    )
    log = parse_text(text, fast=fast)
    assert [(type(event).__name__, event.line) for event in log.events] == [
        ("MemoryTotal", 1),
        ("MemoryTotal", 2),
    ]
    assert log.counts.foreign == 0


# Torch-TensorRT's TensorRT logger in Python's logging cookbook format (Torch-TensorRT issue 4227),
# and an application's own logger in the same format.
COOKBOOK_LOGGING = """\
2026-05-01 00:04:05,398 - torch_tensorrt [TensorRT Conversion Context] - WARNING - Requested amount of GPU memory (149635638784 bytes) could not be allocated. There may not be enough free memory for allocation to succeed.
2026-05-01 00:04:05,399 - torch_tensorrt [TensorRT Conversion Context] - ERROR - [executionContext.cpp::initializeExecutionContext::644] Error Code 2: OutOfMemory (Requested size was 149635638784 bytes.)
2026-05-01 00:04:06,001 - alpamayo.eval - INFO - evaluating 12 scenes
"""


@pytest.mark.parametrize("fast", [True, False])
def test_python_loggings_cookbook_format_is_an_envelope(fast: bool) -> None:
    log = parse_text(COOKBOOK_LOGGING, fast=fast)
    summary = summarize(log)
    assert (summary.warnings, summary.errors) == (1, 1)
    assert summary.first_error is not None and "Error Code 2: OutOfMemory" in summary.first_error
    assert [event.line for event in log.of(Foreign)] == [3]


def test_a_warning_naming_the_release_a_change_came_in_is_not_the_version() -> None:
    # TensorRT-LLM 0.12 on TensorRT 10.1: every 10.x builder that sets the flag says this.
    text = (
        "[07/15/2024-22:50:19] [TRT] [W] profileSharing0806 is on by default in TensorRT 10.0."
        " This flag is deprecated and has no effect.\n"
    )
    assert summarize(parse_text(text)).tensorrt_version is None
    running = "[01/07/2025-04:44:57] [TRT] [W] Functionality provided through tensorrt.plugin"
    running += " module is experimental in TensorRT 10.6.\n"
    summary = summarize(parse_text(text + running))
    assert (summary.tensorrt_version, summary.tensorrt_version_source) == ("10.6", "warning text")
