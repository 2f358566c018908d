"""``trtlog build`` with the trtexec backend, end to end against a real child process.

``tests/fake_trtexec.py`` stands in for trtexec: it takes trtexec's arguments, replays a real
trtexec 10.16 build log from the corpus line by line, and writes the files it was asked for.
trtlog runs as its own process, so that signals reach it as they would from a terminal.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import corpus_dir

REPLAYED = corpus_dir() / "logs" / "hackathon_trt10.16.1_trtexec_build_h100.log"
LAYER_INFO = corpus_dir() / "json" / "hackathon_trt10.16_exportLayerInfo_detailed.json"
FAKE = Path(__file__).with_name("fake_trtexec.py")

pytestmark = [
    pytest.mark.skipif(not REPLAYED.is_file(), reason=f"{REPLAYED} not found"),
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and shell scripts"),
]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A folder with a trtexec on its bin/ and a model whose path holds spaces and quotes."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    trtexec = bin_dir / "trtexec"
    trtexec.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n')
    trtexec.chmod(0o755)
    models = tmp_path / "my models"
    models.mkdir()
    (models / "it's a net.onnx").write_bytes(b"not parsed by the fake trtexec")
    return tmp_path


def environment(workdir: Path, **fake: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{workdir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["TRTLOG_STORE"] = str(workdir / "store")
    env["FAKE_TRTEXEC_LOG"] = str(REPLAYED)
    env["FAKE_TRTEXEC_ARGV"] = str(workdir / "argv.json")
    env["FAKE_TRTEXEC_RECORD"] = str(workdir / "written.txt")
    if LAYER_INFO.is_file():
        env["FAKE_TRTEXEC_LAYERS"] = str(LAYER_INFO)
    env.update({f"FAKE_TRTEXEC_{name.upper()}": value for name, value in fake.items()})
    return env


def trtlog(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "trtlog.cli.app", *arguments]


def build(workdir: Path, *arguments: str, **fake: str) -> subprocess.CompletedProcess[str]:
    model = workdir / "my models" / "it's a net.onnx"
    return subprocess.run(
        trtlog("build", str(model), "--out", str(workdir / "run"), *arguments),
        cwd=workdir,
        env=environment(workdir, **fake),
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_json(workdir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((workdir / "run" / "run.json").read_text())
    return data


def capture_entries(workdir: Path) -> list[dict[str, Any]]:
    lines = (workdir / "run" / "capture.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def count_lines(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text, flags=re.MULTILINE))


@pytest.mark.slow
def test_successful_build_keeps_every_line_with_its_time(workdir: Path) -> None:
    result = build(workdir, "--quiet", "--", "--fp16", "--shapes=x:4x1x28x28", delay="0.0003")
    assert result.returncode == 0, result.stderr
    folder = workdir / "run"
    # The log is the build's output byte for byte.
    assert (folder / "build.log").read_bytes() == REPLAYED.read_bytes()
    entries = capture_entries(workdir)
    physical_lines = REPLAYED.read_bytes().count(b"\n")
    assert [entry["line"] for entry in entries] == list(range(1, physical_lines + 1))
    assert {entry["stream"] for entry in entries} == {"stdout"}
    times = [entry["t_ms"] for entry in entries]
    assert times == sorted(times)
    # The fake sleeps 0.3 ms after each line: the capture spans at least that.
    assert times[-1] - times[0] >= 0.3 * (physical_lines - 1) * 0.9
    run = run_json(workdir)
    assert run["outcome"] == "succeeded"
    assert run["exit_status"] == 0 and run["signal"] is None
    assert run["backend"] == "trtexec"
    # From the fake's "--help" banner, [TensorRT v101601].
    assert run["tensorrt_version"] == "10.16.1"
    assert run["lines"] == physical_lines
    assert {"log", "capture", "engine", "timing_cache"} <= set(run["files"])


@pytest.mark.slow
def test_trtexec_gets_the_capture_options_and_the_users_own(workdir: Path) -> None:
    result = build(workdir, "--quiet", "--", "--fp16", "--exportTimes=mine.json")
    assert result.returncode == 0, result.stderr
    received = json.loads((workdir / "argv.json").read_text())
    folder = workdir / "run"
    model = workdir / "my models" / "it's a net.onnx"
    assert received[:2] == [f"--onnx={model}", "--verbose"]
    assert "--profilingVerbosity=detailed" in received
    assert f"--saveEngine={folder / 'it_s_a_net.engine'}" in received
    assert f"--exportLayerInfo={folder / 'layers.json'}" in received
    # The user's --exportTimes wins over trtlog's; their arguments come last, as given.
    assert f"--exportTimes={folder / 'times.json'}" not in received
    assert received[-2:] == ["--fp16", "--exportTimes=mine.json"]
    assert run_json(workdir)["command"][1:] == received


@pytest.mark.slow
def test_options_an_old_trtexec_does_not_list_are_left_out(workdir: Path) -> None:
    # 8.0's trtexec knew --nvtxMode, not --profilingVerbosity, and had no --exportLayerInfo.
    options = "--onnx,--saveEngine,--verbose,--nvtxMode,--timingCacheFile,--exportProfile,"
    options += "--exportTimes,--fp16,--int8,--shapes,--workspace,--buildOnly"
    result = build(workdir, "--quiet", options=options)
    assert result.returncode == 0, result.stderr
    received = json.loads((workdir / "argv.json").read_text())
    assert "--nvtxMode=verbose" in received
    assert not any(argument.startswith("--profilingVerbosity") for argument in received)
    assert not any(argument.startswith("--exportLayerInfo") for argument in received)


@pytest.mark.slow
def test_captured_run_is_parsed_with_millisecond_times_and_becomes_current(
    workdir: Path,
) -> None:
    result = build(workdir, "--quiet", delay="0.0002")
    assert result.returncode == 0, result.stderr
    assert "succeeded" in result.stdout and "10.16.1" in result.stdout
    env = environment(workdir)
    timeline = subprocess.run(
        trtlog("timeline", "--format", "json"),
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert timeline.returncode == 0, timeline.stderr
    views = json.loads(timeline.stdout)
    rows = next(iter(views.values())) if isinstance(views, dict) else views
    measured = {row["source"] for row in rows if str(row["source"]).startswith("timestamps")}
    assert measured == {"timestamps (1 ms)"}
    # The replayed log's own stamps span 02:10:59 to 02:11:xx; the capture spans the replay.
    entries = capture_entries(workdir)
    span_s = (entries[-1]["t_ms"] - entries[0]["t_ms"]) / 1000
    ends = [row["end_s"] for row in rows if row.get("end_s") is not None]
    assert max(ends) <= span_s + 0.01
    layers = subprocess.run(
        trtlog("layers", "--format", "json"),
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert layers.returncode == 0, layers.stderr
    if LAYER_INFO.is_file():
        exported = json.loads(LAYER_INFO.read_text())["Layers"]
        names = {row["name"] for row in json.loads(layers.stdout)}
        assert {layer["Name"] for layer in exported} <= names


@pytest.mark.slow
def test_progress_state_is_kept_in_run_json(workdir: Path) -> None:
    result = build(workdir, "--quiet")
    assert result.returncode == 0, result.stderr
    progress = run_json(workdir)["progress"]
    text = REPLAYED.read_text()
    assert progress["layers_tuned"] == count_lines(r"Computing costs for ", text) == 23
    timed = r"\] (?:Tactic Name: \S+ )?Tactic: 0x[0-9a-f]+ Time: "
    assert progress["tactics_timed"] == count_lines(timed, text)
    # The last "After ...: N layers" before autotuning: "After concat removal: 13 layers".
    assert progress["layers_total"] == 13
    assert progress["finished"] == "passed"


@pytest.mark.slow
def test_failed_build_keeps_its_log_and_exits_4(workdir: Path) -> None:
    result = build(workdir, "--quiet", mode="fail", stop="1000")
    assert result.returncode == 4, result.stderr
    run = run_json(workdir)
    assert run["outcome"] == "failed" and run["exit_status"] == 1
    assert "status 1" in run["reason"] and "Error Code 4" in run["reason"]
    log = (workdir / "run" / "build.log").read_text().splitlines(keepends=True)
    streams = [entry["stream"] for entry in capture_entries(workdir)]
    # Lines of the two streams are kept in the order they arrived; each stream in its order.
    stdout = [line for line, stream in zip(log, streams, strict=True) if stream == "stdout"]
    stderr = [line for line, stream in zip(log, streams, strict=True) if stream == "stderr"]
    assert stdout[:1000] == REPLAYED.read_text().splitlines(keepends=True)[:1000]
    assert stdout[1000:] == ["&&&& FAILED TensorRT.trtexec [TensorRT v101601] # trtexec\n"]
    assert len(stderr) == 1 and "[E] Error[4]" in stderr[0]
    # The brackets of the error line are printed, not taken for markup.
    assert "[network.cpp::validate::3100]" in result.stdout


@pytest.mark.slow
def test_crashed_build_is_reported_with_its_signal(workdir: Path) -> None:
    result = build(workdir, "--quiet", mode="crash", stop="700")
    assert result.returncode == 4, result.stderr
    run = run_json(workdir)
    assert run["outcome"] == "crashed" and run["signal"] == "SIGABRT"
    expected = "".join(REPLAYED.read_text().splitlines(keepends=True)[:700])
    assert (workdir / "run" / "build.log").read_text() == expected
    # The log up to the crash is parsed and summarised.
    assert "trtexec" in result.stdout and "10.16.1" in result.stdout


def start_build(workdir: Path, *arguments: str, **fake: str) -> subprocess.Popen[str]:
    model = workdir / "my models" / "it's a net.onnx"
    return subprocess.Popen(
        trtlog("build", str(model), "--out", str(workdir / "run"), "--quiet", *arguments),
        cwd=workdir,
        env=environment(workdir, **fake),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_lines(workdir: Path, count: int, timeout: float = 60) -> None:
    record = workdir / "written.txt"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = record.read_text().strip() if record.exists() else ""
        if text.isdigit() and int(text) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"the fake trtexec did not write {count} lines in {timeout} s")


@pytest.mark.slow
def test_interrupted_build_keeps_every_line_written_before_the_interrupt(
    workdir: Path,
) -> None:
    process = start_build(workdir, delay="0.002")
    wait_for_lines(workdir, 300)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGINT
    written = int((workdir / "written.txt").read_text())
    log = (workdir / "run" / "build.log").read_text()
    kept = log.splitlines(keepends=True)
    assert len(kept) >= written >= 300
    assert log == "".join(REPLAYED.read_text().splitlines(keepends=True)[: len(kept)])
    run = run_json(workdir)
    assert run["outcome"] == "interrupted" and run["interrupted_by"] == "SIGINT"
    # trtexec was asked to stop with SIGTERM and did.
    assert run["signal"] == "SIGTERM" and not run["killed_after_grace"]
    assert run["lines"] == len(kept)


@pytest.mark.slow
def test_build_that_ignores_sigterm_is_killed_after_the_grace_period(workdir: Path) -> None:
    process = start_build(workdir, "--grace", "1", delay="0.002", mode="ignore-term")
    wait_for_lines(workdir, 100)
    signalled = time.monotonic()
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=60)
    assert time.monotonic() - signalled >= 1.0
    assert process.returncode == 128 + signal.SIGTERM
    run = run_json(workdir)
    assert run["interrupted_by"] == "SIGTERM"
    assert run["killed_after_grace"] and run["signal"] == "SIGKILL"
    assert "killed after the grace period" in run["reason"]


def test_no_trtexec_and_no_tensorrt_is_a_one_line_error(workdir: Path) -> None:
    env = environment(workdir)
    env["PATH"] = os.path.dirname(sys.executable)
    env.pop("TENSORRT_HOME", None)
    env["TRTLOG_TENSORRT_MODULE"] = "tensorrt_that_is_not_installed"
    result = subprocess.run(
        trtlog("build", str(workdir / "my models" / "it's a net.onnx")),
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "no TensorRT found" in result.stderr and "pip install" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_model_is_told_before_a_missing_tensorrt(workdir: Path) -> None:
    env = environment(workdir)
    env["PATH"] = os.path.dirname(sys.executable)
    env.pop("TENSORRT_HOME", None)
    env["TRTLOG_TENSORRT_MODULE"] = "tensorrt_that_is_not_installed"
    result = subprocess.run(
        trtlog("build", str(workdir / "missing.onnx")),
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "missing.onnx: no such file" in result.stderr
    assert "TensorRT" not in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--fp16"], "--fp16 is an option of the python backend"),
        (["--backend", "trtexec", "--trtexec", "/no/such/trtexec"], "/no/such/trtexec: not found"),
        (["--backend", "python", "--", "--fp16"], "the python backend takes none"),
    ],
)
def test_options_that_cannot_be_used_are_one_line_errors(
    workdir: Path, arguments: list[str], message: str
) -> None:
    env = environment(workdir)
    if "--backend" in arguments and "python" in arguments:
        # Any importable module stands in for tensorrt: the options are checked first.
        env["TRTLOG_TENSORRT_MODULE"] = "json"
    model = workdir / "my models" / "it's a net.onnx"
    result = subprocess.run(
        trtlog("build", str(model), *arguments),
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_missing_model_is_a_one_line_error(workdir: Path) -> None:
    result = subprocess.run(
        trtlog("build", str(workdir / "nothing.onnx")),
        cwd=workdir,
        env=environment(workdir),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "nothing.onnx: no such file" in result.stderr


@pytest.mark.slow
def test_tee_echoes_the_raw_log_before_the_report(workdir: Path) -> None:
    result = build(workdir, "--quiet", "--tee")
    assert result.returncode == 0, result.stderr
    replayed = REPLAYED.read_text()
    assert result.stdout.startswith(replayed)
    assert "succeeded" in result.stdout[len(replayed) :]


@pytest.mark.slow
def test_live_progress_is_drawn_on_a_terminal(workdir: Path) -> None:
    import pty

    controller, terminal = pty.openpty()
    model = workdir / "my models" / "it's a net.onnx"
    process = subprocess.Popen(
        trtlog("build", str(model), "--out", str(workdir / "run")),
        cwd=workdir,
        env={**environment(workdir, delay="0.001"), "COLUMNS": "160", "TERM": "xterm"},
        stdout=subprocess.DEVNULL,
        stderr=terminal,
    )
    os.close(terminal)
    drawn = bytearray()
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closes when trtlog ends
            break
        if not chunk:
            break
        drawn += chunk
    os.close(controller)
    assert process.wait(timeout=60) == 0
    text = drawn.decode("utf-8", errors="replace")
    assert "autotuning" in text and "tactics timed" in text
    assert re.search(r"layer \d+/13", text)


@pytest.mark.slow
def test_a_killed_trtlog_takes_its_build_with_it(workdir: Path) -> None:
    process = start_build(workdir, delay="0.01")
    wait_for_lines(workdir, 50)
    process.kill()  # SIGKILL: nothing of trtlog's runs after it
    process.communicate(timeout=60)
    # The stand-in trtexec got SIGTERM from the kernel and stopped writing.
    time.sleep(1.0)
    stopped = int((workdir / "written.txt").read_text())
    time.sleep(1.0)
    assert int((workdir / "written.txt").read_text()) == stopped
    assert stopped < len(REPLAYED.read_text().splitlines())
    # The run folder, once read, no longer says the build is running.
    assert run_json(workdir)["outcome"] == "running"
    parsed = subprocess.run(
        trtlog("parse", str(workdir / "run")),
        cwd=workdir,
        env=environment(workdir),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert parsed.returncode == 0, parsed.stderr
    run = run_json(workdir)
    assert run["outcome"] == "killed" and "killed before the build ended" in run["reason"]
