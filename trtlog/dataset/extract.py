"""The work done for one log: parse it, and turn its tables into dataset rows.

``extract_log`` is a plain function of a path, so that worker processes and Dask workers run
exactly the same code; it never raises for a bad log (the result says what went wrong).
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from trtlog.analysis import TABLES, BuildLog
from trtlog.analysis.columns import with_types
from trtlog.analysis.stream import TableStream
from trtlog.dataset.columns import normalise
from trtlog.events import OnnxModelInfo, RunHeader
from trtlog.parse import LogSourceError
from trtlog.parse.envelope import UNDATED
from trtlog.parse.items import Item
from trtlog.parse.reader import open_log
from trtlog.store.sources import read_sources, resolve

# The metadata columns on every row of every table (``log_date`` is the partition).
METADATA = ["build_id", "source_path", "tensorrt_version", "gpu", "model", "precision_flags"]
# Models named on trtexec's and Polygraphy's command lines.
_MODEL_FLAG = re.compile(r"--(?:onnx|uff|model|deploy|loadEngine)[= ](\S+)")
_POLYGRAPHY_MODEL = re.compile(r"polygraphy \w+ (\S+\.(?:onnx|engine|plan|trt))")
_MODEL_OPTIONS = ("Model", "ONNX", "Onnx", "Load engine", "Engine")
_BUFFER = 1 << 20
# trtexec's performance summary: the metrics and statistics it prints without --percentile
# (7.x prints p99 alone, 8.x and later p90, p95 and p99; 7.x's "end to end" latency).
PERF_LEADING = [
    "run",
    "throughput_qps",
    "total_host_walltime_s",
    "total_gpu_compute_time_s",
    "trace_averages",
]
PERF_METRICS = [
    "latency",
    "end_to_end_host_latency",
    "enqueue_time",
    "h2d_latency",
    "gpu_compute_time",
    "d2h_latency",
]
PERF_STATISTICS = ["min", "max", "mean", "median", "p90", "p95", "p99"]
# The types of the builds table's own columns (a log without a performance summary must not
# turn its latency column into text).
_BUILDS_TYPES = {
    "started": np.dtype("datetime64[us]"),
    **dict.fromkeys(["log_style"], pd.StringDtype()),
    **dict.fromkeys(
        ["lines", "runs", "builds", "tactics_timed", "choices", "engine_layers"], pd.Int64Dtype()
    ),
    **dict.fromkeys(["wider_layers", "fp32_fallback_layers", "warnings"], pd.Int64Dtype()),
    **dict.fromkeys(
        [
            "recognized_percent",
            "build_seconds",
            "latency_mean_ms",
            "gpu_compute_mean_ms",
            "throughput_qps",
        ],
        np.dtype(np.float64),
    ),
    **dict.fromkeys(METADATA, pd.StringDtype()),
}
# The performance summary's columns and their types, the same in every log's file.
_PERF_VALUES = [f"{metric}_{stat}_ms" for metric in PERF_METRICS for stat in PERF_STATISTICS]
_PERF_VALUES += ["throughput_qps", "total_host_walltime_s", "total_gpu_compute_time_s"]
_PERF_COLUMNS = [*PERF_LEADING, *(column for column in _PERF_VALUES if column not in PERF_LEADING)]
_PERF_TYPES = {
    **dict.fromkeys(_PERF_VALUES, np.dtype(np.float64)),
    "run": pd.Int64Dtype(),
    "trace_averages": pd.Int64Dtype(),
}


@dataclass
class LogResult:
    """One log's dataset rows (table name -> rows), or why it could not be read."""

    source_path: str
    build_id: str | None = None
    log_date: date | None = None
    tables: dict[str, pa.Table] = field(default_factory=dict)
    error: str | None = None


def content_id(path: str) -> str:
    """The build id: a hash of the log's text (a gzip file and its content get the same).
    Raises ``LogSourceError`` (one line) when the log cannot be read to its end: a truncated or
    corrupt .gz is reported and skipped like any bad log."""
    digest = hashlib.sha256()
    try:
        with open_log(path) as stream:
            while block := stream.read(_BUFFER):
                digest.update(block)
    except (OSError, EOFError, zlib.error) as error:
        raise LogSourceError(f"{path}: read failed ({error})") from error
    return digest.hexdigest()[:32]


def extract_log(path: str, build_id: str | None = None) -> LogResult:
    """Parse one log and return its tables with the metadata columns; ``build_id``: its
    ``content_id`` where the caller has it already."""
    source = str(Path(path).resolve())
    try:
        build_id = build_id or content_id(path)
        first_stamp: list[datetime] = []

        stream = TableStream()

        def sink(item: Item) -> None:
            if not first_stamp:
                stamp = item.timestamp
                # A time of day alone (TensorRT-Edge-LLM), or a day without its year (Triton),
                # says nothing of the date.
                if stamp is not None and stamp.year != UNDATED.year:
                    first_stamp.append(stamp)
            stream.feed(item)

        shell = read_sources(resolve(path), sink)
        log = BuildLog.from_stream(shell, stream)
        tables = {name: log.table(name) for name in TABLES}
    except LogSourceError as error:
        return LogResult(source, error=str(error))
    except (OSError, EOFError) as error:
        return LogResult(source, error=f"{path}: read failed ({error})")
    except Exception as error:  # a bug must not stop the other logs being ingested
        return LogResult(source, error=f"{path}: {type(error).__name__}: {error}")
    log_date = first_stamp[0].date() if first_stamp else _file_date(path)
    metadata = {
        "build_id": build_id,
        "source_path": source,
        "tensorrt_version": log.summary.tensorrt_version,
        "gpu": log.summary.gpu,
        "model": model_name(stream, tables["options"]),
        "precision_flags": log.summary.precision_text(),
    }
    rows = {"builds": normalise(builds_row(log, tables, metadata, first_stamp))}
    for name, table in tables.items():
        if name == "perf":
            table = _all_perf_columns(table)
        if not table.empty:
            rows[name] = _with_metadata(table, metadata)
    return LogResult(source, build_id, log_date, rows)


def model_name(stream: TableStream, options: pd.DataFrame) -> str | None:
    """The model the log built or ran: trtexec's model option echo, the ONNX file named in a
    command line, or the ONNX parser's input file name; None when the log says none."""
    if not options.empty and {"key", "value"} <= set(options.columns):
        for key in _MODEL_OPTIONS:
            values = options.loc[options["key"] == key, "value"].dropna()
            named = [str(value) for value in values if str(value).strip()]
            if named:
                return _stem(named[0])
    for event in stream.events:
        if isinstance(event, RunHeader):
            match = _MODEL_FLAG.search(event.command) or _POLYGRAPHY_MODEL.search(event.command)
            if match:
                return _stem(match.group(1))
        if isinstance(event, OnnxModelInfo) and event.key.lower() == "input filename":
            return _stem(event.value)
    return None


def builds_row(
    log: BuildLog,
    tables: dict[str, pd.DataFrame],
    metadata: dict[str, Any],
    first_stamp: list[datetime],
) -> pd.DataFrame:
    """The one row that describes a log: who built what, how long it took, what it gave."""
    summary = log.summary
    perf, precision, choices = tables["perf"], tables["precision"], tables["choices"]
    last_perf = perf.iloc[-1] if not perf.empty else None
    wider = (
        precision[precision["wider"].fillna(False).astype(bool)]
        if not precision.empty
        else precision
    )
    row = {
        **metadata,
        "started": first_stamp[0] if first_stamp else None,
        "log_style": summary.log_style,
        "lines": summary.lines,
        "recognized_percent": summary.recognized_percent,
        "runs": summary.runs,
        "builds": summary.builds,
        "build_seconds": summary.build_seconds,
        "tactics_timed": len(tables["tactics"]),
        "choices": len(choices),
        "engine_layers": len(tables["layers"]),
        "latency_mean_ms": _value(last_perf, "latency_mean_ms"),
        "gpu_compute_mean_ms": _value(last_perf, "gpu_compute_time_mean_ms"),
        "throughput_qps": _value(last_perf, "throughput_qps"),
        "wider_layers": len(wider),
        "fp32_fallback_layers": int((wider["precision"].astype(str).str.upper() == "FP32").sum())
        if not wider.empty
        else 0,
        "warnings": int(tables["warnings"]["count"].sum()) if not tables["warnings"].empty else 0,
    }
    return with_types(pd.DataFrame([row]), _BUILDS_TYPES)


def _all_perf_columns(perf: pd.DataFrame) -> pd.DataFrame:
    """The performance summary with every metric and statistic trtexec prints by default as a
    column (missing where this run did not print it), so that every log's file has the same
    columns; percentiles asked for with --percentile follow."""
    extra = [column for column in perf.columns if column not in _PERF_COLUMNS]
    return with_types(perf.reindex(columns=[*_PERF_COLUMNS, *extra]), _PERF_TYPES)


def _value(row: pd.Series | None, column: str) -> float | None:
    if row is None or column not in row.index or pd.isna(row[column]):
        return None
    return float(row[column])


def _with_metadata(table: pd.DataFrame, metadata: dict[str, Any]) -> pa.Table:
    """``table`` in Arrow, after the metadata columns: each one value repeated, made by Arrow
    rather than as a column of Python strings."""
    clashing = {name: f"{name}_" for name in METADATA if name in table.columns}
    own = normalise(table.rename(columns=clashing) if clashing else table)
    leading = [
        pa.repeat(pa.scalar(value, type=pa.string()), own.num_rows) for value in metadata.values()
    ]
    return pa.Table.from_arrays([*leading, *own.columns], names=[*metadata, *own.column_names])


def _stem(path: str) -> str:
    name = path.strip().strip("'\"").replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in (".gz", ".onnx", ".engine", ".plan", ".trt", ".uff", ".prototxt"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return name or path


def _file_date(path: str) -> date:
    """Logs without timestamps: the file's modification date (UTC)."""
    return datetime.fromtimestamp(Path(path).stat().st_mtime, tz=timezone.utc).date()


__all__ = ["METADATA", "LogResult", "content_id", "extract_log", "model_name"]
