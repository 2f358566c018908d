"""``trtlog watch`` follows a log while another process writes it: at varying speed, with a
partial last line, a pause, a truncation, a file that appears late."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import SAMPLES, corpus_dir
from trtlog.build.watch import LogFollower, WatchState

SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
# Writes SOURCE into TARGET in pieces of 1 to 4,000 bytes (so that pieces end inside lines), a
# few milliseconds apart, with a pause half-way; with "truncate", first writes a third of it,
# then empties the file and writes it all.
WRITER = textwrap.dedent(
    """
    import random, sys, time
    source, target, mode = sys.argv[1:4]
    data = open(source, "rb").read()
    random.seed(7)
    def write(stream, chunk):
        position = 0
        while position < len(chunk):
            size = random.randint(1, 4000)
            stream.write(chunk[position:position + size]); stream.flush()
            position += size
            time.sleep(random.choice([0, 0.001, 0.005]))
    with open(target, "wb") as stream:
        if mode == "truncate":
            write(stream, data[: len(data) // 3])
            time.sleep(1.0)
            stream.seek(0); stream.truncate()
        half = len(data) // 2
        write(stream, data[:half] + data[half:half + 17])  # ends inside a line
        time.sleep(0.8)
        write(stream, data[half + 17:])
    """
)


def run_watch(
    log: Path, tmp_path: Path, *arguments: str, writer: tuple[Path, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"))
    command = [sys.executable, "-m", "trtlog.cli.app", "watch", str(log), "--timeout", "90"]
    watcher = subprocess.Popen(
        [*command, *arguments],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if writer is not None:
        source, mode = writer
        time.sleep(0.5)
        subprocess.run([sys.executable, "-c", WRITER, str(source), str(log), mode], check=True)
    out, err = watcher.communicate(timeout=120)
    return subprocess.CompletedProcess(watcher.args, watcher.returncode, out, err)


def tactic_lines(path: Path) -> int:
    timing = re.compile(r"Tactic: (0x[0-9a-f]+|-?\d+) Time: ")
    return sum(1 for line in path.open() if timing.search(line) and "Fastest" not in line)


@pytest.mark.slow
def test_a_log_written_in_pieces_is_followed_to_its_end(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    result = run_watch(log, tmp_path, writer=(SAMPLE, "plain"))
    assert result.returncode == 0, result.stderr
    assert "watch ended: the run passed" in result.stdout
    # Four "Computing costs for" layers of four after the last stage count ("After concat
    # removal: 4 layers", line 98); 13 timing lines.
    assert "layer 4/4" in result.stdout and f"{tactic_lines(SAMPLE)} tactics timed" in result.stdout
    assert tactic_lines(SAMPLE) == 13
    # Its two warnings appeared on standard error as they came.
    assert result.stderr.count("[W]") == 2
    # The log became the current log.
    environment = dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"))
    layers = subprocess.run(
        [sys.executable, "-m", "trtlog.cli.app", "layers", "-f", "json"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert layers.returncode == 0, layers.stderr
    assert len(json.loads(layers.stdout)) > 0


@pytest.mark.slow
def test_a_truncated_log_is_read_again_from_its_start(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    result = run_watch(log, tmp_path, writer=(SAMPLE, "truncate"))
    assert result.returncode == 0, result.stderr
    # Counted once: the third written before the truncation is not counted again.
    assert "layer 4/4" in result.stdout and "13 tactics timed" in result.stdout


@pytest.mark.slow
def test_a_real_build_log_replayed(tmp_path: Path) -> None:
    source = corpus_dir() / "logs" / "hackathon_trt8.6.0_trtexec_build_rtx3090.log"
    if not source.exists():
        pytest.skip("corpus not found")
    result = run_watch(tmp_path / "build.log", tmp_path, writer=(source, "plain"))
    assert result.returncode == 0, result.stderr
    # 10 "Computing costs for" lines after "After concat removal: 10 layers" (line 375); 1,934
    # timing lines.
    assert "layer 10/10  1934 tactics timed" in result.stdout
    # By the log's own clock: 07:13:13 (line 2; line 1 carries no stamp) to 07:13:22 (line 3438).
    assert "0:09 elapsed" in result.stdout
    assert "6 warnings, 0 errors" in result.stdout  # six "[W]" lines


def test_once_prints_the_state_of_a_partial_log(tmp_path: Path) -> None:
    log = tmp_path / "partial.log"
    lines = SAMPLE.read_text().splitlines(keepends=True)
    first_timing = next(number for number, line in enumerate(lines) if "Tactic Name:" in line)
    log.write_text("".join(lines[: first_timing + 2]))
    result = run_watch(log, tmp_path, "--once")
    assert result.returncode == 0, result.stderr
    assert "watch ended: state printed" in result.stdout
    assert "autotuning  layer 1/4" in result.stdout and "2 tactics timed" in result.stdout
    # A snapshot does not become the current log.
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize(
    ("name", "ending"),
    [
        # "[I] PASSED | Runtime: 16.888s | Command: /usr/local/bin/polygraphy run ..." (last line)
        ("hackathon_trt10.16.2_polygraphy0.49_run_verbose.log", "passed"),
        # "[TRT-LLM] [I] Total time of building all engines: 00:01:59" (last line)
        ("excerpt_trtllm_falcon_readme_build.EXCERPT.log", "built"),
    ],
)
def test_the_build_ends_at_each_programs_last_word(name: str, ending: str) -> None:
    from trtlog.build.watch import watch

    source = corpus_dir() / "logs" / name
    if not source.exists():
        pytest.skip("corpus not found")
    assert watch(source, once=True).reason == ending


def test_a_missing_log_with_once_is_an_error(tmp_path: Path) -> None:
    result = run_watch(tmp_path / "nothing.log", tmp_path, "--once")
    assert result.returncode == 2 and "no such file" in result.stderr


def test_the_follower_keeps_a_partial_line_until_its_newline(tmp_path: Path) -> None:
    log = tmp_path / "growing.log"
    follower = LogFollower(log)
    assert follower.lines() == []  # not there yet
    log.write_bytes(b"first\nsec")
    assert follower.lines() == ["first"]
    with log.open("ab") as stream:
        stream.write(b"ond\r\n\n")
    assert follower.lines() == ["second", ""]
    log.write_bytes(b"new\n")  # shorter: truncated and written again
    assert follower.lines() == ["new"] and follower.restarts == 1


def test_time_left_is_the_average_layer_time_times_the_layers_left() -> None:
    state = WatchState()
    stamp = "[01/01/2026-00:00:{:02d}] [V] [TRT] "
    state.feed(stamp.format(0) + "After reformat layers: 5 layers", 0.0)
    state.feed(stamp.format(0) + "=============== Computing costs for a", 0.0)
    state.feed(stamp.format(10) + "=============== Computing costs for b", 0.0)
    state.feed(stamp.format(20) + "=============== Computing costs for c", 0.0)
    # Two layers took 20 s: 10 s each, three left (c, d, e).
    assert state.time_left() == pytest.approx(30.0)
    assert state.slowest() == [("a", 10.0), ("b", 10.0)]


@pytest.mark.slow
def test_ctrl_c_ends_the_watch_and_keeps_what_was_read(tmp_path: Path) -> None:
    import signal

    log = tmp_path / "build.log"
    lines = SAMPLE.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:150]))  # tuning done, no verdict yet
    environment = dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"))
    watcher = subprocess.Popen(
        [sys.executable, "-m", "trtlog.cli.app", "watch", str(log), "--quiet"],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)
    watcher.send_signal(signal.SIGINT)
    out, err = watcher.communicate(timeout=120)
    assert watcher.returncode == 130, err
    assert "watch ended: interrupted" in out and "layer 4/4" in out
    assert "Traceback" not in err
    assert (tmp_path / "store").exists()  # parsed: the current log


def test_once_reads_the_whole_of_a_file_larger_than_one_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from trtlog.build import watch as watching

    # Reads of 1 KB instead of 64 MB: the sample log takes many.
    monkeypatch.setattr(watching, "_READ_BYTES", 16)
    result = watching.watch(SAMPLE, once=True)
    assert result.reason == "passed"
    assert (result.state.progress.layers_tuned, result.state.progress.tactics_timed) == (4, 13)


@pytest.mark.slow
def test_a_script_without_a_verdict_ends_when_its_engine_is_written(tmp_path: Path) -> None:
    # A Python-API build: the sample's lines without trtexec's "&&&& PASSED" verdict.
    log = tmp_path / "build.log"
    lines = [line for line in SAMPLE.read_text().splitlines(True) if "&&&&" not in line]
    source = tmp_path / "script-output.log"
    source.write_text("".join(lines))
    engine = tmp_path / "model.engine"
    environment = dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"))
    command = [sys.executable, "-m", "trtlog.cli.app", "watch", str(log), "--engine", str(engine)]
    watcher = subprocess.Popen(
        [*command, "--timeout", "60", "--quiet"],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    subprocess.run([sys.executable, "-c", WRITER, str(source), str(log), "plain"], check=True)
    engine.write_bytes(b"serialized engine")
    started = time.monotonic()
    out, err = watcher.communicate(timeout=120)
    assert watcher.returncode == 0, err
    assert time.monotonic() - started < 30  # not the timeout
    assert "watch ended: the build finished" in out and "13 tactics timed" in out


def test_the_stamp_and_the_layer_count_are_read_as_the_grammar_reads_them() -> None:
    from trtlog.build.watch import _stamp_of

    # The envelope grammar's TIMESTAMP, with or without the blank after it; no date, no time.
    assert _stamp_of("[07/07/2026-02:11:00][V][TRT] x") == datetime(2026, 7, 7, 2, 11).timestamp()
    assert _stamp_of("[13/40/2026-02:11:00] [V] x") is None
    state = WatchState()
    state.feed("[07/07/2026-02:11:00] [V] [TRT] After vertical fusions: 57 layers\r\n", 0.0)
    # STAGE_NAME's count ends the line: this is no layer count.
    state.feed("[07/07/2026-02:11:00] [V] [TRT] After concat removal: 3 layers, 2 merged", 0.0)
    assert state.progress.layers_total == 57
