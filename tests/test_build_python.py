"""The Python backend against real TensorRT libraries.

``tensorrt-lean`` (TensorRT's runtime-only package, on PyPI) gives a real ``ILogger``: on a
machine without a GPU, creating a runtime makes TensorRT log two real errors. That runtime
object must not be used afterwards, so it lives in a child process. The full build needs the
``tensorrt`` package (NVIDIA's index) and a GPU: those tests are marked ``gpu`` and skipped
without them; ``scripts/gpu_smoke.sh`` runs them on a GPU machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from trtlog.build.trt_logger import SEVERITIES

HAS_LEAN = importlib.util.find_spec("tensorrt_lean") is not None
HAS_TENSORRT = importlib.util.find_spec("tensorrt") is not None
HAS_ONNX = importlib.util.find_spec("onnx") is not None


def gpu_present() -> bool:
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return Path("/dev/nvidia0").exists()
    return subprocess.run([smi, "-L"], capture_output=True, check=False).returncode == 0


GPU = gpu_present()
needs_lean = pytest.mark.skipif(not HAS_LEAN, reason="tensorrt-lean is not installed")
STAMPED_ERROR = re.compile(r"^\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\] \[TRT\] \[E\] ")


def trtlog_build(model: Path, *arguments: str) -> list[str]:
    return [sys.executable, "-m", "trtlog.cli.app", "build", str(model), *arguments]


_CHILD = """
import json, os, sys
import tensorrt_lean as trt
from trtlog.build.trt_logger import capture_logger
messages = []
logger = capture_logger(trt, lambda severity, text, stamp: messages.append([severity, text, stamp]))
runtime = trt.Runtime(logger)
print(json.dumps({"messages": messages, "errors": logger.errors}))
sys.stdout.flush()
os._exit(0)
"""


def run_adapter_child() -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


@needs_lean
def test_logger_adapter_records_real_tensorrt_messages() -> None:
    data = run_adapter_child()
    messages = data["messages"]
    for severity, text, stamp in messages:
        assert severity in SEVERITIES.values()
        assert isinstance(text, str) and isinstance(stamp, int)
    stamps = [stamp for _, _, stamp in messages]
    assert stamps == sorted(stamps)
    assert data["errors"] == [text for severity, text, _ in messages if severity == "error"]
    if GPU:
        pytest.skip("a GPU is present: creating a runtime logs no CUDA errors here")
    # Without a GPU TensorRT reports the failed CUDA start through the logger, not by raising.
    assert len(data["errors"]) >= 1
    assert any("CUDA" in text or "cuda" in text for text in data["errors"])


@pytest.mark.slow
@needs_lean
def test_python_backend_treats_logged_cuda_errors_as_no_gpu(tmp_path: Path) -> None:
    model = tmp_path / "model.onnx"
    model.write_bytes(b"the worker stops before reading the model")
    env = dict(os.environ, TRTLOG_TENSORRT_MODULE="tensorrt_lean", TRTLOG_STORE=str(tmp_path))
    folder = tmp_path / "run"
    result = subprocess.run(
        trtlog_build(model, "--backend", "python", "--quiet", "--out", str(folder)),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    run = json.loads((folder / "run.json").read_text())
    assert run["backend"] == "python" and run["tensorrt_module"] == "tensorrt_lean"
    from importlib.metadata import version

    assert run["tensorrt_version"] == version("tensorrt_lean")
    if GPU:
        # The lean runtime starts on a GPU but cannot build.
        assert run["outcome"] == "unusable" and "runtime-only" in run["reason"]
        return
    assert run["outcome"] == "no-gpu"
    assert result.stderr.startswith("trtlog: TensorRT cannot use a GPU here: ")
    assert result.stderr.count("\n") == 1
    log_lines = (folder / "build.log").read_text().splitlines()
    entries = [json.loads(line) for line in (folder / "capture.jsonl").read_text().splitlines()]
    assert len(entries) == len(log_lines) >= 1
    errors = [entry for entry in entries if entry.get("severity") == "error"]
    assert errors and all(entry["stream"] == "logger" for entry in errors)
    for entry in errors:
        assert STAMPED_ERROR.match(log_lines[entry["line"] - 1])
    # The log reads as a Python-API log: its errors are parsed as TensorRT's diagnostics.
    from trtlog.store.sources import parse_sources, resolve

    parsed = parse_sources(resolve(folder))
    severities = [event.severity for event in parsed.events if event.producer == "trt"]
    assert severities.count("error") == len(errors)


def tiny_onnx_model(path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 16, 16])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "tiny", [x], [y])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


@pytest.mark.gpu
@pytest.mark.skipif(not (HAS_TENSORRT and GPU), reason="needs the tensorrt package and a GPU")
@pytest.mark.skipif(not HAS_ONNX, reason="needs the onnx package to write a model")
def test_python_backend_builds_a_real_engine(tmp_path: Path) -> None:
    model = tmp_path / "tiny.onnx"
    tiny_onnx_model(model)
    folder = tmp_path / "run"
    result = subprocess.run(
        trtlog_build(model, "--backend", "python", "--quiet", "--out", str(folder)),
        cwd=tmp_path,
        env=dict(os.environ, TRTLOG_STORE=str(tmp_path / "store")),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads((folder / "run.json").read_text())
    assert run["outcome"] == "succeeded"
    assert {"log", "capture", "engine", "layers", "timing_cache"} <= set(run["files"])
    entries = [json.loads(line) for line in (folder / "capture.jsonl").read_text().splitlines()]
    assert {entry["severity"] for entry in entries} >= {"verbose"}


@pytest.mark.gpu
@pytest.mark.skipif(shutil.which("trtexec") is None or not GPU, reason="needs trtexec and a GPU")
@pytest.mark.skipif(not HAS_ONNX, reason="needs the onnx package to write a model")
def test_trtexec_backend_builds_a_real_engine(tmp_path: Path) -> None:
    model = tmp_path / "tiny.onnx"
    tiny_onnx_model(model)
    folder = tmp_path / "run"
    result = subprocess.run(
        trtlog_build(model, "--quiet", "--out", str(folder)),
        cwd=tmp_path,
        env=dict(os.environ, TRTLOG_STORE=str(tmp_path / "store")),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads((folder / "run.json").read_text())
    assert run["outcome"] == "succeeded" and run["backend"] == "trtexec"
    assert {"log", "capture", "engine", "layers", "profile", "times"} <= set(run["files"])


STAND_INS = Path(__file__).with_name("stand_ins")


def build_with_stand_in(
    tmp_path: Path, *arguments: str, model_bytes: bytes = b"onnx", **variables: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``trtlog build --backend python`` against tests/stand_ins/fake_tensorrt.py."""
    model = tmp_path / "model.onnx"
    model.write_bytes(model_bytes)
    folder = tmp_path / "run"
    env = dict(os.environ, TRTLOG_TENSORRT_MODULE="fake_tensorrt", **variables)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(STAND_INS), env.get("PYTHONPATH")]))
    env["TRTLOG_STORE"] = str(tmp_path / "store")
    result = subprocess.run(
        trtlog_build(model, "--backend", "python", "--quiet", "--out", str(folder), *arguments),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result, folder


def test_an_earlier_run_folder_is_never_overwritten(tmp_path: Path) -> None:
    earlier = tmp_path / "run"
    earlier.mkdir()
    (earlier / "build.log").write_text("an earlier build's log\n")
    result, folder = build_with_stand_in(tmp_path)
    assert result.returncode == 2
    assert "already holds files" in result.stderr and "Traceback" not in result.stderr
    assert (folder / "build.log").read_text() == "an earlier build's log\n"
    assert sorted(path.name for path in folder.iterdir()) == ["build.log"]


@pytest.mark.slow
def test_worker_applies_the_options_and_writes_the_engine_files(tmp_path: Path) -> None:
    result, folder = build_with_stand_in(
        tmp_path, "--fp16", "--int8", "--workspace", "64", "--shapes", "x:1x3x16x16"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads((folder / "run.json").read_text())
    assert run["outcome"] == "succeeded" and run["tensorrt_version"] == "10.99.0"
    assert (folder / "model.engine").read_bytes() == b"fake serialized engine"
    assert (folder / "timing.cache").read_bytes() == b"fresh timing cache+1 entry"
    assert json.loads((folder / "layers.json").read_text())["Layers"][0]["Name"] == "node_relu"
    log = (folder / "build.log").read_text()
    settings = json.loads(log.split("fake builder settings: ", 1)[1].splitlines()[0])
    assert settings == {
        "flags": ["FP16", "INT8"],
        "workspace": [64 << 20],
        "shapes": [{"x": [[1, 3, 16, 16]] * 3}],
        "verbosity": "DETAILED",
    }
    entries = [json.loads(line) for line in (folder / "capture.jsonl").read_text().splitlines()]
    # The two-line layer information message: both lines carry its time and severity.
    layer_lines = [entry for entry in entries if entry.get("severity") == "verbose"][-2:]
    assert layer_lines[0]["t_ms"] == layer_lines[1]["t_ms"]
    assert run["progress"]["layers_tuned"] == 1 and run["progress"]["tactics_timed"] == 1
    # The run became the current log; its layers come from the log and layers.json.
    layers = subprocess.run(
        [sys.executable, "-m", "trtlog.cli.app", "layers", "--format", "json"],
        cwd=tmp_path,
        env=dict(os.environ, TRTLOG_STORE=str(tmp_path / "store")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert layers.returncode == 0, layers.stderr
    rows = json.loads(layers.stdout)
    assert [(row["name"], row["layer_type"]) for row in rows] == [("node_relu", "PointWiseV2")]


@pytest.mark.slow
def test_worker_reuses_the_timing_cache_it_is_given(tmp_path: Path) -> None:
    cache = tmp_path / "shared.cache"
    cache.write_bytes(b"old cache")
    result, _ = build_with_stand_in(tmp_path, "--timing-cache", str(cache))
    assert result.returncode == 0, result.stderr
    assert cache.read_bytes() == b"old cache+1 entry"


@pytest.mark.slow
def test_precision_flag_the_tensorrt_lacks_is_a_clear_error(tmp_path: Path) -> None:
    result, folder = build_with_stand_in(tmp_path, "--fp16", FAKE_TRT_NO_FP16="1")
    assert result.returncode == 2
    assert "has no FP16 builder flag" in result.stderr and result.stderr.count("\n") == 1
    assert json.loads((folder / "run.json").read_text())["outcome"] == "unusable"


@pytest.mark.slow
def test_error_logged_during_the_build_fails_it(tmp_path: Path) -> None:
    result, folder = build_with_stand_in(tmp_path, FAKE_TRT_FAIL="1")
    assert result.returncode == 4
    run = json.loads((folder / "run.json").read_text())
    assert run["outcome"] == "failed" and "Error Code 2" in run["reason"]
    assert not (folder / "model.engine").exists()


@pytest.mark.slow
def test_shapes_naming_a_missing_input_and_a_bad_model_are_clear_errors(tmp_path: Path) -> None:
    result, _ = build_with_stand_in(tmp_path, "--shapes", "image:1x3x16x16")
    assert result.returncode == 2
    assert "'image', which is not an input of the network (inputs: x)" in result.stderr
    result, _ = build_with_stand_in(tmp_path / "..", model_bytes=b"bad bytes")
    assert result.returncode == 2 and "Failed to parse ONNX model" in result.stderr
