"""The parsed-log store: parse a log once, query its tables many times.

The store (the user's cache directory, or ``$TRTLOG_STORE``: ``trtlog.store.cache``) holds one
folder per log content (named by a SHA-1 hash of the file's bytes) with the tables as Parquet
files, the summary and the source's metadata; ``index.json`` maps each log path to its content
key together with the file's size, modification and change times and inode as they were before
it was read, so that a changed file is parsed again (the change time moves on every write,
whatever the modification time was set to); ``current.<directory hash>.json`` names the log that
query commands use in a working directory when no ``--log`` is given, ``current.json`` the last
one anywhere.

Every file is written under a name of its own and renamed into place, and a log's folder is
written whole under a temporary name and then renamed (``trtlog.store.folders``): processes that
parse and query at once never see half a file. A folder whose files are damaged (a truncated
Parquet file, no summary) is noticed before it is read, said so on standard error, and parsed
again.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trtlog.analysis.buildlog import TABLES, BuildLog
from trtlog.parse.reader import LogSourceError
from trtlog.parse.summary import Summary, require_tensorrt_lines
from trtlog.store.cache import (
    current_candidates,
    current_file,
    evict,
    mark_used,
    size_limit,
    store_dir,
)
from trtlog.store.folders import (
    STORE_FORMAT,
    current,
    intact,
    publish,
    read_json,
    sweep,
    temporary_name,
    write_json,
)
from trtlog.store.identity import (
    absolute_paths,
    file_stats,
    index_key,
    log_bytes,
    source_files,
    sources_key,
)
from trtlog.store.parquet_tables import ParquetTables
from trtlog.store.sources import (
    EXPORT_KINDS,
    Sources,
    parse_sources,
    resolve,
    spooled,
    stream_build_log,
    streamed,
)
from trtlog.store.table_writing import write_tables
from trtlog.version import __version__

if TYPE_CHECKING:
    from trtlog.events import Event


class NoCurrentLog(Exception):
    """Neither ``--log`` nor a current log."""


class StoreError(LogSourceError):
    """The store cannot be written (read-only, full, not a folder); the message is one line."""


class Store:
    """A directory of parsed logs."""

    def __init__(self, root: Path | None = None, jobs: int | None = 1) -> None:
        self.root = root or store_dir()
        # Processes that build a large log's tables (``write_tables``); None: the default.
        self.jobs = jobs

    def load(self, sources: Sources | None = None, make_current: bool = True) -> BuildLog:
        """The tables of ``sources`` (when None, of the current log), parsed if need be.
        Raises ``StoreError`` (one line) when the store cannot be written."""
        if sources is None:
            sources = self.current()
            if sources.log == "-":
                # Standard input is not read again: the current log is what was parsed.
                return self._current_from_input(sources)
        try:
            return self._load(sources, make_current)
        except OSError as error:
            raise self._error(error) from error

    def _current_from_input(self, sources: Sources) -> BuildLog:
        key = str(self._current_record().get("key", ""))
        if not key or not self._complete(key):
            raise NoCurrentLog(
                "the current log came from standard input and is no longer stored: parse it "
                "again, or pass --log PATH"
            )
        return self._open(key, sources)

    def _error(self, error: OSError) -> LogSourceError:
        """The one-line error of a failed store operation, naming what failed: the store, or
        a log file that went away or became unreadable while it was read."""
        reason = error.strerror or str(error)
        failed = Path(str(error.filename)) if error.filename else None
        if failed is not None and not failed.resolve().is_relative_to(self.root.resolve()):
            return LogSourceError(f"{failed}: cannot be read ({reason})")
        return StoreError(f"{self.root}: the store cannot be written ({reason})")

    def _load(self, sources: Sources, make_current: bool) -> BuildLog:
        with spooled(sources, self.root) as readable:
            _check_readable(readable)
            key = None if streamed(sources.log) else self._fresh_key(sources)
            if key is None or not self._complete(key):
                # What is recorded is what was there before it was read: a file that grows
                # meanwhile is parsed again next time.
                before = None if streamed(sources.log) else file_stats(sources)
                key = sources_key(readable)
                if not self._complete(key):
                    log = stream_build_log(readable)
                    require_tensorrt_lines(sources.log, log.summary)
                    unchanged = before is None or file_stats(sources) == before
                    self._save(key, log, sources, readable, complete=unchanged)
                if before is not None and file_stats(sources) == before:
                    self._remember(sources, key, before)
            # A stream read once goes by the name it was given as it was read (stdin@<time>).
            sources = replace(sources, name=readable.name)
        if make_current:
            self._make_current(sources, key)
        return self._open(key, sources)

    def _jobs(self) -> int:
        if self.jobs is not None:
            return self.jobs
        from trtlog.store.table_writing import default_table_jobs

        return default_table_jobs()

    def add(
        self,
        sources: Sources,
        log: BuildLog,
        readable: Sources | None = None,
        key: str | None = None,
        before: dict[str, dict[str, int]] | None = None,
    ) -> BuildLog:
        """Keep the tables of ``log``, read from ``sources`` (``readable``: the files it was
        read from, where standard input was copied); it becomes the current log. ``key``:
        ``sources_key(readable)`` when already worked out; ``before``: ``file_stats(sources)``
        taken before the files were read (a file that changed since is not recorded as fresh).
        Raises ``StoreError`` (one line) when the store cannot be written."""
        try:
            readable = readable or sources
            key = key or sources_key(readable)
            stats = None if streamed(sources.log) else file_stats(sources)
            unchanged = before is None or stats == before
            if not self._complete(key):
                self._save(key, log, sources, readable, complete=unchanged)
            if stats is not None and unchanged:
                self._remember(sources, key, before or stats)
            self._make_current(replace(sources, name=readable.name), key)
        except OSError as error:
            raise self._error(error) from error
        return log

    def current(self) -> Sources:
        recorded = self._current_record().get("sources")
        if not isinstance(recorded, dict):
            raise NoCurrentLog("no log given: pass --log PATH, or run `trtlog parse LOG` first")
        return Sources(
            **{key: recorded.get(key) for key in ("log", *EXPORT_KINDS, "capture", "name")}
        )

    def _current_record(self) -> dict[str, Any]:
        """The current log of the working directory, else of its nearest parent that has one,
        else the log made current last."""
        for candidate in current_candidates(self.root):
            record = read_json(candidate)
            if isinstance(record.get("sources"), dict):
                return record
        return {}

    def _make_current(self, sources: Sources, key: str) -> None:
        if streamed(sources.log):
            # Read once: the current log is what was parsed, never the stream again.
            sources = replace(sources, log="-", name=sources.name or sources.log)
        record = {"sources": absolute_paths(sources), "key": key}
        self.root.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):  # a working directory that was removed
            here = Path.cwd().resolve()
            write_json(current_file(self.root, here), {**record, "directory": str(here)})
        write_json(self.root / "current.json", record)

    def _fresh_key(self, sources: Sources) -> str | None:
        known = read_json(self.root / "index.json").get(index_key(sources))
        if isinstance(known, dict) and known.get("stat") == file_stats(sources):
            return str(known["key"])
        return None

    def _remember(self, sources: Sources, key: str, stats: dict[str, dict[str, int]]) -> None:
        index = read_json(self.root / "index.json")
        index[index_key(sources)] = {"key": key, "stat": stats}
        write_json(self.root / "index.json", index)

    def _complete(self, key: str) -> bool:
        """Whether the folder of ``key`` holds every table of this store format, readable."""
        folder = self.root / key
        if not current(read_json(folder / "meta.json")):
            return False
        if intact(folder):
            return True
        print(f"trtlog: the stored tables in {folder} are damaged; parsing again", file=sys.stderr)
        shutil.rmtree(folder, ignore_errors=True)
        return False

    def _save(
        self,
        key: str,
        log: BuildLog,
        sources: Sources,
        readable: Sources,
        complete: bool = True,
    ) -> None:
        """Write the folder of ``key`` under a temporary name and rename it into place;
        ``complete=False`` (the log changed while it was read) leaves out ``meta.json``, so
        that the folder serves this one answer and is parsed again next time."""
        limit = size_limit()
        self.root.mkdir(parents=True, exist_ok=True)
        sweep(self.root)
        building = temporary_name(self.root / key)
        try:
            building.mkdir()
            write_tables(log, building, list(TABLES), self._split_tables(readable))
            (building / "summary.json").write_text(json.dumps(asdict(log.summary), indent=1))
            if complete:
                meta = {
                    "sources": absolute_paths(sources),
                    "store_format": STORE_FORMAT,
                    "trtlog": __version__,
                }
                (building / "meta.json").write_text(json.dumps(meta, indent=1))
            publish(building, self.root / key)
        finally:
            shutil.rmtree(building, ignore_errors=True)
        if evict(self.root, limit, keep=key):
            self._forget_removed()

    def _forget_removed(self) -> None:
        """Drop the index entries of logs no longer kept."""
        index = read_json(self.root / "index.json")
        kept = {
            path: known
            for path, known in index.items()
            if isinstance(known, dict) and (self.root / str(known.get("key"))).is_dir()
        }
        if len(kept) != len(index):
            write_json(self.root / "index.json", kept)

    def _split_tables(self, readable: Sources) -> bool:
        """Whether two processes build the tables: with more than one job allowed, for a log
        large enough that its tables take a while."""
        if self._jobs() < 2:
            return False
        from trtlog.store.table_writing import SPLIT_BYTES

        return log_bytes(readable) >= SPLIT_BYTES

    def _open(self, key: str, sources: Sources) -> BuildLog:
        folder = self.root / key
        summary = Summary(**json.loads((folder / "summary.json").read_text()))
        mark_used(folder)

        def reread() -> list[Event]:
            if streamed(sources.log):
                what = "standard input" if sources.log == "-" else sources.log
                raise LogSourceError(f"{what} cannot be read again: save the log to a file")
            return parse_sources(sources).events

        return BuildLog(sources.label, summary, stored=ParquetTables(folder), reread=reread)


def _check_readable(sources: Sources) -> None:
    for role, path in source_files(sources):
        if not path.is_file():
            if role == "log":
                from trtlog.parse import parse_file

                parse_file(path)  # raises the one-line LogSourceError for missing files
            what = "capture file" if role == "capture" else f"{role} export file"
            raise LogSourceError(f"{path}: no such {what}")


def load(
    source: str | os.PathLike[str] | None = None,
    *,
    layers: str | os.PathLike[str] | None = None,
    profile: str | os.PathLike[str] | None = None,
    times: str | os.PathLike[str] | None = None,
    store: bool = False,
    jobs: int = 1,
) -> BuildLog:
    """The tables of a log (or a JSON export, or a run folder) and the exports beside it:
    parsed now, or, with ``store=True``, kept in the parsed-log store and read from it next
    time. Without any source, the store's current log. ``jobs``: the processes that build a
    large log's tables for the store."""
    given = (source, layers, profile, times)
    sources = resolve(source, layers, profile, times) if any(given) else None
    if sources is not None and not store:
        return stream_build_log(sources)
    try:
        return Store(jobs=jobs).load(sources, make_current=False)
    except NoCurrentLog as error:
        raise LogSourceError(str(error)) from None


__all__ = ["NoCurrentLog", "Store", "StoreError", "load"]
