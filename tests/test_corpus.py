"""The real logs of the corpus: every one parses, and seven are checked figure by figure.

The expected figures below were read off the log files by hand (grep and reading the lines),
not copied from trtlog's output.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import CORPUS_LOGS, corpus_log, needs_corpus, parse_strict
from trtlog.events import (
    ChoseRunner,
    Diagnostic,
    FastestTactic,
    LayerCount,
    LayersFused,
    LegacyPerfStatistic,
    MemoryTotal,
    OptionLine,
    PerfStatistic,
    PerfValue,
    PhaseDuration,
    RunFooter,
    RunHeader,
    TacticSkipped,
    TacticTiming,
    TraceAverage,
)
from trtlog.parse.envelope import WARNING_OR_WORSE
from trtlog.parse.result import ParsedLog


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", CORPUS_LOGS, ids=[path.name for path in CORPUS_LOGS])
def test_every_corpus_log_parses(path: Path) -> None:
    log = parse_strict(path)
    counts = log.counts
    # Every physical line is counted once, whatever number of records it holds.
    assert (
        counts.recognized + counts.unrecognized + counts.foreign + counts.blank
        == log.physical_lines
    )
    assert log.physical_lines > 0
    # Excerpts cut out of issues carry truncated lines and human elisions; complete logs must be
    # at least 99% recognised (foreign and blank lines excluded).
    if ".EXCERPT." not in path.name:
        assert log.recognized_ratio >= 0.99, log.counts
    # Events come in log order.
    lines = [event.line for event in log.events]
    assert lines == sorted(lines)
    # trtexec echoes its options at INFO; a warning or an error holding a colon is not one.
    assert not [event for event in log.of(OptionLine) if event.severity in WARNING_OR_WORSE]


def stages(log: ParsedLog, build: int = 0) -> list[tuple[str, int]]:
    return [(event.stage, event.count) for event in log.of(LayerCount) if event.build == build]


def fusions(log: ParsedLog) -> dict[str | None, int]:
    return dict(Counter(event.pass_name for event in log.of(LayersFused)))


def memory(log: ParsedLog) -> list[tuple[str, int]]:
    return [(event.what, event.size_bytes) for event in log.of(MemoryTotal)]


def phase(log: ParsedLog, name: str) -> list[float]:
    return [event.seconds for event in log.of(PhaseDuration) if event.phase == name]


def perf(log: ParsedLog, metric: str) -> PerfStatistic:
    (statistic,) = [event for event in log.of(PerfStatistic) if event.metric == metric]
    return statistic


def values(log: ParsedLog) -> dict[str, float]:
    return {event.metric: event.value for event in log.of(PerfValue)}


TRT8_STAGES_26 = [
    ("Original", 26), ("dead-layer removal", 26), ("Myelin optimization", 20), ("scale fusion", 20),
    ("vertical fusions", 10), ("dupe layer removal", 10), ("final dead-layer removal", 10),
    ("tensor merging", 10), ("concat removal", 10), ("reformat layers", 12),
]  # fmt: skip


@needs_corpus
def test_trt_7_1_jetson_multirun() -> None:
    log = corpus_log("jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log")
    # Seven trtexec runs (batch 1 to 128) concatenated, each opened and closed.
    assert len(log.of(RunHeader)) == 7
    assert [footer.status for footer in log.of(RunFooter)] == ["PASSED"] * 7
    assert log.of(TacticTiming) == [] and log.of(LayerCount) == []
    # First run's old-style summary: "Host Latency" / "min: 1.99762 ms (end to end 2.00641 ms)".
    first = [event for event in log.of(LegacyPerfStatistic) if event.line < 562]
    host = {event.stat: event for event in first if event.metric == "Host Latency"}
    assert (host["min"].value, host["min"].end_to_end) == (1.99762, 2.00641)
    assert (host["max"].value, host["mean"].value, host["median"].value) == (
        3.29492,
        2.06069,
        2.03601,
    )
    assert (
        host["percentile"].value,
        host["percentile"].percentile,
        host["percentile"].end_to_end,
    ) == (2.5329, 99.0, 2.59641)
    assert (host["throughput"].value, host["throughput"].unit) == (479.452, "qps")
    gpu = {event.stat: event.value for event in first if event.metric == "GPU Compute"}
    assert gpu == {
        "min": 1.9292,
        "max": 3.21704,
        "mean": 1.9929,
        "median": 1.97266,
        "percentile": 2.47803,
        "total compute time": 2.86978,
    }
    # "Average on 3 runs - GPU latency: 1.96852 ms - Host latency: 2.10776 ms (end to end 2.12201 ms, enqueue 1.98582 ms)"
    average = log.of(TraceAverage)[0]
    assert (
        average.runs,
        average.gpu_latency_ms,
        average.host_latency_ms,
        average.end_to_end_ms,
        average.enqueue_ms,
    ) == (
        3,
        1.96852,
        2.10776,
        2.12201,
        1.98582,
    )


@needs_corpus
def test_trt_8_0_build_fp16() -> None:
    log = corpus_log("hackathon_trt8.0.3_trtexec_build_fp16_gtx1070.log")
    assert (len(log.of(TacticTiming)), len(log.of(FastestTactic)), len(log.of(ChoseRunner))) == (
        268,
        82,
        23,
    )
    assert stages(log) == TRT8_STAGES_26
    assert fusions(log) == {"ConstEltFusion": 2, "ConstShuffleFusion": 4, "ConvReluFusion": 3, "ConvScaleFusion": 2,
                            "ShuffleShuffleFusion": 3, "SoftmaxTopKFusion": 1}  # fmt: skip
    assert memory(log)[:4] == [
        ("activation", 1076551681),
        ("host persistent", 4032),
        ("device persistent", 214528),
        ("scratch", 0),
    ]
    assert phase(log, "Engine generation") == [5.34714]
    latency = perf(log, "Latency")
    assert (latency.min, latency.max, latency.mean, latency.median, latency.percentiles) == (
        0.156006,
        0.419556,
        0.159522,
        0.15918,
        ((99.0, 0.165161),),
    )
    # 8.0 and 8.2 still print "End-to-End Host Latency".
    assert perf(log, "End-to-End Host Latency").median == 0.289673
    assert values(log) == {
        "Throughput": 6330.83,
        "Total Host Walltime": 3.00039,
        "Total GPU Compute Time": 2.90662,
    }


@needs_corpus
def test_trt_8_2_build_fp32() -> None:
    log = corpus_log("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log")
    assert (len(log.of(TacticTiming)), len(log.of(FastestTactic)), len(log.of(ChoseRunner))) == (
        184,
        43,
        14,
    )
    # 42 of the 184 timings print a negative decimal id.
    assert sum(1 for timing in log.of(TacticTiming) if timing.tactic >= 2**63) == 42
    assert stages(log) == TRT8_STAGES_26
    assert fusions(log)["ConvReluFusion"] == 3
    assert ("scratch", 4096) in memory(log) and ("activation", 2409473) in memory(log)
    assert phase(log, "Engine generation") == [4.31827]
    assert perf(log, "GPU Compute Time").percentiles == ((99.0, 0.153564),)
    assert values(log)["Throughput"] == 6531.92


@needs_corpus
def test_trt_8_4_build_fp16() -> None:
    log = corpus_log("hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log")
    assert (len(log.of(TacticTiming)), len(log.of(FastestTactic)), len(log.of(ChoseRunner))) == (
        331,
        86,
        23,
    )
    assert stages(log) == [
        ("Original", 24), ("dead-layer removal", 24), ("Myelin optimization", 19), ("scale fusion", 16),
        ("dupe layer removal", 10), ("final dead-layer removal", 10), ("tensor merging", 10), ("vertical fusions", 10),
        ("dupe layer removal", 10), ("final dead-layer removal", 10), ("tensor merging", 10), ("slice removal", 10),
        ("concat removal", 10), ("reformat layers", 12),
    ]  # fmt: skip
    assert fusions(log) == {
        "ConstShuffleFusion": 2,
        "ConvReluFusion": 3,
        "ShuffleShuffleFusion": 3,
        "SoftmaxTopKFusion": 1,
    }
    assert ("device persistent", 6656) in memory(log) and ("activation", 2408456) in memory(log)
    assert phase(log, "Engine generation") == [2.13524]
    assert perf(log, "Latency").percentiles == ((99.0, 0.433105),)
    assert values(log)["Throughput"] == 6106.55


@needs_corpus
def test_trt_8_5_orin_int8_best() -> None:
    log = corpus_log("lix_trt8.5.10_trtexec_orin_mnist_best_dumpProfile.log")
    assert (len(log.of(TacticTiming)), len(log.of(FastestTactic)), len(log.of(ChoseRunner))) == (
        3241,
        661,
        63,
    )
    assert stages(log)[:4] == [
        ("Original", 18),
        ("dead-layer removal", 18),
        ("Myelin optimization", 15),
        ("scale fusion", 9),
    ]
    assert stages(log)[-1] == ("reformat layers", 7)
    assert fusions(log) == {"ConstEltFusion": 2, "ConstShuffleFusion": 3, "ConvReluFusion": 2, "ConvScaleFusion": 2,
                            "ShuffleShuffleFusion": 1}  # fmt: skip
    assert ("host persistent", 10016) in memory(log) and ("activation", 32256) in memory(log)
    assert phase(log, "Engine generation") == [10.985]
    assert phase(log, "Configuring builder for Int8 Mode") == [0.00033826]
    latency = perf(log, "Latency")
    assert latency.percentiles == ((90.0, 0.0181274), (95.0, 0.0181885), (99.0, 0.0183105))
    assert values(log)["Throughput"] == 52765.3


@needs_corpus
def test_trt_8_6_build_and_load() -> None:
    build = corpus_log("hackathon_trt8.6.0_trtexec_build_rtx3090.log")
    assert (
        len(build.of(TacticTiming)),
        len(build.of(FastestTactic)),
        len(build.of(ChoseRunner)),
    ) == (1934, 257, 58)
    assert stages(build)[-1] == ("reformat layers", 15)
    assert fusions(build) == {
        "ConstShuffleFusion": 2,
        "ConvReluFusion": 3,
        "LogSoftmaxTopKFusion": 1,
        "ShuffleShuffleFusion": 3,
    }
    assert memory(build) == [
        ("host persistent", 32960),
        ("device persistent", 0),
        ("scratch", 0),
        ("activation", 1004032),
    ]
    assert phase(build, "Engine generation") == [5.7269]
    assert phase(build, "Graph optimization") == [0.013082]
    run = corpus_log("hackathon_trt8.6.0_trtexec_loadengine_rtx3090.log")
    gpu = perf(run, "GPU Compute Time")
    assert (gpu.min, gpu.max, gpu.mean, gpu.median) == (0.041748, 0.609253, 0.0451127, 0.0439453)
    assert gpu.percentiles == ((90.0, 0.0449219), (95.0, 0.045105), (99.0, 0.0521851))
    assert values(run) == {
        "Throughput": 21009.2,
        "Total Host Walltime": 3.00012,
        "Total GPU Compute Time": 2.84346,
    }
    assert len(run.of(TraceAverage)) == 6303


@needs_corpus
def test_trt_10_16_build_with_backend_strategies() -> None:
    log = corpus_log("hackathon_trt10.16.1_trtexec_build_h100.log")
    assert (len(log.of(TacticTiming)), len(log.of(FastestTactic)), len(log.of(ChoseRunner))) == (
        1361,
        120,
        41,
    )
    # One build: "Original:" and dead-layer removal, then three backend strategies (4, 3, 2),
    # each a pass of its own.
    assert {event.build for event in log.of(LayerCount)} == {0}
    by_strategy = [(event.strategy, event.stage, event.count) for event in log.of(LayerCount)]
    assert by_strategy[:4] == [
        (None, "Original", 24),
        (None, "dead-layer removal", 24),
        (4, "adding DebugOutput nodes", 24),
        (4, "Myelin optimization", 17),
    ]
    last_of = {strategy: (stage, count) for strategy, stage, count in by_strategy}
    assert last_of == {
        None: ("dead-layer removal", 24),
        4: ("reformat layers", 15),
        3: ("reformat layers", 6),
        2: ("reformat layers", 6),
    }
    assert [row[2] for row in by_strategy if row[:2] in ((3, "Myelin optimization"),
                                                         (2, "Myelin optimization"))] == [5, 7]  # fmt: skip
    assert fusions(log) == {
        "ConstShuffleFusion": 6,
        "ConvReluFusion": 4,
        "EltReluFusion": 1,
        "LogSoftmaxTopKFusion": 1,
    }
    assert memory(log)[:5] == [("host persistent", 22288), ("device persistent", 0), ("max scratch", 512),
                               ("activation", 2876416), ("weights", 6553364)]  # fmt: skip
    assert phase(log, "Engine generation") == [15.4838, 7.75278, 0.43392]
    assert phase(log, "Engine built") == [24.4854]
    # Most tactics are timed for the first strategy.
    assert Counter((timing.build, timing.strategy) for timing in log.of(TacticTiming)) == {
        (0, 4): 1353,
        (0, 3): 5,
        (0, 2): 3,
    }
    # 10 "Tactic: ... skipped. Scratch requested: ..., available: 1024" and 4 "UNSUPPORTED_STATE:
    # Skipping tactic ... due to insufficient memory" lines.
    assert Counter(event.reason for event in log.of(TacticSkipped)) == {
        "scratch": 10,
        "insufficient memory": 4,
    }
    # Line 2, "[W] Weakly-typed networks have been deprecated ... (https://...)", is a warning.
    (first,) = [event for event in log.events if event.line == 2]
    assert isinstance(first, Diagnostic) and first.severity == "warning"


@needs_corpus
def test_summaries_name_style_version_and_gpu() -> None:
    from trtlog.parse.summarize import summarize

    expected = {
        # file: (style, version, version source, GPU)
        "hackathon_trt10.16.1_trtexec_build_h100.log": (
            "trtexec",
            "10.16.1",
            "stated",
            "NVIDIA H100 PCIe",
        ),
        "hackathon_trt8.0.3_polygraphy0.33_run_verbose.log": (
            "polygraphy",
            "8.0.3.4",
            "stated",
            None,
        ),
        "hackathon_trt8.6_pyapi_nodate_timingcache.log": ("custom-logger", None, None, None),
        "hackathon_trt10.16.2_pyapi_refit_with_errors.log": ("python-api", None, None, None),
        "excerpt_trtllm_falcon_readme_build.EXCERPT.log": ("tensorrt-llm", None, None, None),
        # "[TRT] [W] Functionality provided through tensorrt.plugin module is experimental in TensorRT 10.6."
        # and " Available CUDA Devices: ... Device(ID: 1, Name: NVIDIA A40, SM Capability: 8.6, Type: GPU)"
        "torchtrt_trt10.6_dynamo_debug_dinov2_ansi.log": (
            "torch-tensorrt",
            "10.6",
            "warning text",
            "NVIDIA A40",
        ),
        "jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log": ("trtexec", None, None, None),
    }
    for name, (style, version, source, gpu) in expected.items():
        summary = summarize(corpus_log(name))
        assert (
            summary.log_style,
            summary.tensorrt_version,
            summary.tensorrt_version_source,
            summary.gpu,
        ) == (
            style,
            version,
            source,
            gpu,
        ), name
