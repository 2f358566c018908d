"""Tables that fit 80- and 100-column terminals, in human units, and their raw figures in JSON
and CSV.

Expected values come from ``sample_logs/trtexec_10.x_build_inference_profile.log`` (line
numbers are that file's) unless a test names a corpus log."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES, corpus_dir
from trtlog.cli.app import app
from trtlog.render.fitting import Kind, fit_columns, shorten_middle
from trtlog.render.units import column_unit, significant

runner = CliRunner()
SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
# 10.16 on an H100: Myelin layer names of 100 characters and more.
LONG_NAMES = "hackathon_trt10.16.1_trtexec_build_h100.log"

QUERIES = [
    ["stages"],
    ["tactics", "--top", "5"],
    ["tactics", "--layer", "/conv2/Conv"],
    ["fusions"],
    ["reformats"],
    ["memory"],
    ["perf"],
    ["layers"],
    ["warnings"],
    ["precision"],
    ["kernels"],
    ["timeline"],
    ["check"],
]


def corpus_path(name: str) -> Path:
    path = corpus_dir() / "logs" / name
    if not path.exists():
        pytest.skip(f"corpus log {name} not found in {corpus_dir()}")
    return path


def run(*arguments: str, columns: int | None = None) -> tuple[int, str]:
    env = {} if columns is None else {"COLUMNS": str(columns)}
    result = runner.invoke(app, list(arguments), env=env)
    return result.exit_code, result.output


def too_long(text: str, width: int) -> list[str]:
    return [line for line in text.splitlines() if len(line) > width]


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("query", QUERIES, ids=" ".join)
def test_every_query_table_fits_the_terminal(query: list[str], width: int) -> None:
    code, output = run(*query, "--log", str(SAMPLE), columns=width)
    assert code == 0, output
    assert too_long(output, width) == []


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 100])
def test_tables_of_long_layer_names_fit_the_terminal(width: int) -> None:
    log = str(corpus_path(LONG_NAMES))
    for query in (["layers"], ["tactics", "--top", "5"], ["precision"], ["perf"]):
        code, output = run(*query, "--log", log, columns=width)
        assert code == 0, output
        assert too_long(output, width) == [], query


def _header(output: str) -> str:
    """The header of the first table: its lines between the top rule and the one under it."""
    lines = output.splitlines()
    top = next(index for index, line in enumerate(lines) if line.startswith("┏"))
    bottom = next(index for index, line in enumerate(lines) if line.startswith("┡"))
    return "\n".join(lines[top + 1 : bottom])


def _header_words(output: str) -> set[str]:
    return set(re.findall(r"[^\s┃]+", _header(output)))


def test_tactics_at_100_columns_keep_the_runner_and_a_readable_gap() -> None:
    code, output = run("tactics", "--top", "5", "--log", str(SAMPLE), columns=100)
    assert code == 0
    assert {"layer", "runner", "tactic", "best", "gap", "(ms)", "(%)"} <= _header_words(output)
    # Line 133: /conv2/Conv + /relu2/Relu chose 0x39e5a7b21c0d4f86 in CaskConvolution.
    row = next(line for line in output.splitlines() if "0x39e5a7b21c0d4f86" in line)
    assert "/conv2/Conv + /relu2/Relu" in row and "CaskConvolution" in row


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 100])
def test_layers_keep_their_precision_tactic_and_time(width: int) -> None:
    code, output = run("layers", "--log", str(SAMPLE), columns=width)
    assert code == 0
    assert {"name", "precision", "tactic", "time", "(ms)", "%"} <= _header_words(output)
    # Lines 167-170 and the profile's line for /pool/MaxPool: fp16, 0.00355 ms tuned, 36.02 ms.
    row = next(line for line in output.splitlines() if "/pool/MaxPool" in line)
    assert re.search(r"│ fp16 +│ +0\.00355 │ +36\.02 │", row), row


def test_long_names_are_shortened_in_the_middle() -> None:
    code, output = run("layers", "--log", str(SAMPLE), columns=80)
    assert code == 0
    name = "Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu1/Relu"
    assert name not in output
    shortened = re.search(r"│ (Reformatting C[^│…]*…[^│]*/relu1/Relu) +│", output)
    assert shortened is not None, output
    first, last = shortened.group(1).split("…")
    assert name.startswith(first) and name.endswith(last)


@pytest.mark.slow
def test_the_columns_left_out_are_named_and_wide_shows_them() -> None:
    code, output = run("tactics", "--top", "5", "--log", str(SAMPLE), columns=80)
    assert code == 0
    note = " ".join(output.split("Columns left out at this width:")[1].split())
    assert "kernel" in note and "--wide shows every column" in note
    assert "sm80_xmma" not in output
    code, wide = run("tactics", "--top", "5", "--wide", "--log", str(SAMPLE), columns=80)
    assert code == 0
    # Line 133's kernel, whole, on the row of its layer.
    kernel = "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nchwkcrs_nchw_tilesize64x64x64"
    row = next(line for line in wide.splitlines() if "0x39e5a7b21c0d4f86" in line)
    assert kernel in row and "Columns left out" not in wide


@pytest.mark.slow
def test_a_table_written_to_a_file_keeps_every_column() -> None:
    code, output = run("tactics", "--top", "5", "--log", str(SAMPLE))
    assert code == 0
    assert "Columns left out" not in output
    assert {"kernel", "formats", "in engine"} <= {
        word.strip() for word in _header(output).split("┃")
    }


def test_shorten_middle_keeps_the_start_and_the_end() -> None:
    assert shorten_middle("/model/layers.17/mlp/MatMul", 16) == "/model/l…/MatMul"
    assert shorten_middle("/fc/Gemm", 16) == "/fc/Gemm"
    # Wide characters count two cells each.
    assert shorten_middle("层层层层层层", 7) == "层…层层"


def test_fitting_never_squeezes_a_column_below_what_it_needs() -> None:
    headers = ["layer", "best (ms)", "gap (%)", "kernel"]
    cells = [["/backbone/stage0/conv_0" * 3, "0.002949", "17.11", "sm80_" + "x" * 80]]
    kinds = [Kind.SHORTEN, Kind.WHOLE, Kind.WHOLE, Kind.SHORTEN]
    fitted = fit_columns(headers, cells, kinds, [0, 1, 2, 3], 60)
    # The numbers whole; the headers wrap at their spaces; the kernel, least important, goes.
    assert fitted.kept == [0, 1, 2]
    assert fitted.hidden == [3]
    assert fitted.widths[1:] == [len("0.002949"), len("17.11")]
    assert fitted.cells[0][1:] == ["0.002949", "17.11"]
    assert len(fitted.cells[0][0]) == fitted.widths[0] >= 36


def test_significant_digits() -> None:
    assert significant(0.00294885) == "0.002949"
    assert significant(102.13) == "102.1"
    assert significant(29.71) == "29.71"
    assert significant(2.5) == "2.5"
    assert significant(30104.3) == "30104"
    assert significant(-17.10526) == "-17.11"
    assert significant(0) == "0"


def test_memory_columns_take_a_binary_unit() -> None:
    # Lines 152-155: host persistent 3200, 2304, 3200 and 1664 bytes.
    unit = column_unit("host_persistent", [3200, 2304, 3200, 1664], numeric=True)
    assert (unit.header, unit.unit, unit.scale) == ("host persistent (KiB)", "KiB", 1024.0)
    assert column_unit("bytes", [1982857216, 9437184], numeric=True).header == "size (GiB)"
    assert column_unit("scratch", [0, 512], numeric=True).header == "scratch (B)"
    assert column_unit("best_ms", [0.1], numeric=True).header == "best (ms)"
    assert column_unit("throughput_qps", [1.0], numeric=True).header == "throughput (qps)"
    assert column_unit("layer", ["a"], numeric=False).header == "layer"


@pytest.mark.slow
def test_memory_table_in_kib_and_json_in_bytes() -> None:
    code, table = run("memory", "--log", str(SAMPLE), columns=100)
    assert code == 0
    assert "(KiB)" in _header(table)
    # Line 155: /fc/Gemm Device Persistent: 20480 bytes, 20 KiB; host persistent 1664, 1.625 KiB.
    row = next(line for line in table.splitlines() if "/fc/Gemm" in line)
    assert re.search(r"│ +1\.625 │ +20 │ +0 │", row), row
    code, document = run("memory", "--log", str(SAMPLE), "-f", "json")
    gemm = next(row for row in json.loads(document)["memory"] if row["layer"] == "/fc/Gemm")
    assert (gemm["host_persistent"], gemm["device_persistent"]) == (1664, 20480)


@pytest.mark.slow
def test_csv_gives_no_binary_noise() -> None:
    code, output = run("timeline", "--log", str(SAMPLE), "-f", "csv")
    assert code == 0
    numbers = re.findall(r"(?<![\w.])-?\d+\.\d+(?:e-?\d+)?", output)
    assert numbers
    assert (
        max(len(number.replace("-", "").replace(".", "").lstrip("0")) for number in numbers) <= 10
    )
    # The interpolated end of initialisation (lines 2-62 stamped to the second) has more
    # digits than any clock gives: 3.008771929824561 becomes 3.00877193.
    assert "3.00877193," in output


@pytest.mark.slow
def test_perf_rows_name_their_unit_and_leave_out_counts_of_lines() -> None:
    code, output = run("perf", "--log", str(SAMPLE), "-f", "json")
    assert code == 0
    rows = json.loads(output)["perf"]
    # Line 207: Throughput: 30104.3 qps; line 208: Total Host Walltime: 3.00004 s.
    assert rows[0] == {
        "run": 0,
        "metric": "throughput",
        "unit": "qps",
        "value": 30104.3,
        **dict.fromkeys(("min", "max", "mean", "median", "p90", "p95", "p99")),
    }
    assert rows[1]["metric"] == "total_host_walltime" and rows[1]["unit"] == "s"
    latency = next(row for row in rows if row["metric"] == "latency")
    assert latency["unit"] == "ms" and latency["min"] == 0.0396
    assert all("trace" not in row["metric"] for row in rows)
    code, table = run("perf", "--log", str(SAMPLE), columns=100)
    assert "trace_averages" not in table
    assert re.search(r"│ throughput +│ qps +│ +30104\.3 │", table), table


@pytest.mark.slow
def test_markdown_shows_the_units_the_terminal_shows() -> None:
    code, output = run("memory", "--log", str(SAMPLE), "-f", "markdown")
    assert code == 0
    assert "| run | build | strategy | layer | host persistent (KiB) |" in output
    rows = list(csv.reader(io.StringIO(run("memory", "--log", str(SAMPLE), "-f", "csv")[1])))
    assert rows[1][:5] == ["run", "build", "strategy", "layer", "host_persistent"]


def test_the_summary_written_to_a_pipe_is_never_cut() -> None:
    # The first error of this log (line 16) is longer than 80 characters; so is its path.
    log = corpus_path("hackathon_trt10.16.2_pyapi_onnxparser_with_errors.log")
    code, output = run("parse", str(log), "--no-store", columns=80)
    assert code == 0, output
    assert str(log) in output
    assert (
        'First error        line 16: While parsing node number 1 [UnknownNode1 -> "UnknownModel'
        in output
    )
    assert "…" not in output


def test_the_summary_written_to_a_pipe_has_no_trailing_spaces() -> None:
    # The facts' grid pads every line to the widest fact ("Log  <path>" here): in a file that
    # is only trailing white space.
    code, output = run("parse", str(SAMPLE), "--no-store")
    assert code == 0, output
    lines = output.splitlines()
    assert [line for line in lines if line != line.rstrip()] == []
    assert "Style              trtexec" in lines


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 100])
def test_diff_fits_the_terminal_and_keeps_its_verdicts(width: int) -> None:
    first = str(corpus_path("hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log"))
    second = str(corpus_path("hackathon_trt8.0.3_trtexec_build_fp16_gtx1070.log"))
    code, output = run("diff", first, second, columns=width)
    assert code == 0, output
    assert too_long(output, width) == []
    # "Throughput: 6531.92 qps" (8.2.3) against 6330.83 (8.0.3): 3.079% lower, worse.
    row = next(line for line in output.splitlines() if "throughput_qps" in line)
    assert re.search(r"│ +-3\.079 │ worse +│", row), row


def test_json_and_csv_round_binary_noise_but_keep_whole_numbers() -> None:
    import pandas as pd

    from trtlog.render.frames import render_csv, render_json

    frame = pd.DataFrame({"end_s": [3.008771929824561, 0.1 + 0.2], "bytes": [12345678901.0, None]})
    text = io.StringIO()
    render_csv(frame, text, None)
    assert text.getvalue().splitlines() == ["end_s,bytes", "3.00877193,12345678901.0", "0.3,"]
    text = io.StringIO()
    render_json(frame, text, None)
    assert json.loads(text.getvalue()) == [
        {"end_s": 3.00877193, "bytes": 12345678901},
        {"end_s": 0.3, "bytes": None},
    ]
    assert "3.00877193," in text.getvalue().replace("\n", "")
