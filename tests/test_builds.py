"""Several builds in one log: every table row carries its run, build and 10.x strategy.

Expectations were read off the logs by hand (line numbers in the comments)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import corpus_dir, corpus_log, needs_corpus
from trtlog.analysis.buildlog import BuildLog, parse_build_log
from trtlog.cli.app import app
from trtlog.parse.summarize import summarize


def corpus_build_log(name: str) -> BuildLog:
    path = corpus_dir() / "logs" / name
    if not path.exists():
        pytest.skip(f"corpus log {name} not found in {corpus_dir()}")
    return parse_build_log(path)


SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
THREE_BUILDS = SAMPLES / "python_api_8.6_three_builds.log"


def test_three_builds_of_one_network_stay_apart() -> None:
    log = parse_build_log(THREE_BUILDS)
    assert log.summary.builds == 3
    layers = log.layers
    # Each build lists the same two layer names (lines 37-38, 77-78, 117-118).
    assert list(layers["build"]) == [0, 0, 1, 1, 2, 2]
    assert list(layers["line"]) == [37, 38, 77, 78, 117, 118]
    assert list(layers["precision"]) == ["fp32", "fp32", "fp16", "fp16", "fp32", "fp32"]
    assert list(log.engine_builds["build"]) == [0, 1, 2]
    # "Engine generation completed in 1.41 / 2.07 / 1.38 seconds." (lines 35, 75, 115).
    assert list(log.engine_builds["seconds"]) == [1.41, 2.07, 1.38]
    choices = log.choices
    assert list(choices["build"]) == [0, 1, 2]
    assert list(choices["tactic"]) == [
        "0x61f0c2d99a3b7e08",
        "0x5c0e9a17d3b2f481",
        "0x2a7c91f3b0e4d561",
    ]
    assert set(log.tactics["build"]) == {0, 1, 2}
    assert list(log.fusions["build"]) == [0, 1, 2]
    assert list(log.stages.groupby("build")["stage"].first()) == ["Original"] * 3
    # The network's parsing (lines 17-18, 57-58, 97-98: the ONNX header before them, too)
    # belongs to no build.
    parsing = [event for event in log.events if event.line in (8, 17, 18, 57, 58, 97, 98)]
    assert len(parsing) == 7 and {event.build for event in parsing} == {None}
    # "Loaded shared library libnvinfer_builder_resource.so.8.6.1".
    assert log.summary.tensorrt_version == "8.6.1"


def test_the_query_commands_choose_builds() -> None:
    runner = CliRunner()
    last = runner.invoke(
        app, ["tactics", "--log", str(THREE_BUILDS), "--build", "last", "-f", "csv"]
    )
    assert last.exit_code == 0, last.output
    rows = last.output.strip().splitlines()
    assert rows[0].startswith("build,layer,")
    assert [row.split(",")[0] for row in rows[1:]] == ["2"]
    one = runner.invoke(app, ["layers", "--log", str(THREE_BUILDS), "--build", "1", "-f", "csv"])
    assert [row.split(",")[0] for row in one.output.strip().splitlines()[1:]] == ["1", "1"]
    missing = runner.invoke(app, ["layers", "--log", str(THREE_BUILDS), "--build", "7"])
    assert missing.exit_code == 2
    assert "no build 7 in this log; it has builds 0, 1, 2" in missing.output


def test_fusions_of_a_layer_show_its_whole_engine_layer() -> None:
    result = CliRunner().invoke(
        app,
        [
            "fusions",
            "--log",
            str(THREE_BUILDS),
            "--layer",
            "/relu1/Relu",
            "--build",
            "0",
            "-f",
            "csv",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = result.output.strip().splitlines()
    assert len(rows) == 2
    assert '"/conv1/Conv, /relu1/Relu"' in rows[1]


@pytest.mark.slow
def test_diff_pairs_the_last_builds_and_lines_stages_up_by_name() -> None:
    result = CliRunner().invoke(
        app, ["diff", str(THREE_BUILDS), str(THREE_BUILDS), "--build", "0:1", "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    # Build 0 chose 0x61f0c2d99a3b7e08 (line 31), build 1 0x5c0e9a17d3b2f481 (line 71).
    assert "0x61f0c2d99a3b7e08" in result.output
    assert "0x5c0e9a17d3b2f481" in result.output
    same = CliRunner().invoke(app, ["diff", str(THREE_BUILDS), str(THREE_BUILDS)])
    assert "No differences." in same.output


def test_non_verbose_trtexec_runs_each_build_an_engine() -> None:
    # Seven trtexec runs, each printing "Layers running on GPU" and "Detected 1 inputs and 1
    # output network tensors." at INFO level (lines 55-58, 617-620, ...), and no build before.
    log = corpus_build_log("jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log")
    assert log.summary.runs == 7
    assert log.summary.builds == 7
    assert list(log.engine_builds["run"]) == list(range(7))


def test_10_16_strategies_are_one_build_keeping_strategy_3() -> None:
    log = corpus_build_log("hackathon_trt10.16.1_trtexec_build_h100.log")
    assert log.summary.builds == 1
    build = log.engine_builds.iloc[0]
    # Lines 517, 3036, 4460 build strategies 4, 3, 2; line 4459 keeps 3, line 4686 skips 2.
    assert (build["strategies"], build["kept_strategy"]) == ("4, 3, 2", 3)
    # trtexec's "Engine built in 24.4854 sec." (line 4698).
    assert build["seconds"] == 24.4854
    assert set(log.tactics["strategy"].dropna()) == {4, 3, 2}
    # The Engine Layer Information (line 4687) is of the engine the builder kept.
    assert set(log.layers["strategy"]) == {3}
    assert set(log.layers["build"]) == {0}


def test_a_load_engine_run_has_layers_but_no_build() -> None:
    log = corpus_build_log("hackathon_trt8.4.1_trtexec_loadengine_dumpLayerInfo_gtx1070.log")
    assert log.summary.builds == 0
    assert len(log.layers) > 0
    assert log.layers["build"].isna().all()
    assert (log.layers["run"] == 0).all()


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log",
        "hackathon_trt8.6.0_trtexec_build_rtx3090.log",
        "nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log",
    ],
)
def test_one_trtexec_build_is_one_build_everywhere(name: str) -> None:
    log = corpus_build_log(name)
    assert log.summary.builds == 1
    for table in ("stages", "tactics", "choices", "layers", "fusions", "engine_builds"):
        assert set(log.table(table)["build"].dropna()) == {0}, table


@pytest.mark.slow
def test_torch_tensorrt_reports_its_build_time() -> None:
    log = corpus_build_log("torchtrt_trt10.6_dynamo_debug_dinov2_ansi.log")
    # Line 24322, after a cursor-up code: "INFO:torch_tensorrt.dynamo.conversion._TRTInterpreter:
    # Build TRT engine elapsed time: 0:00:04.808916".
    assert (log.summary.builds, log.summary.build_seconds) == (1, pytest.approx(4.808916))
    assert log.engine_builds["seconds"].tolist() == [pytest.approx(4.808916)]


@needs_corpus
def test_a_progress_monitors_build_is_a_build() -> None:
    # 10.16's Python API with an IProgressMonitor and no other build line: "[----------]
    # Building engine 0/6" (line 3), the bars redrawn to 4/6 and then cleared.
    log = corpus_log("hackathon_trt10.16.2_pyapi_progressmonitor_ansi.log")
    assert summarize(log).builds == 1
    assert {event.build for event in log.events if type(event).__name__ == "ProgressUpdate"} == {0}


def test_precision_of_builds_that_repeat_their_layer_names() -> None:
    # Three builds of one network: every layer name is in each build.
    result = CliRunner().invoke(
        app, ["precision", "--log", str(SAMPLES / "python_api_8.6_three_builds.log"), "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    views = json.loads(result.output)
    layers = views["precision_layers"]
    assert sorted({row["build"] for row in layers}) == [0, 1, 2]
