"""What users of other command-line tools expect: -h, help in click's terms, shell completion,
the same formats everywhere, invalid choices that list the valid ones.

Expected values come from ``sample_logs/trtexec_10.x_build_inference_profile.log``."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import typer
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from trtlog.cli.app import app
from trtlog.cli.queries import Precision
from trtlog.events.formats import PRECISIONS

runner = CliRunner()
SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
QUERY_COMMANDS = [
    "stages",
    "tactics",
    "fusions",
    "reformats",
    "memory",
    "perf",
    "layers",
    "precision",
    "kernels",
    "warnings",
    "timeline",
    "check",
]
# Help that names Python types instead of values: <bool>, <int>, <list[str]>, usage {log}.
_PYTHON_TYPES = re.compile(r"<(?:bool|str|int|float|path|list\[)|\{[a-z_]+\}")


def run(*arguments: str) -> tuple[int, str]:
    result = runner.invoke(app, list(arguments), env={"COLUMNS": "200"})
    return result.exit_code, result.output


def test_dash_h_is_help() -> None:
    for arguments in (["-h"], ["layers", "-h"], ["diff", "-h"]):
        code, output = run(*arguments)
        assert code == 0, arguments
        assert "Usage: trtlog" in output


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_values_as_click_does(command: str) -> None:
    code, output = run(command, "--help")
    assert code == 0
    assert _PYTHON_TYPES.search(output) is None, output


def test_help_shows_value_kinds_and_choices() -> None:
    _, layers = run("layers", "--help")
    assert "[table|json|csv|markdown]" in layers
    assert "PATH" in layers
    assert "[fp32|fp16|" in layers
    _, timeline = run("timeline", "--help")
    assert "INTEGER" in timeline
    _, diff = run("diff", "--help")
    assert "Usage: trtlog diff [OPTIONS] FIRST SECOND" in diff


def test_plot_help_shows_its_real_default() -> None:
    _, output = run("plot", "--help")
    assert "LOG.KIND.png" in output
    assert "..png" not in output


def test_shell_completion_installs() -> None:
    code, output = run("--help")
    assert "--install-completion" in output
    code, script = run("--show-completion", "bash")
    assert code == 0
    assert "_TRTLOG_COMPLETE=complete_bash" in script


@pytest.mark.slow
@pytest.mark.parametrize("command", QUERY_COMMANDS)
def test_every_query_command_takes_every_format(command: str) -> None:
    for output_format in ("table", "json", "csv", "markdown"):
        code, output = run(command, "--log", str(SAMPLE), "-f", output_format)
        assert code == 0, (command, output_format, output)


@pytest.mark.slow
def test_check_writes_csv() -> None:
    code, output = run("check", "--log", str(SAMPLE), "-f", "csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(output)))
    assert rows[0] == ["rule", "severity", "layer", "message", "line"]
    # Line 215: GPU compute time is unstable, with coefficient of variance = 4.21%.
    assert ["unstable-gpu-time", "warning", "", "coefficient of variance 4.21%", "215"] in rows


def test_an_invalid_precision_lists_the_valid_ones() -> None:
    code, output = run("layers", "--precision", "float", "--log", str(SAMPLE))
    assert code == 2
    assert "'float' is not one of" in output and "'fp32'" in output and "'fp16'" in output
    # Case does not matter. Lines 167-171: four layers and the output reformat read Half.
    code, output = run("layers", "--precision", "FP16", "--log", str(SAMPLE), "-f", "json")
    assert code == 0
    assert {row["precision"] for row in json.loads(output)} == {"fp16"}
    assert len(json.loads(output)) == 5


def test_precision_choices_are_the_precisions_of_engine_layers() -> None:
    assert {choice.value for choice in Precision} == set(PRECISIONS.values())


def test_layer_falls_back_to_matching_without_case() -> None:
    code, output = run("tactics", "--layer", "/POOL/maxpool", "--log", str(SAMPLE), "-f", "json")
    assert code == 0, output
    assert {row["layer"] for row in json.loads(output)["tactics"]} == {"/pool/MaxPool"}
    code, output = run("tactics", "--layer", r"^/CONV\d/", "--log", str(SAMPLE), "-f", "json")
    assert code == 0, output
    assert {row["layer"] for row in json.loads(output)["tactics"]} == {
        "/conv1/Conv + /relu1/Relu",
        "/conv2/Conv + /relu2/Relu",
    }
