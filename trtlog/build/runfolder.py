"""The run folder of a captured build and the writer that fills it line by line.

A run folder holds ``build.log`` (the build's output, byte for byte, flushed after every
line), ``capture.jsonl`` (for each line of ``build.log``: its number, its arrival time in ms on
a monotonic clock since the build started, its stream and, from the Python backend, its
severity), ``run.json`` (what ran, where, and how it ended), the engine, the timing cache and
the trtexec exports ``layers.json``, ``profile.json`` and ``times.json``. ``run.json`` is written
when the build starts and again when it ends, so an interrupted run still says what it was.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from trtlog.store.sources import RUN_FOLDER_CAPTURE, RUN_FOLDER_EXPORTS, RUN_FOLDER_LOG

RUN_JSON = "run.json"
DEFAULT_RUNS_DIR = Path("trtlog-runs")
_UNSAFE = re.compile(r"[^\w.\-]+")


def default_run_folder(model: Path, now: datetime | None = None) -> Path:
    """``trtlog-runs/<model>-<UTC time>/``, with a suffix when that folder already exists."""
    now = now or datetime.now(timezone.utc)
    stem = _UNSAFE.sub("_", model.stem).strip("_") or "model"
    base = DEFAULT_RUNS_DIR / f"{stem}-{now:%Y%m%dT%H%M%SZ}"
    folder, number = base, 2
    while folder.exists():
        folder = base.with_name(f"{base.name}-{number}")
        number += 1
    return folder


@dataclass(frozen=True)
class RunFolder:
    """Where each file of one captured build goes."""

    path: Path
    model: Path

    @property
    def log(self) -> Path:
        return self.path / RUN_FOLDER_LOG

    @property
    def capture(self) -> Path:
        return self.path / RUN_FOLDER_CAPTURE

    @property
    def run_json(self) -> Path:
        return self.path / RUN_JSON

    @property
    def engine(self) -> Path:
        return self.path / f"{_UNSAFE.sub('_', self.model.stem) or 'model'}.engine"

    @property
    def timing_cache(self) -> Path:
        return self.path / "timing.cache"

    def export(self, kind: str) -> Path:
        return self.path / RUN_FOLDER_EXPORTS[kind]

    def files(self) -> dict[str, str]:
        """The files the build left, by role."""
        roles = {
            "log": self.log,
            "capture": self.capture,
            "engine": self.engine,
            "timing_cache": self.timing_cache,
            **{kind: self.export(kind) for kind in RUN_FOLDER_EXPORTS},
        }
        return {role: path.name for role, path in roles.items() if path.is_file()}

    def write_run(self, run: dict[str, Any]) -> None:
        temporary = self.run_json.with_suffix(".tmp")
        temporary.write_text(json.dumps(run, indent=1) + "\n")
        temporary.replace(self.run_json)


def wall_clock() -> tuple[str, str]:
    """Now, as ISO text in UTC and in local time (trtexec stamps its lines in local time)."""
    now = datetime.now(timezone.utc)
    return now.isoformat(timespec="milliseconds"), now.astimezone().replace(tzinfo=None).isoformat(
        timespec="microseconds"
    )


class CaptureWriter:
    """Appends lines to ``build.log`` and their times to ``capture.jsonl``, from any thread."""

    def __init__(self, folder: RunFolder, started_ns: int) -> None:
        self._log: BinaryIO = folder.log.open("wb")
        self._capture: TextIO = folder.capture.open("w", encoding="utf-8")
        self._started_ns = started_ns
        self._lock = threading.Lock()
        self.lines = 0

    def offset_ms(self, monotonic_ns: int) -> float:
        return round((monotonic_ns - self._started_ns) / 1e6, 3)

    def write(self, raw: bytes, monotonic_ns: int, stream: str, severity: str | None = None) -> int:
        """Write one physical line (with its "\\n", unless the stream ended without one);
        returns its line number in ``build.log``."""
        entry: dict[str, Any] = {"t_ms": self.offset_ms(monotonic_ns), "stream": stream}
        if severity is not None:
            entry["severity"] = severity
        with self._lock:
            self.lines += 1
            self._log.write(raw)
            self._log.flush()
            self._capture.write(json.dumps({"line": self.lines, **entry}) + "\n")
            self._capture.flush()
            return self.lines

    def close(self) -> None:
        with self._lock:
            self._log.close()
            self._capture.close()


def monotonic_ns() -> int:
    return time.monotonic_ns()


__all__ = ["CaptureWriter", "RunFolder", "default_run_folder", "monotonic_ns", "wall_clock"]
