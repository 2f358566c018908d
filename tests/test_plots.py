"""Every plot drawn from real logs to PNG and SVG; the plot and timeline commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES, corpus_log, needs_corpus
from trtlog import plots
from trtlog.analysis import BuildLog
from trtlog.cli.app import app
from trtlog.cli.visual import PlotKind

runner = CliRunner()
SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
# A real log holding what each plot draws, of different TensorRT versions.
DRAWABLE = {
    "timeline": ["hackathon_trt10.16.1_trtexec_build_h100.log", "hackathon_trt8.6_pyapi_nodate_timingcache.log"],
    "stages": ["hackathon_trt10.16.1_trtexec_build_h100.log", "hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log"],
    "tactics": ["lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log", "hackathon_trt8.0.3_trtexec_build_fp16_gtx1070.log"],
    "profile": ["lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log", "kalfazed_trt8.5.1_trtexec_resnet50_loadengine_dumpProfile.log"],
    "memory": ["nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log", "hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log"],
    "precision": ["nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log", "hackathon_trt8.6.0_trtexec_build_rtx3090.log"],
}  # fmt: skip


def test_the_command_offers_every_plot() -> None:
    assert [kind.value for kind in PlotKind] == list(plots.PLOTS)
    assert set(DRAWABLE) == set(plots.PLOTS)


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize(
    ("kind", "name"), [(kind, name) for kind, names in DRAWABLE.items() for name in names]
)
def test_plot_renders_to_png_and_svg(kind: str, name: str, tmp_path: Path) -> None:
    figure = plots.figure(kind, BuildLog.from_parsed(corpus_log(name)))
    png, svg = tmp_path / f"{kind}.png", tmp_path / f"{kind}.svg"
    plots.save(figure, png)
    plots.save(figure, svg)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 5000
    assert "<svg" in svg.read_text()[:500]


@needs_corpus
def test_a_plot_without_data_says_what_is_missing() -> None:
    log = BuildLog.from_parsed(corpus_log("hackathon_trt10.16.1_trtexec_build_h100.log"))
    with pytest.raises(plots.EmptyPlot, match="per-layer profile"):
        plots.figure("profile", log)


@pytest.mark.slow
def test_plot_command_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "stages.svg"
    result = runner.invoke(app, ["plot", "stages", "--log", str(SAMPLE), "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text().lstrip().startswith(("<?xml", "<svg"))


@pytest.mark.slow
def test_plot_command_errors_are_one_line(tmp_path: Path) -> None:
    python_log = SAMPLES / "python_api_10.x_build.log"
    result = runner.invoke(
        app, ["plot", "profile", "--log", str(python_log), "-o", str(tmp_path / "p.png")]
    )
    assert result.exit_code == 2
    assert result.output.strip().startswith("trtlog: cannot draw profile")
    result = runner.invoke(
        app, ["plot", "stages", "--log", str(SAMPLE), "-o", str(tmp_path / "p.pdf")]
    )
    assert result.exit_code == 2
    assert ".png or .svg" in result.output


@pytest.mark.slow
def test_timeline_command(tmp_path: Path) -> None:
    target = tmp_path / "gantt.png"
    result = runner.invoke(
        app, ["timeline", "--log", str(SAMPLE), "--top", "3", "-f", "json", "--plot", str(target)]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert set(document) == {"timeline", "tuning_share", "tuning"}
    assert len(document["tuning"]) == 3
    phases = [row["phase"] for row in document["timeline"]]
    assert phases.index("model parsing") < phases.index("autotuning")
    assert target.read_bytes()[:4] == b"\x89PNG"


@needs_corpus
def test_stage_lines_of_each_strategy_meet_at_the_stage_names() -> None:
    figure = plots.figure(
        "stages", BuildLog.from_parsed(corpus_log("hackathon_trt10.16.1_trtexec_build_h100.log"))
    )
    (axes,) = figure.axes
    labels = [label.get_text() for label in axes.get_xticklabels()]
    lines = {line.get_label(): line for line in axes.get_lines()}
    # One build; strategies 4, 3 and 2 each run the stages from "adding DebugOutput nodes" to
    # "reformat layers" (lines 517-2985, 3036-4425, 4460-4649).
    assert sorted(lines) == ["build 0 (strategy 2)", "build 0 (strategy 3)", "build 0 (strategy 4)"]
    last = labels.index("reformat layers")
    ends = {label: (line.get_xdata()[-1], line.get_ydata()[-1]) for label, line in lines.items()}
    assert ends == {
        "build 0 (strategy 4)": (last, 15),
        "build 0 (strategy 3)": (last, 6),
        "build 0 (strategy 2)": (last, 6),
    }
    # "Myelin optimization" sits at one place for all three (17, 5 and 7 layers).
    myelin = labels.index("Myelin optimization")
    at_myelin = sorted(
        int(y)
        for line in lines.values()
        for x, y in zip(line.get_xdata(), line.get_ydata(), strict=True)
        if x == myelin
    )
    assert at_myelin == [5, 7, 17]


def test_memory_plot_shows_small_layers_on_a_log_axis() -> None:
    from trtlog.parse import parse_file

    figure = plots.figure("memory", BuildLog.from_parsed(parse_file(SAMPLE)))
    axes = figure.axes[0]
    assert axes.get_xscale() == "log"
    # The sample's memory per layer (lines 152-155): each part a layer holds is a bar of its
    # own, the smallest (/fc/Gemm's 1664 bytes of host memory) inside the axis.
    widths = sorted(patch.get_width() for patch in axes.patches)
    assert widths == [1664, 2304, 3200, 3200, 4096, 20480]
    assert axes.get_xlim()[0] < 1664


def test_tactic_labels_keep_both_ends_of_long_names() -> None:
    from trtlog.plots.build import LABEL_WIDTH, tactic_label

    layer = "/model/encoder/layers.11/self_attention/query_key_value/MatMul_quantize_scale_node"
    formats = "Half(12288,1,96) -> Half(36864,1,288)"
    first, second = tactic_label(layer, formats).split("\n")
    assert len(first) == LABEL_WIDTH
    # 23 characters from the start, 24 from the end.
    assert first == "/model/encoder/layers.1…tMul_quantize_scale_node"
    assert "…" in first
    assert second == formats  # short enough to stay whole
    assert tactic_label("Conv_0", None) == "Conv_0"


@needs_corpus
def test_memory_plot_leaves_out_a_part_no_layer_holds() -> None:
    # Every layer of this log has "Device Persistent: 0 bytes"; seven hold scratch memory.
    log = BuildLog.from_parsed(corpus_log("hackathon_trt10.16.1_trtexec_build_h100.log"))
    axes = plots.figure("memory", log).axes[0]
    labels = [text.get_text() for text in axes.get_legend().get_texts()]
    assert labels == ["host persistent", "scratch"]
