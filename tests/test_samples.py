"""The hand-written sample logs: fully recognised, and their figures come back as written."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES, parse_strict
from trtlog.events import (
    ChoseRunner,
    Diagnostic,
    EngineBinding,
    EngineLayer,
    Foreign,
    LayerMemory,
    MemoryTotal,
    NonConformingImplementation,
    ProfileRow,
    TacticSkipped,
    TacticTiming,
)
from trtlog.parse.summarize import summarize

SAMPLE_LOGS = sorted(SAMPLES.glob("*.log"))


@pytest.mark.parametrize("path", SAMPLE_LOGS, ids=[path.name for path in SAMPLE_LOGS])
def test_samples_are_fully_recognised(path) -> None:
    log = parse_strict(path)
    assert log.counts.unrecognized == 0


def test_10x_sample() -> None:
    log = parse_strict(SAMPLES / "trtexec_10.x_build_inference_profile.log")
    timings = log.of(TacticTiming)
    assert len(timings) == 13
    untimed = [t for t in timings if t.time_ms is None]
    assert [(t.layer, t.tactic) for t in untimed] == [
        ("/conv2/Conv + /relu2/Relu", 0x8F0B6C4E2A7D1935)
    ]
    # Per-layer host persistent memory adds up to the reported total.
    assert sum(m.host_persistent for m in log.of(LayerMemory)) == 10368
    assert ("host persistent", 10368) in [(m.what, m.size_bytes) for m in log.of(MemoryTotal)]
    rows = log.of(ProfileRow)
    assert rows[-1].layer == "Total"
    assert round(sum(row.total_ms for row in rows[:-1]), 2) == rows[-1].total_ms == 309.56
    detailed = [layer for layer in log.of(EngineLayer) if layer.kernel]
    assert [layer.name for layer in detailed] == [
        "/conv1/Conv + /relu1/Relu",
        "/pool/MaxPool",
        "/conv2/Conv + /relu2/Relu",
        "/fc/Gemm",
    ]
    assert [b.name for b in log.of(EngineBinding)] == ["input", "output"]
    summary = summarize(log)
    assert (summary.tensorrt_version, summary.gpu, summary.build_seconds, summary.log_style) == (
        "10.8.0",
        "NVIDIA L4",
        0.407,
        "trtexec",
    )


def test_8x_sample() -> None:
    log = parse_strict(SAMPLES / "trtexec_8.x_build.log")
    kernels = {t.kernel for t in log.of(TacticTiming) if t.layer == "Conv_0 + Relu_1"}
    assert (
        "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nchwkcrs_nchw_tilesize32x32x64_stage4_warpsize1x2x1_g1_tensor16x8x16"
        in kernels
    )
    (skipped,) = log.of(TacticSkipped)
    assert (skipped.layer, skipped.scratch_requested, skipped.scratch_available) == (
        "Conv_3 + Relu_4",
        2097152,
        1048576,
    )
    assert [c.layer for c in log.of(ChoseRunner)] == [
        "Conv_0 + Relu_1",
        "Conv_0 + Relu_1",
        "MaxPool_2",
        "Conv_3 + Relu_4",
        "Gemm_6",
    ]
    assert [n.layer for n in log.of(NonConformingImplementation)] == ["Gemm_6"]
    rows = {row.layer: row for row in log.of(ProfileRow)}
    assert (rows["Gemm_6"].total_ms, rows["Gemm_6"].median_ms, rows["Gemm_6"].percent) == (
        601.96,
        0.0236,
        29.3,
    )
    summary = summarize(log)
    assert summary.precision == ["--fp16", "Precision: FP32+FP16"]
    # Shown as the precisions trtexec echoes, then the flag that asked for them.
    assert summary.precision_text() == "FP32+FP16 (--fp16)"


def test_python_api_sample() -> None:
    log = parse_strict(SAMPLES / "python_api_10.x_build.log")
    assert log.counts.foreign == 4
    assert [f.text for f in log.of(Foreign)][-1] == "done"
    warning, error = log.of(Diagnostic)
    assert warning.severity == "warning" and warning.text.startswith(
        "Tensor DataType is determined at build time"
    )
    assert (error.severity, error.error_code, error.category) == ("error", 3, "API Usage Error")
    assert error.origin == "IExecutionContext::setInputShape"
    summary = summarize(log)
    assert summary.log_style == "python-api"
    # "Trying to load shared library libnvinfer_builder_resource.so.10.3.0"
    assert (summary.tensorrt_version, summary.tensorrt_version_source) == ("10.3.0", "library name")


def test_edge_llm_sample() -> None:
    log = parse_strict(SAMPLES / "edge_llm_build.log")
    # Its own two messages name their source file: not TensorRT's.
    assert [f.line for f in log.of(Foreign)] == [1, 29]
    timings = log.of(TacticTiming)
    assert [(t.layer, str(t.tactic), t.time_ms) for t in timings] == [
        ("/conv1/Conv + /relu1/Relu", "0x0d4e2f7a19c3b865", 0.0211),
        ("/conv1/Conv + /relu1/Relu", "0x7b33e0c5d2a1f094", 0.0187),
    ]
    # "[DEBUG]" is TensorRT's verbose level; the stamps keep their milliseconds.
    assert {t.severity for t in timings} == {"verbose"}
    assert timings[0].timestamp.time().isoformat() == "14:02:10.431000"
    (warning,) = log.of(Diagnostic)
    assert warning.severity == "warning" and warning.line == 30
    summary = summarize(log)
    assert summary.log_style == "tensorrt-edge-llm"
    # "Loaded shared library libnvinfer_builder_resource.so.10.13.3"
    assert summary.tensorrt_version == "10.13.3"


def test_edge_llm_sample_timeline_is_measured_to_the_millisecond() -> None:
    from trtlog.store.sources import Sources, stream_build_log

    timeline = stream_build_log(Sources(log=str(SAMPLES / "edge_llm_build.log"))).table("timeline")
    first = timeline.iloc[0]
    # From the first stamp (14:02:10.004) to the ONNX parser's banner (.391).
    assert (first["phase"], first["source"]) == ("initialisation", "timestamps (1 ms)")
    assert first["seconds"] == pytest.approx(0.387)
