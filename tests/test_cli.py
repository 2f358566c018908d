"""The command line: ``trtlog parse`` in each format, and its errors."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from trtlog.cli import parse_output
from trtlog.cli.app import app
from trtlog.parse import parse_file

runner = CliRunner()
SAMPLE_10X = SAMPLES / "trtexec_10.x_build_inference_profile.log"


@pytest.mark.slow
def test_summary_names_version_gpu_precision_and_counts() -> None:
    result = runner.invoke(app, ["parse", str(SAMPLE_10X)])
    assert result.exit_code == 0, result.output
    out = result.output
    for expected in (
        "10.8.0",
        "NVIDIA L4",
        "trtexec",
        "FP32+FP16 (--fp16)",
        "0.407 s",
        "autotuning",
        "234 recognised",
    ):
        assert expected in out, expected
    # The sample ends "&&&& PASSED" and holds two [W] lines and no [E] line.
    assert "PASSED" in out and "2 / 0" in out and "First error" not in out


FAILED_BUILD = """\
&&&& RUNNING TensorRT.trtexec [TensorRT v8204] # trtexec --onnx=model.onnx --verbose
[04/12/2022-11:30:51] [V] [TRT] --------------- Timing Runner: {ForeignNode[Unsqueeze_93...Softmax_2088]} (Myelin)
[04/12/2022-11:30:51] [W] [TRT] Skipping tactic 0 due to insuficient memory on requested size of 26931712 detected for tactic 0.
[04/12/2022-11:30:51] [E] Error[10]: [optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (Could not find any implementation for node {ForeignNode[Unsqueeze_93...Softmax_2088]}.)
[04/12/2022-11:30:51] [E] Engine could not be created from network
&&&& FAILED TensorRT.trtexec [TensorRT v8204] # trtexec --onnx=model.onnx --verbose
"""


@pytest.mark.slow
def test_summary_of_a_failed_build_names_its_first_error(tmp_path: Path) -> None:
    log = tmp_path / "failed.log"
    log.write_text(FAILED_BUILD)
    result = runner.invoke(app, ["parse", str(log), "--format", "json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["summary"]
    assert summary["outcome"] == "FAILED"
    assert (summary["warnings"], summary["errors"]) == (1, 2)
    assert summary["first_error"] == (
        "line 4: Error[10]: [optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error"
        " (Could not find any implementation for node {ForeignNode[Unsqueeze_93...Softmax_2088]}.)"
    )


@pytest.mark.slow
def test_json_document(tmp_path: Path) -> None:
    target = tmp_path / "events.json"
    result = runner.invoke(
        app, ["parse", str(SAMPLE_10X), "--format", "json", "--out", str(target)]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(target.read_text())
    assert set(document) == {"source", "summary", "events"}
    assert document["summary"]["tensorrt_version"] == "10.8.0"
    chosen = [event for event in document["events"] if event["kind"] == "chose_runner"]
    assert [event["tactic"] for event in chosen][:2] == ["0x61f0c2d99a3b7e08", "0x0d4e2f7a19c3b865"]
    assert chosen[0]["layer"] == "/conv1/Conv + /relu1/Relu"
    assert chosen[0]["timestamp"] == "2026-11-05T10:15:03"


def test_jsonl_streams_one_event_per_line(tmp_path: Path) -> None:
    gz = tmp_path / "build.log.gz"
    gz.write_bytes(gzip.compress(SAMPLE_10X.read_bytes()))
    result = runner.invoke(app, ["parse", str(gz), "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert records[0]["kind"] == "run_header" and records[-1]["kind"] == "run_footer"
    assert sum(1 for record in records if record["kind"] == "tactic_timing") == 13


def test_jsonl_written_in_batches_holds_every_event_once(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = runner.invoke(app, ["parse", str(SAMPLE_10X), "--format", "jsonl", "--no-store"])
    assert whole.exit_code == 0, whole.output
    events = parse_file(SAMPLE_10X).events
    assert len(whole.output.splitlines()) == len(events)
    # Batches of 7 lines end anywhere in the log, and the last one is short.
    monkeypatch.setattr(parse_output, "_JSONL_BATCH", 7)
    batched = runner.invoke(app, ["parse", str(SAMPLE_10X), "--format", "jsonl", "--no-store"])
    assert batched.exit_code == 0, batched.output
    assert batched.output == whole.output
    assert len(events) % 7 != 0


def test_jsonl_of_a_truncated_log_keeps_the_events_read_before_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compressed = gzip.compress(SAMPLE_10X.read_bytes() * 200)
    truncated = tmp_path / "build.log.gz"
    truncated.write_bytes(compressed[: len(compressed) * 3 // 5])
    command = ["parse", str(truncated), "--format", "jsonl", "--no-store"]
    batched = runner.invoke(app, command)
    # Every line written as soon as it is made: what was read before the error.
    monkeypatch.setattr(parse_output, "_JSONL_BATCH", 1)
    at_once = runner.invoke(app, command)
    assert batched.exit_code == at_once.exit_code == 2
    assert "read failed" in batched.output.splitlines()[-1]
    assert len(batched.output.splitlines()) == len(at_once.output.splitlines()) > 1000


def test_standard_input() -> None:
    result = runner.invoke(app, ["parse", "-", "--format", "jsonl"], input=SAMPLE_10X.read_text())
    assert result.exit_code == 0
    assert len(result.output.splitlines()) > 100


def test_bad_inputs_give_one_line_and_exit_2(tmp_path: Path) -> None:
    binary = tmp_path / "model.engine"
    binary.write_bytes(b"\x00\x01\x02ftrt" * 100)
    for target, message in (
        (tmp_path / "absent.log", "no such file"),
        (tmp_path, "is a directory"),
        (binary, "binary"),
    ):
        result = runner.invoke(app, ["parse", str(target)])
        assert result.exit_code == 2
        assert message in result.output
        assert "Traceback" not in result.output


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "content"),
    [("README.md", "# A project\n\nIt builds engines.\n"), ("empty.log", ""),
     ("table.csv", "layer,time_ms\nconv1,0.5\n")],
)  # fmt: skip
@pytest.mark.parametrize("output_format", ["summary", "json", "jsonl"])
def test_input_that_is_not_a_log_is_refused_and_not_kept(
    tmp_path: Path, name: str, content: str, output_format: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    store = tmp_path / "store"
    isolated = CliRunner(env={"TRTLOG_STORE": str(store)})
    result = isolated.invoke(app, ["parse", str(path), "-f", output_format])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"trtlog: no TensorRT log lines in {path}"
    query = isolated.invoke(app, ["layers", "--log", str(path)])
    assert query.exit_code == 2 and "no TensorRT log lines" in query.stderr
    # Neither kept nor made current.
    assert not (store / "current.json").exists()
    assert not any(store.glob("*/meta.json"))


@pytest.mark.slow
@pytest.mark.parametrize("output_format", ["summary", "json", "jsonl"])
def test_a_reader_that_stops_early_gets_no_error(tmp_path: Path, output_format: str) -> None:
    log = tmp_path / "long.log"
    log.write_text(SAMPLE_10X.read_text() * 40)  # more output than a pipe holds
    command = f"{sys.executable} -m trtlog.cli.app parse {log} -f {output_format} | head -1"
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=tmp_path,
        env=dict(os.environ, TRTLOG_STORE=str(tmp_path / "store")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("output_format", ["json", "jsonl"])
def test_json_output_is_strict_json(tmp_path: Path, output_format: str) -> None:
    # trtexec prints "inf" and "nan" where a measurement failed; JSON has no such numbers.
    log = tmp_path / "perf.log"
    log.write_text(
        "[11/05/2026-10:15:07] [I] === Performance summary ===\n"
        "[11/05/2026-10:15:07] [I] Latency: min = 0.5 ms, max = inf ms, mean = nan ms, median ="
        " 0.6 ms, percentile(90%) = 0.7 ms, percentile(95%) = 0.8 ms, percentile(99%) = -inf ms\n"
    )
    result = runner.invoke(app, ["parse", str(log), "-f", output_format])
    assert result.exit_code == 0, result.output

    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: {constant}")

    text = result.stdout
    lines = [text] if output_format == "json" else text.splitlines()
    documents = [json.loads(line, parse_constant=refuse) for line in lines]
    events = documents[0]["events"] if output_format == "json" else documents
    (latency,) = [event for event in events if event.get("metric") == "Latency"]
    assert (latency["min"], latency["max"], latency["mean"]) == (0.5, None, None)
    assert latency["percentiles"][-1] == [99.0, None]


def run_trtlog(
    tmp_path: Path,
    *arguments: str,
    stdin: object = subprocess.DEVNULL,
    environment: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """trtlog in a process of its own, its store in ``tmp_path``; ``environment``: variables
    set besides."""
    return subprocess.run(
        [sys.executable, "-m", "trtlog.cli.app", *arguments],
        cwd=tmp_path,
        env=dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"), **(environment or {})),
        stdin=stdin,  # type: ignore[arg-type]
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_standard_input_that_is_closed_or_endless_zeros_is_refused(tmp_path: Path) -> None:
    closed = subprocess.run(
        [sys.executable, "-m", "trtlog.cli.app", "parse", "-"],
        cwd=tmp_path,
        env=dict(os.environ, TRTLOG_STORE=str(tmp_path / "store")),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(0),
    )
    assert closed.returncode == 2 and "standard input is closed" in closed.stderr
    assert "Traceback" not in closed.stderr
    with open("/dev/zero", "rb") as zeros:
        endless = run_trtlog(tmp_path, "parse", "-", stdin=zeros)
    assert endless.returncode == 2 and "binary" in endless.stderr
    assert run_trtlog(tmp_path, "parse", "/dev/zero").returncode == 2
    assert not any((tmp_path / "store").glob("*.log"))  # no copy left behind


@pytest.mark.slow
def test_the_current_log_from_standard_input_is_not_read_again(tmp_path: Path) -> None:
    with SAMPLE_10X.open("rb") as log:
        parsed = run_trtlog(tmp_path, "parse", "-", stdin=log)
    assert parsed.returncode == 0, parsed.stderr
    # A later query reads the stored tables, not standard input (here empty).
    layers = run_trtlog(tmp_path, "layers", "-f", "json")
    assert layers.returncode == 0, layers.stderr
    assert len(json.loads(layers.stdout)) > 0
    # The current log is named after what was read and when, never "-".
    current = json.loads((tmp_path / "store" / "current.json").read_text())["sources"]
    assert re.fullmatch(r"stdin@\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", current["name"]), current
    with SAMPLE_10X.open("rb") as log:
        document = run_trtlog(tmp_path, "parse", "-", "--format", "json", stdin=log)
    assert json.loads(document.stdout)["source"].startswith("stdin@")


@pytest.mark.slow
def test_standard_input_is_copied_only_up_to_a_bound(tmp_path: Path) -> None:
    # An endless producer (`yes "[V] [TRT] ..." | trtlog parse -`) must not fill the disk: the
    # copy stops at TRTLOG_MAX_STREAM_BYTES with one line, exit 2, and nothing left behind.
    size = SAMPLE_10X.stat().st_size

    def parse_input(bound: str, *options: str) -> subprocess.CompletedProcess[str]:
        with SAMPLE_10X.open("rb") as log:
            return run_trtlog(
                tmp_path,
                "parse",
                "-",
                *options,
                stdin=log,
                environment={"TRTLOG_MAX_STREAM_BYTES": bound},
            )

    refused = parse_input(str(size - 1))
    assert refused.returncode == 2, refused.stderr
    assert "standard input: more than" in refused.stderr
    assert "Traceback" not in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert not any((tmp_path / "store").glob("*.log"))
    assert not (tmp_path / "store" / "current.json").exists()
    # At the bound exactly, the whole log is read.
    taken = parse_input(str(size), "--format", "json")
    assert taken.returncode == 0, taken.stderr
    assert json.loads(taken.stdout)["summary"]["lines"] == len(SAMPLE_10X.read_bytes().splitlines())
    # A bound that is no positive number is refused as a setting.
    for setting in ("-1", "0", "lots"):
        refused = parse_input(setting)
        assert refused.returncode == 2 and "positive whole number" in refused.stderr


@pytest.mark.slow
def test_unwritable_output_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["parse", str(SAMPLE_10X), "--out", str(tmp_path / "missing" / "out.json")]
    )
    assert result.exit_code == 2 and "cannot write" in result.output


def test_help_does_not_import_heavy_modules() -> None:
    code = (
        "import sys\n"
        "from trtlog.cli.app import app\n"
        "heavy = [m for m in ('lark', 'numpy', 'pandas', 'matplotlib') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == ""


def test_help_is_drawn_without_rich_or_the_parser() -> None:
    code = (
        "import sys\n"
        "from trtlog.cli.app import app\n"
        "try:\n"
        "    app(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('rich', 'lark', 'numpy', 'pandas', 'pyarrow')\n"
        "print(','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "Commands:" in result.stdout
    assert result.stderr.strip() == ""


def test_every_command_has_its_whole_first_sentence_in_the_command_list() -> None:
    """Click cuts a command's first sentence short ("...") where it does not fit its line."""
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "80"})
    listed = result.output.split("Commands:", 1)[1].strip().splitlines()
    assert len(listed) >= 20
    assert all(not line.rstrip().endswith("...") for line in listed), listed


@pytest.mark.slow
def test_a_stored_query_loads_neither_the_parser_nor_the_events(tmp_path: Path) -> None:
    environment = {**os.environ, "TRTLOG_STORE": str(tmp_path / "store")}
    subprocess.run(
        [sys.executable, "-m", "trtlog", "parse", str(SAMPLE_10X)],
        capture_output=True,
        check=True,
        env=environment,
    )
    code = (
        "import sys\n"
        "from trtlog.cli.app import main\n"
        "sys.argv = ['trtlog', 'tactics', '--layer', 'conv', '--format', 'csv']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as end:\n"
        "    assert not end.code, end.code\n"
        "loaded = ('lark', 'trtlog.events', 'trtlog.parse.pipeline', 'trtlog.analysis.stream')\n"
        "print('loaded:', ','.join(m for m in loaded if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment
    )
    assert "0x" in result.stdout  # the layer's tactics were shown
    assert result.stderr.strip() == "loaded:"


@pytest.mark.parametrize(("chosen", "expected"), [(None, "system"), ("jemalloc", "jemalloc")])
def test_the_command_gives_arrow_the_system_allocator_unless_one_is_chosen(
    chosen: str | None, expected: str
) -> None:
    if chosen == "jemalloc":
        import pyarrow

        try:
            pyarrow.jemalloc_memory_pool()
        except NotImplementedError:
            pytest.skip("this pyarrow is built without jemalloc")
    code = (
        "import sys\n"
        "from trtlog.cli.app import main\n"
        "sys.argv = ['trtlog', '--version']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "import pyarrow\n"
        "print(pyarrow.default_memory_pool().backend_name)\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    if chosen is not None:
        environment["ARROW_DEFAULT_MEMORY_POOL"] = chosen
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment
    ).stdout
    assert output.split()[-1] == expected
