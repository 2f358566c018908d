"""The pieces of ``trtlog build`` that need no child process: progress from log lines, the
trtexec command line, shapes, the worker's messages as log lines, and capture times."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import CORPUS_LOGS, needs_corpus
from trtlog.build.progress import ProgressState
from trtlog.build.python_backend import WorkerMessages, parse_shapes
from trtlog.build.runfolder import RunFolder, default_run_folder
from trtlog.build.trtexec import TrtexecInfo, _dotted, trtexec_command
from trtlog.parse import parse_text
from trtlog.parse.capture_times import read_capture
from trtlog.render.frames import render_table


def feed(lines: list[str]) -> ProgressState:
    state = ProgressState()
    for line in lines:
        state.feed(line)
    return state


def test_progress_follows_a_10x_build() -> None:
    prefix = "[07/07/2026-02:11:00] [V] [TRT] "
    state = feed(
        [
            "[07/07/2026-02:10:59] [I] Start parsing network model.",
            prefix + "Original: 24 layers",
            prefix + "After Myelin optimization: 17 layers",
            prefix + "After concat removal: 13 layers",
        ]
    )
    assert state.phase == "graph optimisation" and state.layers_total == 13
    state.feed(prefix + "=============== Computing costs for node_conv2d + node_relu")
    state.feed(prefix + "--------------- Timing Runner: node_conv2d + node_relu (CaskConvolution)")
    state.feed(
        prefix
        + "Tactic Name: sm90_xmma_fprop_implicit_gemm Tactic: 0xbd1b8bf1ad4fc3c6 Time: 0.0123"
    )
    state.feed(prefix + "Tactic: 0x0000000000000000 Time: 0.00512")
    state.feed(
        prefix + "node_conv2d + node_relu (CaskConvolution[0x80000009]) profiling completed in "
        "0.1 seconds. Fastest Tactic: 0xbd1b8bf1ad4fc3c6 Time: 0.0123"
    )
    assert state.phase == "autotuning" and state.layer == "node_conv2d + node_relu"
    assert (state.layers_tuned, state.tactics_timed) == (1, 2)
    assert "layer 1/13" in state.describe() and "2 tactics timed" in state.describe()
    state.feed(prefix + "=============== Computing costs for node_max_pool2d")
    state.feed(prefix + "Formats and tactics selection completed in 14.8 seconds.")
    assert state.phase == "reformat selection" and state.layer is None
    assert state.layers_tuned == 2
    state.feed("[07/07/2026-02:11:15] [I] Engine built in 15.6 sec.")
    state.feed("&&&& PASSED TensorRT.trtexec [TensorRT v101601] # trtexec --onnx=model.onnx")
    assert state.phase == "engine generation and serialisation" and state.finished == "passed"


def test_progress_of_7x_and_8_0_logs_without_cost_headers() -> None:
    # 8.0-8.2 and 7.x print no "Computing costs for": a layer starts at its first runner.
    state = feed(
        [
            "[TensorRT] VERBOSE: --------------- Timing Runner: Optimizer Reformat (Reformat)",
            "[TensorRT] VERBOSE: Tactic: 1002 time 0.064928",
            "[TensorRT] VERBOSE: --------------- Timing Runner: conv1 + relu1 (CudnnConvolution)",
            "[TensorRT] VERBOSE: Tactic: -3360065831133338131 time 0.1",
            "[TensorRT] VERBOSE: Fastest Tactic: 1002 Time: 0.064928",
            "[TensorRT] VERBOSE: --------------- Timing Runner: conv1 + relu1 (CaskConvolution)",
            "[TensorRT] VERBOSE: --------------- Timing Runner: pool1 (Pooling)",
        ]
    )
    assert state.layers_tuned == 2 and state.layer == "pool1"
    assert state.tactics_timed == 2


def test_progress_notes_errors_and_a_missing_gpu() -> None:
    state = feed(
        [
            "[11/22/2026-10:00:00] [TRT] [E] createInferRuntime: Error Code 6: API Usage Error "
            "(CUDA initialization failure with error: 35 In checkCudaInstallation)",
            "[11/22/2026-10:00:00] [E] Error[4]: second error",
        ]
    )
    assert state.errors == 2
    assert state.first_error is not None and state.first_error.endswith("checkCudaInstallation)")
    assert state.gpu_error == state.first_error


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", CORPUS_LOGS, ids=lambda path: path.name)
def test_progress_counts_match_the_log(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", errors="replace")
    state = feed(text.splitlines())
    headers = len(re.findall(r"Computing costs for ", text))
    if headers:
        # One layer per header, counted over the last build of the log.
        last_build = text.rsplit("Original: ", 1)[-1]
        assert state.layers_tuned == len(re.findall(r"Computing costs for ", last_build))
    timed = re.findall(
        r"(?<!Fastest )(?<![\w])Tactic(?: Name: \S+ Tactic)?:? (?:0x[0-9a-fA-F]+|-?\d+) [Tt]ime",
        text,
    )
    assert state.tactics_timed == len(timed)


def test_trtexec_command_for_an_engine_profiles_it(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path / "run", Path("net.plan"))
    info = TrtexecInfo("trtexec", "10.3.0", None)
    command = trtexec_command(info, Path("/models/net.plan"), folder, ["-v"])
    assert command[1] == "--loadEngine=/models/net.plan"
    # "-v" is trtexec's --verbose: not given twice. An engine is not built again.
    assert "--verbose" not in command and command[-1] == "-v"
    assert not any(part.startswith(("--saveEngine", "--timingCacheFile")) for part in command)
    assert f"--exportProfile={tmp_path / 'run' / 'profile.json'}" in command


def test_timing_cache_given_by_the_user_is_used(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path, Path("m.onnx"))
    info = TrtexecInfo("trtexec", None, None)
    command = trtexec_command(info, Path("m.onnx"), folder, [], Path("/shared/cache.bin"))
    assert "--timingCacheFile=/shared/cache.bin" in command


@pytest.mark.parametrize(
    ("packed", "dotted"),
    [("100300", "10.3.0"), ("101601", "10.16.1"), ("8601", "8.6.1"), ("8003", "8.0.3")],
)
def test_trtexec_version_banner(packed: str, dotted: str) -> None:
    assert _dotted(packed) == dotted


def test_shapes_in_trtexec_syntax() -> None:
    assert parse_shapes("input:8x3x224x224,mask:8x128") == [
        ("input", [8, 3, 224, 224]),
        ("mask", [8, 128]),
    ]
    assert parse_shapes("'input:0':1x3") == [("input:0", [1, 3])]
    assert parse_shapes("input:0:1x3") == [("input:0", [1, 3])]
    for bad in ("input", "input:8xq", ":1x3", "x:-1x3"):
        with pytest.raises(ValueError, match="--shapes"):
            parse_shapes(bad)


def test_default_run_folder_is_unique_and_safe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    now = datetime(2026, 11, 22, 10, 0, 0)
    first = default_run_folder(Path("/models/my net (v2).onnx"), now)
    assert first == Path("trtlog-runs/my_net_v2-20261122T100000Z")
    first.mkdir(parents=True)
    assert default_run_folder(Path("my net (v2).onnx"), now).name.endswith("Z-2")


def test_worker_messages_become_python_api_log_lines() -> None:
    written: list[tuple[bytes, int, str, str | None]] = []
    start = datetime(2026, 11, 22, 10, 0, 0)
    messages = WorkerMessages(lambda *line: written.append(line), start, started_ns=1_000_000)
    text = "Engine Layer Information:\nLayer(CaskConvolution): conv1, Tactic: 0x1, x -> y\n"
    events = [
        {"kind": "version", "version": "10.3.0"},
        {"kind": "log", "severity": "verbose", "text": text, "t_ns": 2_501_000_000},
        {"kind": "log", "severity": "warning", "text": "weights are subnormal", "t_ns": 3_000_000},
        {"kind": "failure", "reason": "build-failed", "message": "no engine"},
    ]
    for event in events:
        messages(json.dumps(event).encode() + b"\n", 0)
    messages(b"not json from the worker\n", 7)
    assert messages.version == "10.3.0"
    assert messages.failure == {"kind": "failure", "reason": "build-failed", "message": "no engine"}
    lines = [raw.decode() for raw, _, _, _ in written]
    assert lines == [
        "[11/22/2026-10:00:02] [TRT] [V] Engine Layer Information:\n",
        "Layer(CaskConvolution): conv1, Tactic: 0x1, x -> y\n",
        "[11/22/2026-10:00:00] [TRT] [W] weights are subnormal\n",
        "not json from the worker\n",
    ]
    assert [(stream, severity) for _, _, stream, severity in written] == [
        ("logger", "verbose"),
        ("logger", "verbose"),
        ("logger", "warning"),
        ("logger", None),
    ]
    parsed = parse_text("".join(lines))
    assert {event.severity for event in parsed.events if event.producer == "trt"} == {
        "verbose",
        "warning",
    }


def test_capture_times_replace_whole_seconds(tmp_path: Path) -> None:
    log = (
        "[07/07/2026-02:11:00] [V] [TRT] Original: 24 layers\n"
        "[07/07/2026-02:11:00] [V] [TRT] After dead-layer removal: 24 layers\n"
        "[07/07/2026-02:11:01] [V] [TRT] After concat removal: 13 layers\n"
    )
    (tmp_path / "build.log").write_text(log)
    (tmp_path / "run.json").write_text(json.dumps({"start_local": "2026-11-22T10:00:00.250000"}))
    entries = [
        {"line": 1, "t_ms": 10.5, "stream": "stdout"},
        {"line": 2, "t_ms": 12.25, "stream": "stdout"},
        "a line cut short by a crash",
        {"line": 3, "t_ms": 1500.0, "stream": "stdout"},
    ]
    capture = tmp_path / "capture.jsonl"
    capture.write_text("\n".join(json.dumps(entry) for entry in entries)[:-3] + "\n")
    times = read_capture(capture)
    start = datetime(2026, 11, 22, 10, 0, 0, 250000)
    assert times.time_of(1) == start + timedelta(milliseconds=10.5)
    assert times.time_of(2) == start + timedelta(milliseconds=12.25)
    # The last entry was cut short; line 3 keeps its own stamp.
    assert times.time_of(3) is None and times.time_of(99) is None
    events = list(times.stamp(parse_text(log).events))
    assert [event.timestamp for event in events][:2] == [times.time_of(1), times.time_of(2)]
    assert events[2].timestamp == datetime(2026, 7, 7, 2, 11, 1)


def test_table_cells_and_titles_are_not_markup() -> None:
    stream = io.StringIO()
    frame = pd.DataFrame({"layer": ["(Unnamed Layer* 0) [Convolution] + tensor[bold]"]})
    render_table(frame, stream, "layers [x]")
    assert "tensor[bold]" in stream.getvalue() and "layers [x]" in stream.getvalue()


def test_capture_times_fall_back_to_the_file_time_without_run_json(tmp_path: Path) -> None:
    capture = tmp_path / "capture.jsonl"
    capture.write_text(json.dumps({"line": 1, "t_ms": 0.0, "stream": "stdout"}) + "\n")
    times = read_capture(capture)
    written = datetime.fromtimestamp(capture.stat().st_mtime)
    assert times.time_of(1) == written


def test_ctrl_c_while_the_finished_build_is_parsed_is_said_and_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.conftest import SAMPLES
    from trtlog.build.run import BuildResult
    from trtlog.cli.build_output import report_build
    from trtlog.store import Store

    folder = RunFolder(tmp_path / "run", Path("model.onnx"))
    folder.path.mkdir()
    folder.log.write_bytes((SAMPLES / "trtexec_10.x_build_inference_profile.log").read_bytes())
    run = {"outcome": "succeeded", "folder": str(folder.path), "backend": "trtexec",
           "duration_s": 1.0, "lines": 234}  # fmt: skip
    folder.write_run(run)

    def interrupted(*_arguments: object, **_keywords: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Store, "load", interrupted)
    with pytest.raises(SystemExit) as ended:
        report_build(BuildResult(folder, run, ProgressState()), keep=True)
    assert ended.value.code == 130
    assert "interrupted while parsing the log" in capsys.readouterr().err
    recorded = json.loads(folder.run_json.read_text())
    assert (recorded["outcome"], recorded["parse"]) == ("succeeded", "interrupted")


def test_progress_never_shows_more_layers_tuned_than_the_total() -> None:
    progress = ProgressState()
    progress.feed("[V] [TRT] After concat removal: 2 layers")
    for layer in ("a", "b", "c"):
        progress.feed(f"[V] [TRT] =============== Computing costs for {layer}")
    assert progress.layers_tuned == 3
    # The count before tuning was short (10.x tunes each backend strategy): no "3/2".
    assert "layer 3 " in progress.describe() + " " and "/2" not in progress.describe()
