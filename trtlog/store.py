"""The parsed-log store: parse a log once, query its tables many times.

``.trtlog/`` in the working directory (or ``$TRTLOG_STORE``) holds one folder per log content
(named by the SHA-256 of the file's bytes) with the tables as Parquet files, the summary and the
source's metadata; ``index.json`` maps each log path to its content key together with the
file's size and modification time, so that a changed file is parsed again; ``current.json``
names the log that query commands use when no ``--log`` is given.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd

from trtlog import __version__
from trtlog.analysis import TABLES, BuildLog
from trtlog.parse import LogSourceError, ParsedLog, parse_file
from trtlog.parse.summary import Summary

_CHUNK = 1 << 20
# Bumped whenever stored tables change shape, so that old entries are parsed again.
STORE_FORMAT = 2


class NoCurrentLog(Exception):
    """Neither ``--log`` nor a current log."""


def store_dir() -> Path:
    return Path(os.environ.get("TRTLOG_STORE", ".trtlog"))


def content_key(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()[:32]


def _stat(path: Path) -> dict[str, int]:
    status = path.stat()
    return {"size": status.st_size, "mtime_ns": status.st_mtime_ns}


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_json(path: Path, data: dict[str, Any]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1))
    temporary.replace(path)


class Store:
    """A directory of parsed logs."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or store_dir()

    def load(self, source: str | None = None, make_current: bool = True) -> BuildLog:
        """The tables of ``source`` (a path, ``-`` or, when None, the current log)."""
        if source is None:
            source = self.current()
        if source == "-":
            return self._load_stdin(make_current)
        path = Path(source)
        if not path.is_file():
            parse_file(path)  # raises the one-line LogSourceError for missing files and folders
        key = self._fresh_key(path)
        if key is None or not self._complete(key):
            key = content_key(path)
            if not self._complete(key):
                self._save(key, BuildLog.from_parsed(parse_file(path)), str(path.resolve()))
            self._remember(path, key)
        if make_current:
            _write_json(self.root / "current.json", {"path": str(path.resolve()), "key": key})
        return self._open(key, str(path))

    def add(self, source: str, parsed: ParsedLog) -> BuildLog:
        """Keep the tables of ``parsed`` (the log at ``source``) and make it the current log."""
        log = BuildLog.from_parsed(parsed)
        if source == "-":
            key = hashlib.sha256(_events_fingerprint(parsed).encode()).hexdigest()[:32]
            self._save(key, log, "-")
        else:
            path = Path(source)
            key = content_key(path)
            if not self._complete(key):
                self._save(key, log, str(path.resolve()))
            self._remember(path, key)
        current = str(Path(source).resolve()) if source != "-" else "-"
        _write_json(self.root / "current.json", {"path": current, "key": key})
        return log

    def current(self) -> str:
        current = _read_json(self.root / "current.json")
        if "path" not in current:
            raise NoCurrentLog("no log given: pass --log PATH, or run `trtlog parse LOG` first")
        return str(current["path"])

    def _load_stdin(self, make_current: bool) -> BuildLog:
        self.root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=self.root, suffix=".log", delete=False) as copy:
            shutil.copyfileobj(sys.stdin.buffer, copy)
        path = Path(copy.name)
        try:
            key = content_key(path)
            if not self._complete(key):
                self._save(key, BuildLog.from_parsed(parse_file(path)), "-")
        finally:
            path.unlink()
        if make_current:
            _write_json(self.root / "current.json", {"path": "-", "key": key})
        return self._open(key, "-")

    def _fresh_key(self, path: Path) -> str | None:
        known = _read_json(self.root / "index.json").get(str(path.resolve()))
        if isinstance(known, dict) and known.get("stat") == _stat(path):
            return str(known["key"])
        return None

    def _remember(self, path: Path, key: str) -> None:
        index = _read_json(self.root / "index.json")
        index[str(path.resolve())] = {"key": key, "stat": _stat(path)}
        _write_json(self.root / "index.json", index)

    def _complete(self, key: str) -> bool:
        meta = _read_json(self.root / key / "meta.json")
        return meta.get("store_format") == STORE_FORMAT

    def _save(self, key: str, log: BuildLog, source: str) -> None:
        folder = self.root / key
        folder.mkdir(parents=True, exist_ok=True)
        for name, table in log.tables().items():
            _to_parquet(table, folder / f"{name}.parquet")
        (folder / "summary.json").write_text(json.dumps(asdict(log.summary), indent=1))
        meta = {"source": source, "store_format": STORE_FORMAT, "trtlog": __version__}
        _write_json(folder / "meta.json", meta)

    def _open(self, key: str, source: str) -> BuildLog:
        folder = self.root / key
        summary = Summary(**json.loads((folder / "summary.json").read_text()))

        def read(name: str) -> pd.DataFrame:
            return pd.read_parquet(folder / f"{name}.parquet")

        return BuildLog(source if source != "-" else "-", summary, stored=read)


def _events_fingerprint(parsed: ParsedLog) -> str:
    # Standard input cannot be read twice; its events stand in for its bytes.
    return "\n".join(f"{event.line}:{event!r}" for event in parsed.events)


def _to_parquet(table: pd.DataFrame, path: Path) -> None:
    # Columns that hold nothing but missing values have no type Parquet can infer.
    frame = table.copy()
    for column in frame.columns:
        if frame[column].dtype == object and frame[column].isna().all():
            frame[column] = frame[column].astype("string")
    frame.to_parquet(path, index=False)


def load(source: str | os.PathLike[str] | None = None, *, store: bool = False) -> BuildLog:
    """The tables of a log: parsed now, or, with ``store=True``, kept in the parsed-log store
    and read from it next time. Without ``source``, the store's current log."""
    if source is not None and not store:
        return BuildLog.from_parsed(parse_file(source))
    try:
        return Store().load(None if source is None else str(source), make_current=False)
    except NoCurrentLog as error:
        raise LogSourceError(str(error)) from None


__all__ = ["TABLES", "NoCurrentLog", "Store", "load"]
