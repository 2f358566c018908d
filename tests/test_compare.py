"""Comparing builds on real corpus pairs. Expected values were read from the logs' own lines
(quoted with their line numbers)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from tests.conftest import corpus_log, needs_corpus
from trtlog.analysis import BuildLog
from trtlog.cli.app import app
from trtlog.compare import SECTIONS, BuildDiff, diff_logs
from trtlog.parse import parse_text

pytestmark = needs_corpus
runner = CliRunner()
FP32_823 = "hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log"
FP16_803 = "hackathon_trt8.0.3_trtexec_build_fp16_gtx1070.log"
FP16_841 = "hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log"
TRT_860 = "hackathon_trt8.6.0_trtexec_build_rtx3090.log"
TRT_1016 = "hackathon_trt10.16.1_trtexec_build_h100.log"
_diffs: dict[tuple[str, str], BuildDiff] = {}


def diff(first: str, second: str) -> BuildDiff:
    if (first, second) not in _diffs:
        a = BuildLog.from_parsed(corpus_log(first))
        b = BuildLog.from_parsed(corpus_log(second))
        _diffs[first, second] = diff_logs(a, b)
    return _diffs[first, second]


def layer(changes: pd.DataFrame, name_a: str | None = None, name_b: str | None = None) -> pd.Series:
    rows = changes
    if name_a is not None:
        rows = rows[rows["name_a"] == name_a]
    if name_b is not None:
        rows = rows[rows["name_b"] == name_b]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def item(table: pd.DataFrame, name: str) -> pd.Series:
    return table[table["item"] == name].iloc[0]


def cli(path: str) -> str:
    from tests.conftest import corpus_dir

    return str(corpus_dir() / "logs" / path)


def test_same_network_fp32_8_2_against_fp16_8_0() -> None:
    result = diff(FP32_823, FP16_803)
    overview = result.sections["overview"]
    assert (item(overview, "TensorRT")["a"], item(overview, "TensorRT")["b"]) == ("8.2.3", "8.0.3")
    # "Engine built in 4.89571 sec." (8.2.3 line 889) and "in 5.6936 sec." (8.0.3 line 1029).
    build = item(overview, "build seconds")
    assert (build["a"], build["b"]) == (4.89571, 5.6936)
    assert build["delta"] == pytest.approx(0.79789)
    # 12 engine layers against 10 (8.0.3 lines 1004-1021 list ten "Layer(" lines).
    assert (item(overview, "engine layers")["a"], item(overview, "engine layers")["b"]) == (12, 10)
    options = result.sections["options"].set_index("key")
    assert (options.loc["Precision", "a"], options.loc["Precision", "b"]) == ("FP32", "FP32+FP16")
    layers = result.sections["layers"]
    # Line 873 "MaxPool2d_1, Tactic: 6488321" (0x630101); 8.0.3 line 1014 "Tactic: 6357249" (0x610101).
    pool = layer(layers, "MaxPool2d_1")
    assert (pool["status"], pool["matched_by"]) == ("changed", "name")
    assert pool["changes"] == "tactic: 0x0000000000630101 -> 0x0000000000610101"
    # The second MatMul is named differently (one internal tensor) but holds the same network
    # layers; it ran on CudnnConvolution (line 876) and on CublasConvolution (8.0.3 line 1017).
    matmul = layers[layers["name_a"].fillna("").str.startswith("MatMul_1 + ")].iloc[0]
    assert matmul["matched_by"] == "network layers"
    assert "layer_type: CudnnConvolution -> CublasConvolution" in matmul["changes"]
    removed = set(layers[layers["status"] == "removed"]["name_a"])
    assert removed == {"copied_squeeze_after_add_3", "(Unnamed Layer* 52) [Shuffle]"}
    assert (layers["status"] == "added").sum() == 0
    # "Throughput: 6531.92 qps" (line 2869) against 6330.83 (8.0.3 line 2948): a regression.
    throughput = item(result.sections["perf"], "throughput_qps")
    assert (throughput["a"], throughput["b"], throughput["worse"]) == (6531.92, 6330.83, True)
    latency = item(result.sections["perf"], "latency_mean_ms")
    assert latency["percent"] == pytest.approx(100 * (0.159522 - 0.157525) / 0.157525)


def test_renamed_network_8_2_against_8_4_pairs_by_type_and_shapes() -> None:
    layers = diff(FP32_823, FP16_841).sections["layers"]
    conv = layer(layers, "Conv__25 + Relu")
    assert (conv["name_b"], conv["matched_by"], conv["status"]) == (
        "Conv-1 + ReLU-2",
        "type and shapes",
        "same",
    )
    pool = layer(layers, "MaxPool2d")
    assert pool["name_b"] == "MaxPool-3"
    assert pool["changes"] == "tactic: 0x0000000000630101 -> 0x0000000000620101"
    last = layer(layers, name_b="MatMul-12")
    assert last["name_a"].startswith("MatMul_1 + ")
    # 8.2.3 line 876 "Layer(CudnnConvolution): MatMul_1 + ..., Tactic: 1"; 8.4.1 line 1152
    # "Layer(CublasConvolution): MatMul-12, Tactic: 0x0000000000000000".
    assert (last["matched_by"], last["changes"]) == (
        "shapes",
        "layer_type: CudnnConvolution -> CublasConvolution; "
        "tactic: 0x0000000000000001 -> 0x0000000000000000",
    )
    assert set(layers["status"]) <= {"same", "changed"}


def test_8_6_against_10_16_myelin_takes_the_convolutions() -> None:
    result = diff(TRT_860, TRT_1016)
    overview = result.sections["overview"]
    assert item(overview, "GPU")["a"] == "NVIDIA GeForce RTX 3090"
    assert item(overview, "GPU")["b"] == "NVIDIA H100 PCIe"
    layers = result.sections["layers"]
    conv = layer(layers, "Conv-1 + ReLU-2")
    assert conv["name_b"] == "{ForeignNode[node_conv2d...node_relu]}"
    assert "layer_type: CaskConvolution -> Myelin" in conv["changes"]
    pool = layer(layers, "MaxPool-3")
    assert pool["name_b"] == "node_max_pool2d"
    assert "precision: fp16 -> fp32" in pool["changes"]
    assert result.failures(["precision"]) == ["2 paired layers changed precision"]


@pytest.mark.slow
def test_a_log_against_itself_differs_in_nothing() -> None:
    for name in (FP32_823, TRT_1016):
        result = diff(name, name)
        assert not result.differs()
        assert set(result.sections["layers"]["status"]) == {"same"}
        assert result.failures(["layers", "precision", "latency=0", "build-time=0"]) == []
    result = runner.invoke(app, ["diff", cli(FP32_823), cli(FP32_823)])
    assert result.exit_code == 0
    assert "No differences." in result.output


@pytest.mark.slow
def test_diff_command_sections_and_gates() -> None:
    result = runner.invoke(app, ["diff", cli(FP32_823), cli(FP16_803), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)) == set(SECTIONS)
    # Mean latency rose 1.27%: gated at 1% it fails with exit code 3, at 5% it passes.
    result = runner.invoke(app, ["diff", cli(FP32_823), cli(FP16_803), "--fail-on", "latency=1"])
    assert result.exit_code == 3
    assert "latency_mean_ms rose by 1.3%" in result.output
    result = runner.invoke(app, ["diff", cli(FP32_823), cli(FP16_803), "--fail-on", "latency=5"])
    assert result.exit_code == 0
    result = runner.invoke(app, ["diff", cli(FP32_823), cli(FP16_803), "--fail-on", "speed"])
    assert result.exit_code == 2
    assert "expected one of layers" in result.output


@pytest.mark.slow
def test_diff_markdown_lists_what_changed() -> None:
    result = runner.invoke(app, ["diff", cli(FP32_823), cli(FP16_803), "-f", "markdown"])
    assert result.exit_code == 0
    assert "### layers:" in result.output
    assert "| changed | MaxPool2d_1 | MaxPool2d_1 | name |" in result.output
    assert "| same |" not in result.output


@pytest.mark.slow
def test_a_change_within_the_noise_threshold_is_not_worse() -> None:
    def perf_rows(*options: str) -> dict[str, dict[str, object]]:
        result = runner.invoke(app, ["diff", cli(FP32_823), cli(FP16_803), "-f", "json", *options])
        assert result.exit_code == 0, result.output
        return {row["item"]: row for row in json.loads(result.stdout)["perf"]}

    # Mean latency 0.157525 -> 0.159522 ms (+1.27%); throughput 6531.92 -> 6330.83 qps (-3.1%).
    default = perf_rows()
    assert default["latency_mean_ms"]["verdict"] == "worse"
    assert default["throughput_qps"]["verdict"] == "worse"
    wider = perf_rows("--noise", "2")
    assert wider["latency_mean_ms"]["verdict"] == "within noise"
    assert wider["latency_mean_ms"]["worse"] is False
    assert wider["throughput_qps"]["verdict"] == "worse"
    # A log against itself: every figure within noise, none worse; the totals over trtexec's
    # measuring window are no cost, and get no verdict.
    same = diff(FP32_823, FP32_823).sections["perf"]
    windows = same["item"].isin(["total_host_walltime_s", "total_gpu_compute_time_s"])
    assert set(same.loc[~windows, "verdict"]) == {"within noise"}
    assert same.loc[windows, "verdict"].isna().all() and windows.sum() == 2
    assert not same["worse"].fillna(False).astype(bool).any()


def test_the_command_line_noise_default_is_the_library_one() -> None:
    from trtlog.compare.sections import NOISE_PERCENT

    result = runner.invoke(app, ["diff", "--help"], env={"COLUMNS": "200"})
    # Click prints the default with the option's range: "[default: 1.0; x>=0]".
    assert f"[default: {NOISE_PERCENT};" in result.output


def test_float_noise_between_two_sums_of_the_same_durations_is_no_change() -> None:
    from trtlog.compare.sections import _delta_row

    # 0.1 + 0.2 and 0.3 differ in their last bits: the same phase summed in another order.
    row = _delta_row("phase", 0.1 + 0.2, 0.3)
    assert row["changed"] is False
    assert row["delta"] == 0 and row["percent"] == 0
    moved = _delta_row("phase", 0.3, 0.31)
    assert moved["changed"] is True and abs(moved["delta"] - 0.01) < 1e-12


def _run(batch: int, latency: float, qps: float, walltime: float) -> BuildLog:
    """A trtexec 8.x inference run at ``batch`` (implicit batch), its summary made up."""
    return BuildLog.from_parsed(
        parse_text(
            "[01/12/2021-17:34:24] [I] === Inference Options ===\n"
            f"[01/12/2021-17:34:24] [I] Batch: {batch}\n"
            f"[01/12/2021-17:34:33] [I] Throughput: {qps} qps\n"
            f"[01/12/2021-17:34:33] [I] Latency: min = {latency} ms, max = {latency} ms, mean ="
            f" {latency} ms, median = {latency} ms, percentile(99%) = {latency} ms\n"
            f"[01/12/2021-17:34:33] [I] Total Host Walltime: {walltime} s\n"
        )
    )


def test_times_of_runs_with_another_batch_are_not_compared() -> None:
    # Batch 1 -> 4 (TensorRT 7.1 on a Jetson, lines of a public README): four times the work
    # per query, so neither its latency nor its queries per second compare.
    result = diff_logs(_run(1, 55.3094, 18.0758, 3.09807), _run(4, 199.901, 20.0093, 3.39842))
    rows = result.sections["perf"].set_index("item")
    assert rows.loc["latency_mean_ms", "verdict"] == "not comparable"
    assert rows.loc["throughput_qps", "verdict"] == "not comparable"
    assert pd.isna(rows.loc["total_host_walltime_s", "verdict"])
    assert result.failures(["latency=5", "throughput=5"]) == []
    # The same batch: the latency rise is a regression.
    same = diff_logs(_run(4, 55.3094, 18.0758, 3.0), _run(4, 199.901, 20.0093, 3.0))
    assert same.sections["perf"].set_index("item").loc["latency_mean_ms", "verdict"] == "worse"
