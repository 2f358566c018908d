"""Progress bars: drawn on standard error when it is a terminal, never otherwise or with
--quiet; the parse reports how far into the file it has read."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import trtlog.parse.log_file
from tests.conftest import SAMPLES
from trtlog.cli import progress
from trtlog.cli.app import app
from trtlog.cli.progress import Bar, IngestProgress
from trtlog.dataset import LogResult
from trtlog.parse.log_file import LogFile

SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    written = io.StringIO()
    return Console(file=written, force_terminal=terminal, width=120), written


def test_a_bar_is_drawn_on_a_terminal() -> None:
    console, written = _console(terminal=True)
    with Bar("parsing build.log", 8_000_000, "bytes", console=console) as bar:
        bar.advance_to(4_000_000)
    drawn = written.getvalue()
    assert "parsing build.log" in drawn
    # Bytes done of the total, as rich's DownloadColumn writes them.
    assert "/8.0 MB" in drawn


def test_no_bar_off_a_terminal_or_when_quiet() -> None:
    for terminal, quiet in ((False, False), (True, True)):
        console, written = _console(terminal)
        with Bar("parsing build.log", 100, "bytes", quiet=quiet, console=console) as bar:
            assert not bar.shown and bar.callback is None
            bar.advance_to(50)
            bar.advance()
        assert written.getvalue() == ""


def test_ingest_progress_counts_files_and_says_each_one() -> None:
    console, written = _console(terminal=True)
    with IngestProgress(console=console) as shown:
        shown.start(2)
        shown.done(LogResult("a.log"))
        shown.done(LogResult("b.log", error="b.log: not a TensorRT log"))
    drawn = written.getvalue()
    assert "added: a.log" in drawn and "failed: b.log: not a TensorRT log" in drawn
    assert "ingesting" in drawn and "2/2" in drawn and "files/s" in drawn


def test_quiet_ingest_says_nothing() -> None:
    console, written = _console(terminal=True)
    with IngestProgress(quiet=True, console=console) as shown:
        shown.start(1)
        shown.done(LogResult("a.log"))
    assert written.getvalue() == ""


def test_the_parse_reports_bytes_read_up_to_the_whole_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A report every 8 items: the sample's couple of hundred items make many.
    monkeypatch.setattr(trtlog.parse.log_file, "_ITEMS_PER_REPORT", 8)
    size = SAMPLE.stat().st_size
    reported: list[int] = []
    parse = LogFile(str(SAMPLE), on_progress=reported.append)
    assert sum(1 for _ in parse.items()) > 0
    assert len(reported) > 10
    assert reported == sorted(reported)
    assert reported[-1] == size


def _run_on_terminal(arguments: list[str], cwd: Path) -> tuple[int, str]:
    """Run trtlog with standard error on a pseudo-terminal (standard output on a pipe), with
    any log counted as large; return its exit status and what reached the terminal."""
    script = (
        "import trtlog.cli.progress as progress; progress.LARGE_LOG_BYTES = 1; "
        "from trtlog.cli.app import main; import sys; sys.argv[0] = 'trtlog'; main()"
    )
    controller, terminal = pty.openpty()
    environment = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
    process = subprocess.Popen(
        [sys.executable, "-c", script, *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=terminal,
        cwd=cwd,
        env=environment,
    )
    os.close(terminal)
    drawn = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        drawn += chunk
    process.communicate(timeout=300)
    os.close(controller)
    return process.returncode, drawn.decode(errors="replace")


@pytest.mark.slow
def test_parse_draws_a_bar_on_a_terminal_unless_quiet(tmp_path: Path) -> None:
    code, drawn = _run_on_terminal(["parse", str(SAMPLE), "--no-store", "-j", "1"], tmp_path)
    assert code == 0
    assert f"parsing {SAMPLE.name}" in drawn
    assert "kB" in drawn and "eta" in drawn
    code, drawn = _run_on_terminal(["parse", str(SAMPLE), "--no-store", "--quiet"], tmp_path)
    assert code == 0
    assert "parsing" not in drawn


def test_parse_draws_nothing_when_standard_error_is_no_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress, "LARGE_LOG_BYTES", 1)
    result = CliRunner().invoke(app, ["parse", str(SAMPLE), "--no-store"])
    assert result.exit_code == 0
    assert "parsing" not in result.output


@pytest.mark.slow
def test_ingest_draws_a_bar_on_a_terminal(tmp_path: Path) -> None:
    other = SAMPLES / "trtexec_8.x_build.log"
    dataset = tmp_path / "dataset"
    arguments = ["ingest", str(SAMPLE), str(other), "-o", str(dataset), "-j", "1"]
    code, drawn = _run_on_terminal(arguments, tmp_path)
    assert code == 0
    assert "ingesting" in drawn and "2/2" in drawn
    assert f"added: {SAMPLE}" in drawn
    quiet = ["ingest", str(SAMPLE), str(other), "-o", str(tmp_path / "again"), "-j", "1", "-q"]
    code, drawn = _run_on_terminal(quiet, tmp_path)
    assert code == 0
    assert "ingesting" not in drawn and "added" not in drawn
