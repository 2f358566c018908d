"""A log's folder in the store, and the store's JSON files: written under a name of their own
and renamed into place, so that processes that parse and query at once never see half a file;
the leftovers of processes killed while writing are swept away."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from pathlib import Path
from typing import Any

from trtlog.analysis.buildlog import TABLES
from trtlog.version import __version__

# Bumped whenever stored tables change shape, so that old entries are parsed again.
STORE_FORMAT = 15


def current(meta: dict[str, Any]) -> bool:
    """Whether a folder's ``meta.json`` says it was written in this store format by this
    version of trtlog: another version may read the same log differently (a form it did not
    know), so its tables are not served."""
    return meta.get("store_format") == STORE_FORMAT and meta.get("trtlog") == __version__


def read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_json(path: Path, data: dict[str, Any]) -> None:
    temporary = temporary_name(path)
    try:
        temporary.write_text(json.dumps(data, indent=1))
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


def temporary_name(path: Path) -> Path:
    """A name beside ``path`` that no other process uses."""
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")


def sweep(root: Path) -> None:
    """Remove the temporary files and folders of processes that ended without cleaning up
    (killed while writing): their names hold their process ids."""
    for leftover in root.glob(".*.tmp"):
        parts = leftover.name.rsplit(".", 3)
        if len(parts) == 4 and parts[1].isdigit() and not _alive(int(parts[1])):
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True


def publish(building: Path, folder: Path) -> None:
    """Rename ``building`` to ``folder``; where another process got there first with a whole
    folder, keep that one; replace one of an older format or left incomplete."""
    try:
        building.rename(folder)
        return
    except OSError:
        pass
    if current(read_json(folder / "meta.json")) and intact(folder):
        return
    stale = temporary_name(folder)
    with contextlib.suppress(OSError):
        folder.rename(stale)
    shutil.rmtree(stale, ignore_errors=True)
    with contextlib.suppress(OSError):
        # Another process may have published meanwhile: its folder stays.
        building.rename(folder)


def intact(folder: Path) -> bool:
    """Whether the summary and every table file of ``folder`` can be read (Parquet files
    end in a footer: a truncated one has none)."""
    import pyarrow.parquet as pq

    try:
        json.loads((folder / "summary.json").read_text())
        for name in TABLES:
            pq.read_metadata(folder / f"{name}.parquet")
    except (OSError, ValueError):
        return False
    return True
