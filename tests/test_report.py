"""The HTML report: self-contained, readable at any length, and opened in a real headless
browser (Debian's Chromium, started by the test): no console errors, no page wider than the
window, tables that sort on a click and filter on what is typed; screenshots kept under the
test's folder."""

from __future__ import annotations

import json
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
from trtlog.report.page import FILTER_ROWS, ROW_LIMIT, table

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


needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)
WINDOW = (1024, 900)

# Run in the page after the report's own script: how far the page runs past the window's
# width, then what sorting and filtering do, written into the page for --dump-dom to show.
PROBE = """
<script>
(function () {
  var probe = { overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth };
  function firstColumn(table) {
    return Array.prototype.map.call(table.tBodies[0].rows, function (row) {
      return row.cells[0].textContent;
    });
  }
  function headersOf(table) {
    return Array.prototype.map.call(table.tHead.rows[0].cells, function (cell) {
      return cell.textContent;
    });
  }
  // The per-layer profile: the performance section's table with a total_ms column.
  var profile = Array.prototype.filter.call(
    document.querySelectorAll("#performance table.data"),
    function (table) { return headersOf(table).indexOf("total_ms") >= 0; }
  )[0];
  if (profile) {
    var headers = headersOf(profile);
    var total = profile.tHead.rows[0].cells[headers.indexOf("total_ms")];
    total.click();
    probe.ascending = firstColumn(profile);
    total.click();
    probe.descending = firstColumn(profile);
    probe.sorted = total.getAttribute("aria-sort");
  }
  var filter = document.querySelector("#stages input.filter");
  if (filter) {
    filter.value = "removal";
    filter.dispatchEvent(new Event("input"));
    var rows = filter.parentNode.querySelectorAll("tbody tr");
    probe.filtered = Array.prototype.filter.call(rows, function (row) { return !row.hidden; }).length;
    probe.filterNote = filter.parentNode.querySelector(".shown-rows").textContent;
  }
  var out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify(probe);
  document.body.appendChild(out);
})();
</script>
"""


def probe_in_chromium(html: str, folder: Path) -> tuple[dict[str, object], list[str]]:
    """Open ``html`` (with the probe added) in Chromium at ``WINDOW``'s size: what the probe
    found, and the console messages. A screenshot of the page as it is goes to
    ``folder/screenshot.png``."""
    page = folder / "report.html"
    page.write_text(html, encoding="utf-8")
    screenshot(page, folder / "screenshot.png", folder / "profile")
    probed = folder / "probed.html"
    probed.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom, logged = open_in_chromium(probed, folder / "profile")
    found = re.search(r'<pre id="probe">([^<]*)</pre>', dom)
    assert found, dom[-2000:]
    console = [line for line in logged.splitlines() if ":CONSOLE" in line]
    return json.loads(found[1].replace("&quot;", '"').replace("&amp;", "&")), console


def screenshot(page: Path, target: Path, profile: Path) -> None:
    assert CHROMIUM is not None
    subprocess.run(
        [
            CHROMIUM,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            f"--screenshot={target}",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert target.stat().st_size > 10_000


def open_in_chromium(page: Path, profile: Path) -> tuple[str, str]:
    """The DOM Chromium built from ``page``, and what it logged."""
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


@pytest.mark.slow
@needs_corpus
@needs_chromium
@pytest.mark.parametrize(
    "name",
    [
        "nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log",
        "hackathon_trt10.16.1_trtexec_build_h100.log",
        "hackathon_trt8.6_pyapi_nodate_timingcache.log",
    ],
)
def test_report_opens_in_chromium_without_console_errors(name: str, tmp_path: Path) -> None:
    html = render_report(BuildLog.from_parsed(corpus_log(name)))
    probe, console = probe_in_chromium(html, tmp_path)
    assert console == []
    assert probe["overflow"] == 0
    page = tmp_path / "report.html"
    dom, _ = open_in_chromium(page, tmp_path / "profile")
    headings = re.findall(r"<h2>([^<]*)</h2>", dom)
    assert headings == list(SECTIONS.values())
    assert dom.count("<svg") >= 3


@pytest.mark.slow
@needs_chromium
def test_report_tables_sort_and_filter_in_chromium(tmp_path: Path) -> None:
    probe, console = probe_in_chromium(
        render_report(BuildLog.from_parsed(parse_file(SAMPLE))), tmp_path
    )
    assert console == []
    assert probe["overflow"] == 0
    # The sample's per-layer profile (lines 226-231) by Time(ms): 7.03, 24.19, 29.71, 36.02,
    # 102.13, 110.48.
    assert probe["ascending"] == [
        "Reformatting CopyNode for Output Tensor 0 to /fc/Gemm",
        "/fc/Gemm",
        "Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu1/Relu",
        "/pool/MaxPool",
        "/conv1/Conv + /relu1/Relu",
        "/conv2/Conv + /relu2/Relu",
    ]
    assert probe["descending"] == list(reversed(probe["ascending"]))
    assert probe["sorted"] == "descending"
    # Of the sample's 11 stages, 5 are removals: dead-layer, dupe layer, final dead-layer,
    # slice and concat.
    assert probe["filtered"] == 5
    assert probe["filterNote"] == "5 of 11 rows"
    assert (tmp_path / "screenshot.png").is_file()


@pytest.mark.slow
def test_report_is_self_contained() -> None:
    page = render_report(BuildLog.from_parsed(parse_file(SAMPLE)))
    # One inline script (sorting and filtering), nothing loaded from anywhere.
    assert page.count("<script>") == 1 and "<script " not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert page.count("<svg") >= 4
    # The sample's per-layer profile (lines 226-231) and its warning (line 215) are in it.
    assert "/conv2/Conv + /relu2/Relu" in page
    assert "GPU compute time is unstable" in page


def test_long_tables_scroll_in_their_box_then_are_counted() -> None:
    frame = pd.DataFrame({"layer": [f"layer_{index}" for index in range(ROW_LIMIT + 40)]})
    html = table(frame, "Layers", "trtlog layers")
    assert html.count("<tr>") == ROW_LIMIT + 1  # the header row too
    assert '<div class="table-box">' in html and 'class="filter"' in html
    assert "40 further rows not shown" in html and "<code>trtlog layers</code>" in html
    assert "layer_0<" in html and f"layer_{ROW_LIMIT}<" not in html
    # A short table has no filter box.
    assert 'class="filter"' not in table(frame.head(FILTER_ROWS))


def test_key_columns_come_first_and_numbers_sort_by_value() -> None:
    frame = pd.DataFrame(
        {"run": [0, 0], "build": [0, 0], "layer": ["a", "b"], "time_ms": [0.1234567, 12.5]}
    )
    html = table(frame)
    assert re.findall(r"<th[^>]*>([^<]*)</th>", html) == ["layer", "time_ms", "run", "build"]
    # The number as it is, beside its rounded text.
    assert '<td class="number" data-sort="0.1234567">0.123457</td>' in html


@pytest.mark.slow
def test_report_has_the_check_findings() -> None:
    page = render_report(BuildLog.from_parsed(parse_file(SAMPLE)))
    findings = page.split('<section id="findings">')[1].split("</section>")[0]
    # The sample's reformat layers take 9.6% + 2.3% of the profile (lines 226 and 231), and
    # trtexec warns that GPU compute time is unstable (line 215).
    assert "2 reformat layers take 11.9% of the profiled time" in findings
    assert "unstable-gpu-time" in findings
    assert "3 warning, 1 note" in findings


@pytest.mark.slow
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


@pytest.mark.slow
def test_diff_writes_an_html_comparison(tmp_path: Path) -> None:
    other = SAMPLES / "trtexec_8.x_build.log"
    target = tmp_path / "diff.html"
    result = CliRunner().invoke(
        app, ["diff", str(other), str(SAMPLE), "-f", "html", "-o", str(target)]
    )
    assert result.exit_code == 0, result.output
    html = target.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert f"{other.name} → {SAMPLE.name}" in html
    headings = re.findall(r"<h2>([^<]*)</h2>", html)
    # TensorRT 8.x against 10.8: the overview always differs, and so do the engine layers.
    assert headings[0] == "Overview" and "Engine layers" in headings
    # The versions side by side: 8.x's log is TensorRT 8.4.3 (line 54), the sample's 10.8.0
    # (its header, v100800).
    overview = html.split('<section id="overview">')[1].split("</section>")[0]
    assert "8.4.3" in overview and "10.8.0" in overview
    if CHROMIUM is not None:
        probe, console = probe_in_chromium(html, tmp_path)
        assert console == [] and probe["overflow"] == 0
    same = CliRunner().invoke(app, ["diff", str(SAMPLE), str(SAMPLE), "-f", "html"])
    assert same.exit_code == 0
    assert "<h2>No differences</h2>" in same.output
