"""trtexec's JSON exports: readers, the one engine model they share with logs, the precision
report and the engine graph. Expected values were read from the JSON files themselves (and,
for logs, from the lines quoted)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import trtlog
from tests.conftest import corpus_dir, needs_corpus
from trtlog.cli.app import app
from trtlog.exports import ExportError, export_events
from trtlog.plots.engine_graph import edges_of, engine_dot, neighbourhood

pytestmark = needs_corpus
runner = CliRunner()


def json_file(name: str) -> Path:
    path = corpus_dir() / "json" / name
    if not path.exists():
        pytest.skip(f"{name} not in the corpus")
    return path


def log_file(name: str) -> Path:
    return corpus_dir() / "logs" / name


def row(frame, name):  # type: ignore[no-untyped-def]
    (match,) = [item for _, item in frame[frame["name"] == name].iterrows()]
    return match


# --- one file of each schema generation --------------------------------------------------


def test_trex_8_4_sample_detailed_layers() -> None:
    log = trtlog.load(
        json_file("trex/pytorch__resnet__A100__qat__resnet-qat.onnx.engine.graph.json")
    )
    layers = log.layers
    # 37 layers: CaskConvolution 21, Reformat 12, TiledPooling 2, NoOp 2.
    assert len(layers) == 37
    assert layers["layer_type"].value_counts().to_dict() == {
        "CaskConvolution": 21,
        "Reformat": 12,
        "TiledPooling": 2,
        "NoOp": 2,
    }
    # First inputs: 22 Int8, 11 FP16, 4 "Row major linear FP32".
    assert layers["precision"].value_counts().to_dict() == {"int8": 22, "fp16": 11, "fp32": 4}
    conv = row(layers, "conv1.weight + QuantizeLinear_7 + Conv_9")
    assert conv["input_formats"] == "Four wide channel vectorized row major Int8 format"
    assert conv["input_formats_short"] == "Int8 NC/4HW4"
    assert conv["output_formats_short"] == "FP32 NCHW"
    assert (conv["weights_type"], conv["weights_count"]) == ("Int8", 9408)
    assert (conv["sparse_weights"], conv["activation"]) == (False, "RELU")
    quantize = row(log.precision, "QuantizeLinear_2")
    assert quantize["converts"] == "fp32 -> int8"
    assert row(layers, "QuantizeLinear_2")["origin"] == "QDQ"


def test_trt_8_6_detailed_layers_with_metadata() -> None:
    log = trtlog.load(json_file("kalfazed_trt8.6.1_trex_resnet50int8.engine.graph.json"))
    layers = log.layers
    assert len(layers) == 59
    assert layers["layer_type"].value_counts()["CaskConvolution"] == 53
    # 56 layers read Int8 (54 thirty-two wide, one four wide, one row major), 3 read FP32.
    assert layers["precision"].value_counts().to_dict() == {"int8": 56, "fp32": 3}
    first = row(layers, "/backbone/conv1/Conv + /backbone/relu/Relu + /backbone/maxpool/MaxPool")
    assert (first["input_formats_short"], first["output_formats_short"]) == (
        "Int8 NCHW",
        "Int8 NC/32HW32",
    )
    # "Metadata": "[ONNX Layer: /backbone/conv1/Conv][ONNX Layer: /backbone/relu/Relu][...]"
    assert first["original_layers"] == (
        "/backbone/conv1/Conv; /backbone/relu/Relu; /backbone/maxpool/MaxPool"
    )


def test_trt_10_4_channel_major_fp16_and_profile_join() -> None:
    log = trtlog.load(
        json_file("fuzzylabs_trt10.4_alexnet_fp16.graph.json"),
        profile=json_file("fuzzylabs_trt10.4_alexnet_fp16.profile.json"),
    )
    layers = log.layers
    assert len(layers) == 14
    reformat = layers.iloc[0]
    # "Row major linear FP16 format" -> "Channel major FP16 format where channel % 4 == 0"
    assert (reformat["input_formats_short"], reformat["output_formats_short"]) == (
        "FP16 NCHW",
        "FP16 NHWC4",
    )
    conv = row(layers, "/features/features.0/Conv + /features/features.1/Relu")
    assert conv["output_formats_short"] == "FP16 NHWC8"
    assert (conv["weights_type"], conv["weights_count"]) == ("Half", 23232)
    # Profile: {"name": "/features/features.0/Conv + /features/features.1/Relu", "timeMs": 355.08,
    # "averageMs": 0.0243372, "medianMs": 0.024576, "percentage": 4.643}, of {"count": 14590}.
    assert (conv["time_ms"], conv["median_ms"], conv["percent"]) == (355.08, 0.024576, 4.643)
    assert log.profile["iterations"].iloc[0] == 14590


def test_inspector_format_wording_is_kept_in_reformats() -> None:
    log = trtlog.load(json_file("trex/pytorch__resnet__A100__fp16__resnet.onnx.engine.graph.json"))
    reformats = log.reformats
    conv = row(reformats, "Reformatting CopyNode for Input Tensor 0 to Conv_5 + Add_6 + Relu_7")
    # {"Format/Datatype": "Channel major FP16 format where channel % 8 == 0"} in, "... % 16 ==
    # 0" out: the engine inspector's wording, in the engine, not seen being inserted.
    assert (conv["from_format"], conv["to_format"]) == (
        "Channel major FP16 format where channel % 8 == 0",
        "Channel major FP16 format where channel % 16 == 0",
    )
    assert (conv["in_engine"], conv["inserted"]) == (True, False)
    assert reformats["name"].is_unique and reformats["from_format"].notna().all()


def test_trt_10_16_myelin_layers() -> None:
    log = trtlog.load(json_file("hackathon_trt10.16_exportLayerInfo_detailed.json"))
    layers = log.layers
    assert len(layers) == 9
    conv = row(layers, "node_conv2d + node_relu")
    assert (conv["layer_type"], conv["weights_count"], conv["input_formats"]) == (
        "CaskConvolution",
        800,
        "Float",
    )
    assert conv["kernel"].startswith("sm80_xmma_fprop_implicit_gemm_f32f32")
    # "Metadata": "[ONNX Layer: node_linear]\x1f[ONNX Layer: node_relu_2]"
    assert row(layers, "node_linear_myl4_0")["original_layers"] == "node_linear; node_relu_2"
    assert row(layers, "__myl_CastReshCast_myl4_4")["precision"] == "int32"


def test_names_only_exports() -> None:
    log = trtlog.load(json_file("hackathon_trt8.6.0_exportLayerInfo_layernames.json"))
    assert len(log.layers) == 15
    assert (
        log.layers["name"].iloc[0] == "Reformatting CopyNode for Input Tensor 0 to Conv-1 + ReLU-2"
    )
    assert log.layers["layer_type"].isna().all()


# --- profiles and times -------------------------------------------------------------------


def test_trt_7_1_profiles_appended_to_one_file() -> None:
    log = trtlog.load(json_file("jetson_trt7.1_googlenet_int8_exportProfile.json"))
    # Seven [{"count": ...}, ...] documents one after another; no medianMs before 8.4.
    assert sorted(set(log.profile["run"])) == list(range(7))
    assert log.profile["median_ms"].isna().all()
    # The last document begins {"count": 36}, {"name": "conv1/7x7_s2 + conv1/relu_7x7 +
    # pool1/3x3_s2 input reformatter 0", "timeMs": 118.088, ...}.
    last = log.profile[log.profile["run"] == 6]
    assert last["iterations"].iloc[0] == 36
    first = row(log.layers, "conv1/7x7_s2 + conv1/relu_7x7 + pool1/3x3_s2 input reformatter 0")
    assert first["time_ms"] == 118.088


def test_times_in_both_key_sets() -> None:
    old = trtlog.load(json_file("jetson_trt7.1_resnet50_int8_exportTimes.json")).times
    # 2058 {"startEnqMs", ...} records in 7 documents; 7.1 says startInMs/inMs/endToEndMs.
    assert len(old) == 2058
    assert old["end_to_end_ms"].notna().all()
    assert old.iloc[0]["h2d_ms"] == pytest.approx(0.080608)
    new = trtlog.load(json_file("trex_example_A100_resnet_fp16.engine.timing.json")).times
    assert len(new) == 3698
    assert new["end_to_end_ms"].isna().all()
    # The first record: "computeMs": 0.873472, "latencyMs": 0.873472, "startEnqMs": 2.67333.
    assert tuple(new.iloc[0][["compute_ms", "latency_ms", "start_enqueue_ms"]]) == (
        0.873472,
        0.873472,
        2.67333,
    )


def test_profile_join_by_name_with_repeats_and_gaps(tmp_path: Path) -> None:
    layers = tmp_path / "layers.json"
    layers.write_text(json.dumps({"Layers": ["a", "b", "c"], "Bindings": ["in", "out"]}))
    profile = tmp_path / "profile.json"
    rows = [
        {"count": 10},
        {"name": "c", "timeMs": 3.0, "averageMs": 0.3, "medianMs": 0.3, "percentage": 30.0},
        {"name": "a", "timeMs": 1.0, "averageMs": 0.1, "medianMs": 0.1, "percentage": 10.0},
        {"name": "a", "timeMs": 2.0, "averageMs": 0.2, "medianMs": 0.2, "percentage": 20.0},
    ]
    profile.write_text(json.dumps(rows))
    table = trtlog.load(layers, profile=profile).layers.set_index("name")
    # Joined by name, not position: "c" is listed third and profiled first; "a" twice adds up.
    assert table.loc["c", "time_ms"] == 3.0
    assert (table.loc["a", "time_ms"], table.loc["a", "percent"]) == (3.0, 30.0)
    assert table["time_ms"].isna().tolist() == [False, True, False]


# --- one model from a log and from its exports --------------------------------------------


@pytest.mark.slow
def test_log_and_exports_agree_layer_by_layer() -> None:
    name = "nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log"
    from_log = trtlog.load(log_file(name))
    exported = json_file("nvtrt_trex_trt8.5.2_orin_yolo_exportLayerInfo.json")
    from_json = trtlog.load(
        exported, profile=json_file("nvtrt_trex_trt8.5.2_orin_yolo_exportProfile.json")
    )
    assert list(from_log.layers["name"]) == list(from_json.layers["name"])
    log_times = dict(zip(from_log.profile["layer"], from_log.profile["total_ms"], strict=True))
    json_times = dict(zip(from_json.profile["layer"], from_json.profile["total_ms"], strict=True))
    # The log's --dumpProfile table has 77 of the 86 layers, with the same times rounded to
    # hundredths of a millisecond (192.64 in the log, 192.642 in the export).
    assert len(log_times) == 77 and len(json_times) == 86
    assert {layer: json_times[layer] for layer in log_times} == pytest.approx(log_times, abs=0.005)
    both = trtlog.load(log_file(name), layers=exported)
    assert len(both.layers) == 86
    assert both.layers["layer_type"].notna().all()


def test_log_listing_and_names_export_agree() -> None:
    log = trtlog.load(log_file("hackathon_trt8.4.1_trtexec_loadengine_dumpLayerInfo_gtx1070.log"))
    names = json.loads(json_file("hackathon_trt8.4.1_exportLayerInfo_layernames.json").read_text())
    assert list(log.layers["name"]) == names["Layers"]


def test_run_folder_is_picked_up(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(
        log_file("hackathon_trt8.4.1_trtexec_loadengine_dumpLayerInfo_gtx1070.log"),
        folder / "build.log",
    )
    shutil.copy(
        json_file("hackathon_trt8.4.1_exportLayerInfo_layernames.json"), folder / "layers.json"
    )
    result = runner.invoke(app, ["layers", "--log", str(folder), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)) == 12


def test_an_export_saved_under_a_log_name_is_read_as_one(tmp_path: Path) -> None:
    # trtexec writes --exportProfile to any name given it ("--exportProfile=build_profile.log"
    # in tutorial build scripts): the content says it is a profile.
    profile = tmp_path / "build_profile.log"
    shutil.copy(json_file("jetson_trt7.1_googlenet_int8_exportProfile.json"), profile)
    as_json = tmp_path / "profile.json"
    shutil.copy(profile, as_json)
    result = runner.invoke(app, ["perf", "--log", str(profile), "-f", "json"])
    assert result.exit_code == 0, result.output
    expected = runner.invoke(app, ["perf", "--log", str(as_json), "-f", "json"])
    rows = json.loads(result.output)["profile"]
    assert rows and rows == json.loads(expected.output)["profile"]
    # A log that opens with a bracket is still a log.
    log = tmp_path / "bracket.log"
    log.write_text("[06/14/2023-09:02:11] [I] [TRT] Loaded engine size: 1 MiB\n")
    assert trtlog.load(log).summary.log_style != "json-export"


# --- errors ---------------------------------------------------------------------------------


def test_malformed_json_names_file_and_position(tmp_path: Path) -> None:
    broken = tmp_path / "layers.json"
    broken.write_text('{"Layers": ["a", "b"\n')
    with pytest.raises(ExportError, match=r"layers\.json: not valid JSON at line 2, column 1"):
        export_events(broken)
    result = runner.invoke(app, ["parse", "--no-store", str(broken)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1


def test_a_json_that_is_no_export_is_refused() -> None:
    metadata = json_file("trex_test_TITANRTX_mobilenet_qat.engine.metadata.json")
    with pytest.raises(ExportError, match="not a trtexec"):
        export_events(metadata)


def test_an_export_of_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    profile = json_file("fuzzylabs_trt10.4_alexnet_fp16.profile.json")
    with pytest.raises(ExportError, match="a profile export, not a layers export"):
        export_events(profile, expected="layers")


# --- 11.x schema and precisions TREx gets wrong -------------------------------------------


def test_11x_schema_and_bfloat16(tmp_path: Path) -> None:
    # 11.x: "I/O Tensors" replaces "Bindings"; "Format" and "Datatype" are given apart.
    document = {
        "Layers": [
            {
                "Name": "conv",
                "LayerType": "CaskConvolution",
                "Inputs": [{"Name": "x", "Dimensions": [1, 64, 8, 8], "Format": "kCHW32", "Datatype": "Int8"}],
                "Outputs": [{"Name": "y", "Dimensions": [1, 64, 8, 8], "Format": "kLINEAR", "Datatype": "BF16"}],
            },
            {
                "Name": "gemm",
                "LayerType": "gemm",
                "Inputs": [{"Name": "y", "Dimensions": [1, 512], "Format/Datatype": "Row major linear BF16 format"}],
                "Outputs": [{"Name": "z", "Dimensions": [1, 10], "Format/Datatype": "Row major linear BF16 format"}],
            },
        ],
        "I/O Tensors": [{"Name": "x", "IOMode": "Input"}, {"Name": "z", "IOMode": "Output"}],
    }  # fmt: skip
    path = tmp_path / "engine.json"
    path.write_text(json.dumps(document))
    layers = trtlog.load(path).layers.set_index("name")
    assert layers.loc["conv", "input_formats_short"] == "Int8 NC/32HW32"
    assert layers.loc["conv", "output_formats_short"] == "BF16 NCHW"
    # TREx labels BFloat16 as FP32; it is a precision of its own.
    assert layers.loc["gemm", "precision"] == "bf16"


# --- the commands -----------------------------------------------------------------------


@pytest.mark.slow
def test_precision_command_on_a_fp16_build() -> None:
    # "Precision: FP32+FP16" (line 11); the GTX 1070 runs the convolutions, poolings,
    # matrix multiplies and softmax in FP32; line 1094 says why for MatMul-9 + ReLU-11.
    result = runner.invoke(
        app,
        [
            "precision",
            "--log",
            str(log_file("hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log")),
            "-f",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    wider = {item["name"]: item for item in document["wider"]}
    assert set(wider) == {
        "Conv-1 + ReLU-2",
        "MaxPool-3",
        "Conv-4 + ReLU-5",
        "MaxPool-6",
        "MatMul-9 + ReLU-11",
        "MatMul-12",
        "Softmax-14 + ArgMax-15",
    }
    assert wider["MatMul-12"]["requested"] == "fp32+fp16"
    assert "faster implementation" in wider["MatMul-9 + ReLU-11"]["reason"]
    counts = {item["precision"]: item["layers"] for item in document["precision_counts"]}
    assert counts == {"fp32": 11, "int32": 1}


def test_parse_with_exports_and_query(tmp_path: Path) -> None:
    graph = json_file("fuzzylabs_trt10.4_alexnet_fp16.graph.json")
    profile = json_file("fuzzylabs_trt10.4_alexnet_fp16.profile.json")
    result = runner.invoke(app, ["parse", str(graph), "--profile", str(profile)])
    assert result.exit_code == 0, result.output
    assert "json-export" in result.output
    result = runner.invoke(app, ["layers", "--precision", "fp16", "-f", "json"])
    assert len(json.loads(result.output)) == 13  # all but the shape_call layer


def test_graph_dot_and_neighbourhood(tmp_path: Path) -> None:
    log = trtlog.load(json_file("hackathon_trt10.16_exportLayerInfo_detailed.json"))
    edges = edges_of(log.layers)
    # "Bindings": ["x", "y", "z"]: x enters the first convolution, y and z leave the engine.
    assert ("input:x", "node_conv2d + node_relu", "x") in edges
    assert ("__myl_AddMaxrSubExpSum_myl4_2", "output:y", "y") in edges
    assert ("__myl_CastReshCast_myl4_4", "output:z", "z") in edges
    near = neighbourhood(log.layers, edges, ["node_max_pool2d_1"], 1)
    assert near == {"node_max_pool2d_1", "node_conv2d_1 + node_relu_1", "node_linear_myl4_0"}
    dot = engine_dot(log.layers, near)
    assert dot.startswith("digraph engine {")
    assert '"node_conv2d_1 + node_relu_1" -> "node_max_pool2d_1"' in dot
    assert "node_conv2d + node_relu" not in dot.replace("node_conv2d_1 + node_relu_1", "")
    target = tmp_path / "engine.dot"
    result = runner.invoke(
        app,
        [
            "graph",
            "-o",
            str(target),
            "--log",
            str(json_file("hackathon_trt10.16_exportLayerInfo_detailed.json")),
        ],
    )
    assert result.exit_code == 0, result.output
    assert target.read_text().count("->") == len(edges)


@pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz is not installed (apt-get install graphviz)"
)
def test_graph_svg_through_graphviz(tmp_path: Path) -> None:
    target = tmp_path / "engine.svg"
    source = json_file("kalfazed_trt8.6.1_trex_resnet50int8.engine.graph.json")
    result = runner.invoke(
        app,
        ["graph", "-o", str(target), "--log", str(source), "--around", "layer2.0", "--radius", "1"],
    )
    assert result.exit_code == 0, result.output
    assert "<svg" in target.read_text()


def test_graph_of_a_log_without_tensor_names_is_an_error(tmp_path: Path) -> None:
    names = json_file("hackathon_trt8.6.0_exportLayerInfo_layernames.json")
    result = runner.invoke(app, ["graph", "-o", str(tmp_path / "g.dot"), "--log", str(names)])
    assert result.exit_code == 2
    assert "names no tensors" in result.output
