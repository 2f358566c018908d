"""The figures a golden file holds for one log, and where the golden files live.

A golden file (``tests/golden/<log file name>.json``) records what trtlog makes of a log: the
events per class, the unrecognised lines, the shape of every table, the headline figures and a
hash of the whole event stream. Only ``tests/regen_golden.py`` writes them, so that any change in
the output shows up as a diff to review; ``tests/test_golden.py`` recomputes and compares.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import math
import re
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.conftest import REPO, SAMPLES, corpus_dir
from trtlog.events.base import Event, TacticId

GOLDEN_DIR = REPO / "tests" / "golden"

# One corpus log per TensorRT version and per style, the smaller where there is a choice.
CORPUS_GOLDEN_LOGS = (
    "excerpt_issue_NVIDIA-TensorRT-52_trt5_trtexec.EXCERPT.log",
    "excerpt_issue_NVIDIA-TensorRT-1090_trt7_pyapi.EXCERPT.log",
    "jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log",
    "excerpt_issue_NVIDIA-TensorRT-1389_trt8.0_pyapi.EXCERPT.log",
    "hackathon_trt8.0.3_polygraphy0.33_run_verbose.log",
    "hackathon_trt8.2.3_trtexec_build_fp32_gtx1070.log",
    "lix_trt8.4.10_trtexec_orin_best_dumpProfile.log",
    "lix_trt8.5.10_trtexec_custom_plugin_identity.log",
    "hackathon_trt8.6_pyapi_nodate_timingcache.log",
    "excerpt_mvsacmp_trt8.6.1_trtexec_h100_truncated_line.EXCERPT.log",
    "hackathon_trt10.16.1_trtexec_build_h100.log",
    "hackathon_trt10.16.2_pyapi_refit_with_errors.log",
    "hackathon_trt10.16.2_polygraphy0.49_run_verbose.log",
    "excerpt_trtllm_falcon_readme_build.EXCERPT.log",
    "excerpt_issue_pytorch-TensorRT-3137_torchtrt_dynamo.EXCERPT.log",
    "excerpt_issue_pytorch-TensorRT-1108_torchtrt_torchscript.EXCERPT.log",
    "torchtrt_trt10.6_dynamo_debug_dinov2_ansi.log",
    "hackathon_trt10.14.1_trtexec_plugin_rtx6000ada_interleaved.log",
    # Inference from a saved engine, without a build; and a build with a progress monitor
    # redrawing its bars in ANSI codes.
    "kalfazed_trt8.5.1_trtexec_resnet50_loadengine_dumpProfile.log",
    "hackathon_trt10.16.2_pyapi_progressmonitor_ansi.log",
)

# Those that take a second or more to check: left out of the fast loop.
SLOW_GOLDEN_LOGS = frozenset(
    {
        "torchtrt_trt10.6_dynamo_debug_dinov2_ansi.log",
        "hackathon_trt10.14.1_trtexec_plugin_rtx6000ada_interleaved.log",
        "hackathon_trt10.16.2_pyapi_progressmonitor_ansi.log",
    }
)

# How many unrecognised lines a golden file names by number (it counts them all).
UNRECOGNISED_LINES_NAMED = 5


def sample_logs() -> list[Path]:
    return sorted(SAMPLES.glob("*.log"))


def corpus_path(name: str) -> Path:
    return corpus_dir() / "logs" / name


def corpus_manifest() -> dict[str, tuple[str, str]] | None:
    """Each corpus log's TensorRT release (``major.minor``, ``major.x`` where only the major is
    known) and style, as the corpus's MANIFEST.tsv gives them; None without the manifest."""
    manifest = corpus_dir() / "MANIFEST.tsv"
    if not manifest.exists():
        return None
    with manifest.open(encoding="utf-8", newline="") as rows:
        return {
            row["file"].removeprefix("logs/"): (release(row["tensorrt_version"]), row["style"])
            for row in csv.DictReader(rows, delimiter="\t")
            if row["file"].startswith("logs/")
        }


def release(version: str) -> str:
    """``major.minor`` of a manifest's version ("10.16.2.5 (stated ...)" is "10.16"), or
    ``major.x`` where it gives only the major ("7.x (inferred)")."""
    found = re.match(r"(\d+)\.(\d+|x)\b", version)
    if found is None:
        raise ValueError(f"no TensorRT release in the manifest's version {version!r}")
    return f"{found[1]}.{found[2]}"


def release_covered(wanted: str, golden: set[str]) -> bool:
    """Whether a golden log is of release ``wanted``; ``major.x`` is covered by any of that
    major."""
    major, minor = wanted.split(".")
    return wanted in golden or (minor == "x" and any(r.split(".")[0] == major for r in golden))


def golden_path(log: Path, directory: Path = GOLDEN_DIR) -> Path:
    return directory / f"{log.name}.json"


def golden_logs() -> list[Path]:
    """Every log that has (or should have) a golden file, corpus logs whether present or not."""
    return sample_logs() + [corpus_path(name) for name in CORPUS_GOLDEN_LOGS]


def figures(log: Path) -> dict[str, Any]:
    """The golden figures of ``log``, parsed once."""
    from trtlog.analysis import BuildLog
    from trtlog.events import Unrecognized
    from trtlog.parse import parse_file

    parsed = parse_file(log)
    built = BuildLog.from_parsed(parsed)
    tables = built.tables()
    unrecognised = [event.line for event in parsed.of(Unrecognized)]
    return {
        "log": log.name,
        "events": dict(sorted(Counter(type(event).__name__ for event in parsed.events).items())),
        "unrecognised": {
            "count": parsed.counts.unrecognized,
            "first_lines": unrecognised[:UNRECOGNISED_LINES_NAMED],
        },
        "tables": {name: "{} x {}".format(*table.shape) for name, table in tables.items()},
        "key_values": key_values(built.summary, tables),
        "event_stream_sha256": event_stream_hash(parsed.events),
    }


def key_values(summary: Any, tables: dict[str, Any]) -> dict[str, Any]:
    """The headline figures of a log, read from its summary and tables as a user would."""
    stages, precision, perf = tables["stages"], tables["precision"], tables["perf"]
    wider = precision[precision["wider"].fillna(False).astype(bool)]
    last_perf = perf.iloc[-1] if not perf.empty else None
    return {
        "log_style": summary.log_style,
        "tensorrt_version": summary.tensorrt_version,
        "gpu": summary.gpu,
        "precision": list(summary.precision),
        "outcome": summary.outcome,
        "lines": summary.lines,
        "recognized": summary.recognized,
        "unrecognized": summary.unrecognized,
        "foreign": summary.foreign,
        "blank": summary.blank,
        "runs": summary.runs,
        "builds": summary.builds,
        "build_seconds": _number(summary.build_seconds),
        "warnings": summary.warnings,
        "errors": summary.errors,
        # The network's layer count as each build starts optimising it.
        "network_layers": [int(n) for n in stages.loc[stages["stage"] == "Original", "layers"]],
        "engine_layers": len(tables["layers"]),
        "tactics_timed": len(tables["tactics"]),
        "chosen_tactics": len(tables["choices"]),
        "fusions": len(tables["fusions"]),
        "reformats": len(tables["reformats"]),
        "wider_layers": len(wider),
        "fp32_fallback_layers": int((wider["precision"].astype(str).str.upper() == "FP32").sum()),
        # The last run's, where it measured them (perf has only the columns some run filled).
        "throughput_qps": _number(None if last_perf is None else last_perf.get("throughput_qps")),
        "latency_mean_ms": _number(None if last_perf is None else last_perf.get("latency_mean_ms")),
    }


def _number(value: Any) -> float | None:
    """A figure as JSON keeps it: a missing or NaN figure is null."""
    if value is None:
        return None
    number = float(value)
    return None if math.isnan(number) else number


def event_stream_hash(events: list[Event]) -> str:
    """SHA-256 of every event's class and fields, serialised in log order."""
    digest = hashlib.sha256()
    for event in events:
        digest.update(json.dumps(_plain(event), separators=(",", ":")).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _plain(value: Any) -> Any:
    """``value`` as JSON data that says the same on every run and platform."""
    if isinstance(value, TacticId):
        return repr(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        # repr is the shortest text that reads back as the same float; NaN and infinities too.
        return repr(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {
            field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
        return [type(value).__name__, fields]
    raise TypeError(f"no stable form for a {type(value).__name__} in an event: {value!r}")


def render(data: dict[str, Any]) -> str:
    """A golden file's text: stable key order within each part, one value a line."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def read_golden(log: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden_path(log).read_text(encoding="utf-8"))
    return data


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where ``actual`` differs from ``expected``, one line per key: ``key: expected X, got Y``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key in sorted(expected.keys() | actual.keys()):
            where = f"{path}.{key}" if path else key
            if key not in actual:
                found.append(f"{where}: expected {expected[key]!r}, now absent")
            elif key not in expected:
                found.append(f"{where}: not in the golden file, now {actual[key]!r}")
            else:
                found.extend(differences(expected[key], actual[key], where))
        return found
    if expected != actual or type(expected) is not type(actual):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []
