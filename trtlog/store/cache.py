"""Where the parsed-log store lives, which log is current where, and how large the store grows.

The store is the user's cache directory for trtlog (``~/.cache/trtlog`` on Linux, by
platformdirs), or ``$TRTLOG_STORE``: parsed logs are kept once whatever directory they were
parsed from. Each working directory remembers its own current log (``current.<hash of the
directory>.json``); a directory without one takes the nearest parent directory's, else the log made
current last anywhere (``current.json``).

The store is held under a size limit (``$TRTLOG_CACHE_LIMIT``, default 2 GiB): after a log is
added, the folders used least recently are removed until the rest fit. A folder's modification
time is its last use; reading a log's tables sets it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from trtlog.parse.reader import LogSourceError
from trtlog.store.folders import read_json

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_LIMIT_BYTES = 2 << 30
_LIMIT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
# A log's folder is named by its 128-bit content key, in hex.
_KEY = re.compile(r"^[0-9a-f]{32}$")


class CacheSettingError(LogSourceError):
    """``$TRTLOG_CACHE_LIMIT`` cannot be understood; the message is one line."""


def store_dir() -> Path:
    """``$TRTLOG_STORE``, else trtlog's folder in the user's cache directory."""
    configured = os.environ.get("TRTLOG_STORE")
    if configured:
        return Path(configured)
    from platformdirs import user_cache_path

    return user_cache_path("trtlog", appauthor=False)


def size_limit() -> int:
    """The store's size limit in bytes: ``$TRTLOG_CACHE_LIMIT`` (``500M``, ``4GiB``, bytes),
    else ``DEFAULT_LIMIT_BYTES``."""
    configured = os.environ.get("TRTLOG_CACHE_LIMIT")
    if not configured:
        return DEFAULT_LIMIT_BYTES
    match = _LIMIT.match(configured)
    if match is None:
        raise CacheSettingError(
            f"TRTLOG_CACHE_LIMIT={configured!r}: expected a size such as 500M, 4G or 1048576"
        )
    return int(float(match[1]) * _UNITS[match[2].lower()])


def current_file(root: Path, directory: Path) -> Path:
    """The file that names the current log of ``directory``."""
    digest = hashlib.sha1(str(directory).encode(), usedforsecurity=False).hexdigest()[:32]
    return root / f"current.{digest}.json"


def current_candidates(root: Path, directory: Path | None = None) -> list[Path]:
    """The files to look in for the current log of ``directory`` (default: the working
    directory), nearest first: its own, its parents', then the last log made current."""
    last = root / "current.json"
    try:
        here = (directory or Path.cwd()).resolve()
    except OSError:  # the working directory was removed
        return [last]
    return [current_file(root, folder) for folder in (here, *here.parents)] + [last]


@dataclass(frozen=True)
class Entry:
    """One parsed log kept in the store."""

    key: str
    folder: Path
    size: int
    # Seconds since the epoch.
    last_used: float


def entries(root: Path) -> list[Entry]:
    """The logs kept in ``root``, least recently used first."""
    found = []
    with contextlib.suppress(OSError):
        for child in root.iterdir():
            if _KEY.match(child.name) and child.is_dir():
                with contextlib.suppress(OSError):
                    found.append(Entry(child.name, child, _size(child), child.stat().st_mtime))
    return sorted(found, key=lambda entry: entry.last_used)


def mark_used(folder: Path) -> None:
    """Record that ``folder``'s tables were read now (its place in the eviction order)."""
    with contextlib.suppress(OSError):
        os.utime(folder)


def evict(root: Path, limit: int, keep: str) -> list[Entry]:
    """Remove the least recently used folders of ``root`` until the rest fit in ``limit``
    bytes; ``keep`` (the log just added) stays whatever its size. Returns what was removed."""
    kept = entries(root)
    total = sum(entry.size for entry in kept)
    removed = []
    for entry in kept:
        if total <= limit:
            break
        if entry.key == keep:
            continue
        remove_folder(entry.folder)
        total -= entry.size
        removed.append(entry)
    return removed


def clear(root: Path) -> list[Entry]:
    """Remove every parsed log, the index and the current logs; returns what was removed."""
    removed = entries(root)
    for entry in removed:
        remove_folder(entry.folder)
    for record in [root / "index.json", *root.glob("current*.json")]:
        record.unlink(missing_ok=True)
    return removed


def remove_folder(folder: Path) -> None:
    """Rename ``folder`` aside first, so that no process finds it half removed."""
    aside = folder.with_name(f".{folder.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        folder.rename(aside)
    except OSError:
        return
    shutil.rmtree(aside, ignore_errors=True)


def _size(folder: Path) -> int:
    total = 0
    for child in folder.iterdir():
        with contextlib.suppress(OSError):
            total += child.stat().st_size
    return total


def kept_logs(root: Path) -> pd.DataFrame:
    """One row per log kept in ``root``, most recently used first: the log it was parsed
    from, its size, when it was last used, whether it is the working directory's current log,
    and its content key."""
    import pandas as pd

    current = ""
    for candidate in current_candidates(root):
        record = read_json(candidate)
        if record.get("sources"):
            current = str(record.get("key", ""))
            break
    rows = []
    for entry in reversed(entries(root)):
        sources = read_json(entry.folder / "meta.json").get("sources") or {}
        rows.append(
            {
                "log": sources.get("name") or sources.get("log") or "(incomplete)",
                "size_bytes": entry.size,
                "last_used": age(entry.last_used),
                "current": entry.key == current,
                "key": entry.key,
            }
        )
    columns = ["log", "size_bytes", "last_used", "current", "key"]
    return pd.DataFrame(rows, columns=columns)


def age(seconds: float) -> str:
    """How long ago ``seconds`` since the epoch was, in the largest whole unit."""
    elapsed = max(0.0, time.time() - seconds)
    for unit, length in (("d", 86400), ("h", 3600), ("min", 60)):
        if elapsed >= length:
            return f"{int(elapsed // length)} {unit} ago"
    return "just now"


__all__ = [
    "DEFAULT_LIMIT_BYTES",
    "CacheSettingError",
    "Entry",
    "age",
    "clear",
    "current_candidates",
    "current_file",
    "entries",
    "evict",
    "kept_logs",
    "mark_used",
    "size_limit",
    "store_dir",
]
