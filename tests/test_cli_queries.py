"""The query commands (stages, tactics, fusions, reformats, memory, perf, layers, warnings) in
every output format, the parsed-log store behind them, and ``trtlog.load``.

Expected values come from ``sample_logs/trtexec_10.x_build_inference_profile.log`` (line numbers
are that file's)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import trtlog
from tests.conftest import SAMPLES
from trtlog.cli.app import app
from trtlog.parse import LogSourceError
from trtlog.store import Store
from trtlog.store.sources import Sources, stream_build_log

runner = CliRunner()
SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
COMMANDS = ["stages", "tactics", "fusions", "reformats", "memory", "perf", "layers", "warnings"]
FORMATS = ["table", "json", "csv", "markdown"]
# A value each command's output must hold, read off the sample by hand.
EXPECTED_TEXT = {
    "stages": "vertical fusions",  # line 96: After vertical fusions: 4 layers
    "tactics": "0x39e5a7b21c0d4f86",  # line 133: the tactic chosen for /conv2/Conv + /relu2/Relu
    "fusions": "/relu2/Relu",  # line 87: ConvReluFusion: Fusing /conv2/Conv with /relu2/Relu
    "reformats": "Reformatting CopyNode for Output Tensor 0 to /fc/Gemm",  # line 171
    "memory": "20480",  # line 155: /fc/Gemm Device Persistent: 20480 bytes
    "perf": "30104.3",  # line 207: Throughput: 30104.3 qps
    "layers": "CaskGemmMatrixMultiply",  # line 170
    "warnings": "GPU compute time is unstable",  # line 215
}
# What tables and Markdown show instead, in human units: 20480 bytes are 20 KiB.
HUMAN_TEXT = {"memory": "device persistent (KiB)"}


def invoke(*arguments: str) -> tuple[int, str]:
    # A wide terminal, so that rich tables do not wrap the names the tests look for.
    result = runner.invoke(app, list(arguments), env={"COLUMNS": "300"})
    return result.exit_code, result.output


@pytest.mark.slow
@pytest.mark.parametrize("output_format", FORMATS)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_in_every_format(command: str, output_format: str) -> None:
    code, output = invoke(command, "--log", str(SAMPLE), "--format", output_format)
    assert code == 0, output
    expected = EXPECTED_TEXT[command]
    if output_format in ("table", "markdown"):
        expected = HUMAN_TEXT.get(command, expected)
    assert expected in output
    if output_format == "json":
        document = json.loads(output)
        assert isinstance(document, (list, dict)) and document
    elif output_format == "csv":
        rows = [
            row for row in csv.reader(io.StringIO(output)) if row and not row[0].startswith("#")
        ]
        assert len(rows) >= 2
    elif output_format == "markdown":
        assert output.startswith("### ")
        assert "| --- |" in output
    else:
        assert SAMPLE.name in output


def test_stages_json_rows() -> None:
    code, output = invoke("stages", "--log", str(SAMPLE), "-f", "json")
    assert code == 0
    rows = json.loads(output)
    # Lines 81-98 and 147: 7, 7, 5, 5, 5, 5, 5, 4, 4, 4, then 6 after reformat layers.
    assert [row["layers"] for row in rows] == [7, 7, 5, 5, 5, 5, 5, 4, 4, 4, 6]
    assert rows[7] == {
        "run": 0,
        "build": 0,
        "strategy": None,
        "kept": None,
        "step": 7,
        "stage": "vertical fusions",
        "layers": 4,
        "change": -1,
    }


def test_tactics_for_a_layer_shows_every_tactic_and_the_gap() -> None:
    code, output = invoke("tactics", "--layer", "conv2", "--log", str(SAMPLE), "-f", "json")
    assert code == 0, output
    document = json.loads(output)
    (chosen,) = document["layer_choices"]
    # Lines 129-133: 0.0121, 0.0113 and inf; 0x39e5a7b21c0d4f86 (0.0113) chosen.
    assert chosen["tactic"] == "0x39e5a7b21c0d4f86"
    assert chosen["best_ms"] == pytest.approx(0.0113)
    assert chosen["runner_up_ms"] == pytest.approx(0.0121)
    assert chosen["gap_percent"] == pytest.approx((0.0121 - 0.0113) / 0.0113 * 100)
    timed = document["tactics"]
    assert [row["time_ms"] for row in timed] == [0.0113, 0.0121, None]
    assert [row["chosen"] for row in timed] == [True, False, False]
    assert timed[0]["kernel"].startswith("sm80_xmma_fprop_implicit_gemm_f16f16")


@pytest.mark.slow
def test_layer_pattern_exact_then_substring_then_regex() -> None:
    _, exact = invoke("tactics", "--layer", "/pool/MaxPool", "--log", str(SAMPLE), "-f", "json")
    assert {row["layer"] for row in json.loads(exact)["tactics"]} == {"/pool/MaxPool"}
    _, regex = invoke("tactics", "--layer", r"^/conv\d/", "--log", str(SAMPLE), "-f", "json")
    assert {row["layer"] for row in json.loads(regex)["tactics"]} == {
        "/conv1/Conv + /relu1/Relu",
        "/conv2/Conv + /relu2/Relu",
    }


def test_unknown_layer_names_the_closest() -> None:
    code, output = invoke("tactics", "--layer", "/conv3/Conv", "--log", str(SAMPLE))
    assert code == 2
    assert "no layer matches '/conv3/Conv'" in output
    assert "/conv2/Conv + /relu2/Relu" in output
    assert "Traceback" not in output


def test_top_and_sort() -> None:
    code, output = invoke(
        "tactics", "--top", "2", "--sort", "gap", "--log", str(SAMPLE), "-f", "json"
    )
    assert code == 0
    rows = json.loads(output)
    # Gaps: conv1 Float 17.1 %, conv1 Half 6.0 %, pool 13.2 %, conv2 7.1 %, fc none.
    assert [round(row["gap_percent"], 1) for row in rows] == [6.0, 7.1]
    code, output = invoke("tactics", "--sort", "tried", "--log", str(SAMPLE), "-f", "json")
    assert json.loads(output)[0]["tactics_tried"] == 3
    code, output = invoke("tactics", "--sort", "fastest", "--log", str(SAMPLE))
    assert code == 2


def test_layers_by_precision() -> None:
    code, output = invoke("layers", "--precision", "fp16", "--log", str(SAMPLE), "-f", "json")
    assert code == 0
    names = [row["name"] for row in json.loads(output)]
    # Lines 167-171: the four compute layers and the output reformat read Half.
    assert names == [
        "/conv1/Conv + /relu1/Relu",
        "/pool/MaxPool",
        "/conv2/Conv + /relu2/Relu",
        "/fc/Gemm",
        "Reformatting CopyNode for Output Tensor 0 to /fc/Gemm",
    ]
    _, output = invoke("layers", "--precision", "FP32", "--log", str(SAMPLE), "-f", "json")
    assert [row["name"] for row in json.loads(output)] == [
        "Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu1/Relu"
    ]


def test_memory_shows_layers_and_totals_as_one_json_document() -> None:
    code, output = invoke("memory", "--log", str(SAMPLE), "-f", "json")
    assert code == 0
    document = json.loads(output)
    assert set(document) == {"memory", "totals"}
    # Lines 152-158: host persistent 3200 + 2304 + 3200 + 1664 = 10368, the printed total.
    assert sum(row["host_persistent"] for row in document["memory"]) == 10368
    totals = {row["item"]: row["bytes"] for row in document["totals"] if row["kind"] == "total"}
    assert totals["host persistent"] == 10368
    assert totals["weights"] == 665556


def test_csv_with_several_tables_titles_each(tmp_path: Path) -> None:
    target = tmp_path / "perf.csv"
    code, _ = invoke("perf", "--log", str(SAMPLE), "-f", "csv", "--out", str(target))
    assert code == 0
    blocks = target.read_text().split("\n\n")
    assert blocks[0].startswith("# Performance summary")
    assert blocks[1].startswith("# Per-layer profile")
    profile = list(csv.DictReader(io.StringIO(blocks[1].split("\n", 1)[1])))
    # Line 232 is the Total row (left out); six layers are profiled.
    assert len(profile) == 6


def test_empty_table_says_so() -> None:
    python_log = SAMPLES / "python_api_10.x_build.log"
    code, output = invoke("perf", "--log", str(python_log))
    assert code == 0
    assert "none in this log" in output
    _, output = invoke("perf", "--log", str(python_log), "-f", "json")
    assert json.loads(output) == {"perf": [], "profile": [], "times": []}


# --- the store ----------------------------------------------------------------------------


@pytest.mark.slow
def test_queries_use_the_log_parsed_last(tmp_path: Path) -> None:
    code, output = invoke("stages")
    assert code == 2
    assert "no log given" in output and "trtlog parse" in output
    assert invoke("parse", str(SAMPLE))[0] == 0
    code, output = invoke("stages", "-f", "json")
    assert code == 0
    assert len(json.loads(output)) == 11
    other = SAMPLES / "trtexec_8.x_build.log"
    assert invoke("warnings", "--log", str(other))[0] == 0
    # --log makes that log the current one.
    _, output = invoke("stages", "-f", "markdown")
    assert other.name in output


@pytest.mark.slow
def test_a_changed_log_is_parsed_again(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text(SAMPLE.read_text())
    assert invoke("parse", str(log))[0] == 0
    _, before = invoke("stages", "-f", "json")
    assert json.loads(before)[0]["layers"] == 7
    log.write_text(SAMPLE.read_text().replace("Original: 7 layers", "Original: 9 layers"))
    stat = log.stat()
    os.utime(log, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    _, after = invoke("stages", "-f", "json")
    assert json.loads(after)[0]["layers"] == 9


def test_store_lives_where_trtlog_store_says(private_store: Path) -> None:
    assert invoke("parse", str(SAMPLE))[0] == 0
    folders = [path for path in private_store.iterdir() if path.is_dir()]
    assert len(folders) == 1
    assert (folders[0] / "stages.parquet").is_file()
    assert json.loads((private_store / "current.json").read_text())["sources"]["log"] == str(SAMPLE)


def test_store_folder_is_named_by_the_content_of_the_log(private_store: Path) -> None:
    # The key is worked out in a thread while the log is parsed: it must still be the hash of
    # the whole file.
    assert invoke("parse", str(SAMPLE))[0] == 0
    digest = hashlib.sha1(SAMPLE.read_bytes()).hexdigest()[:32]
    assert json.loads((private_store / "current.json").read_text())["key"] == digest
    assert (private_store / digest / "tactics.parquet").is_file()


@pytest.mark.slow
def test_a_log_is_stored_when_the_summary_reader_stops_early(
    private_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "trtlog parse LOG | head": writing the summary fails with a broken pipe; the parse is done
    # and is kept.
    import trtlog.cli.render_summary as render_summary

    def broken_pipe(*_arguments: object) -> None:
        raise BrokenPipeError

    monkeypatch.setattr(render_summary, "render_summary", broken_pipe)
    assert invoke("parse", str(SAMPLE))[0] != 0
    assert (private_store / "current.json").is_file()
    assert invoke("stages")[0] == 0


def test_store_add_keeps_a_log_under_the_key_it_is_given(private_store: Path) -> None:
    sources = Sources(log=str(SAMPLE))
    Store(private_store).add(sources, stream_build_log(sources), key="given")
    assert (private_store / "given" / "tactics.parquet").is_file()
    assert json.loads((private_store / "current.json").read_text())["key"] == "given"


def test_no_store_option_keeps_nothing(private_store: Path) -> None:
    assert invoke("parse", str(SAMPLE), "--no-store")[0] == 0
    assert not private_store.exists()


def test_missing_log_is_a_one_line_error() -> None:
    code, output = invoke("tactics", "--log", "no/such/file.log")
    assert code == 2
    assert output.count("\n") == 1 and "no/such/file.log" in output


# --- trtlog.load --------------------------------------------------------------------------


def test_load_gives_the_tables() -> None:
    log = trtlog.load(SAMPLE)
    assert list(log.stages["layers"])[-1] == 6
    assert len(log.choices) == 5  # five "Chose Runner Type" lines (109-139)
    assert log.summary.tensorrt_version == "10.8.0"


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    [SAMPLE, SAMPLES / "trtexec_8.x_build.log", SAMPLES / "python_api_10.x_build.log"],
    ids=lambda path: path.name,
)
def test_stored_tables_equal_fresh_ones(path: Path) -> None:
    fresh = trtlog.load(path)
    trtlog.load(path, store=True)  # parses and stores
    stored = trtlog.load(path, store=True)  # reads the store
    for name, table in fresh.tables().items():
        # Parquet brings a missing text value back as NaN where pandas built None: the same.
        pd.testing.assert_frame_equal(
            missing_as_none(stored.table(name)), missing_as_none(table), check_dtype=False, obj=name
        )


def missing_as_none(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.astype(object).where(frame.notna(), None)


def test_load_without_a_current_log_is_an_error() -> None:
    with pytest.raises(LogSourceError, match="no log given"):
        trtlog.load()


def test_unknown_table_names_the_tables() -> None:
    with pytest.raises(KeyError, match="stages"):
        trtlog.load(SAMPLE).table("tactic")
