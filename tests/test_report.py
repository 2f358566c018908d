"""The HTML report: self-contained, readable at any length, and opened in a real headless
browser (Debian's Chromium, started by the test) without console errors."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES, corpus_log, needs_corpus
from trtlog.analysis import BuildLog
from trtlog.cli.app import app
from trtlog.parse import parse_file
from trtlog.report import SECTIONS, render_report
from trtlog.report.page import FOLDED_ROWS, SHOWN_ROWS, table

SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags that keep a headless Chromium off the network and its first-run chores.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
]


def open_in_chromium(page: Path, profile: Path) -> tuple[str, str]:
    """The DOM Chromium built from ``page``, and what it logged."""
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


@needs_corpus
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize(
    "name",
    [
        "nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log",
        "hackathon_trt10.16.1_trtexec_build_h100.log",
        "hackathon_trt8.6_pyapi_nodate_timingcache.log",
    ],
)
def test_report_opens_in_chromium_without_console_errors(name: str, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(render_report(BuildLog.from_parsed(corpus_log(name))), encoding="utf-8")
    dom, logged = open_in_chromium(page, tmp_path / "profile")
    console = [line for line in logged.splitlines() if ":CONSOLE" in line]
    assert console == []
    headings = re.findall(r"<h2>([^<]*)</h2>", dom)
    assert headings == list(SECTIONS.values())
    assert dom.count("<svg") >= 3


def test_report_is_self_contained() -> None:
    page = render_report(BuildLog.from_parsed(parse_file(SAMPLE)))
    assert "<script" not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert page.count("<svg") >= 4
    # The sample's per-layer profile (lines 226-231) and its warning (line 215) are in it.
    assert "/conv2/Conv + /relu2/Relu" in page
    assert "GPU compute time is unstable" in page


def test_long_tables_are_folded_then_counted() -> None:
    frame = pd.DataFrame({"layer": [f"layer_{index}" for index in range(FOLDED_ROWS + 40)]})
    html = table(frame, "Layers", "trtlog layers")
    shown, folded = html.split("<details>")
    assert shown.count("<tr>") == SHOWN_ROWS + 1  # the header row too
    assert f"{FOLDED_ROWS - SHOWN_ROWS} more rows" in folded
    assert "40 further rows not shown" in folded
    assert "layer_0<" in shown and f"layer_{FOLDED_ROWS}<" not in html


def test_report_command(tmp_path: Path) -> None:
    target = tmp_path / "out.html"
    result = CliRunner().invoke(app, ["report", "--log", str(SAMPLE), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    result = CliRunner().invoke(
        app, ["report", "--log", str(SAMPLE), "-o", str(tmp_path / "no" / "x.html")]
    )
    assert result.exit_code == 2
    assert "cannot write" in result.output
