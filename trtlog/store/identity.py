"""What names a log in the store: a key made from its content, and the size, times and inode
of each of its files as they were when it was read (a file that changed since is read again)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from trtlog.store.sources import Sources, streamed

_CHUNK = 1 << 20
# Store keys are 128 bits, in hex.
_KEY_HEX_DIGITS = 32


def content_key(path: Path) -> str:
    """The first 128 bits of the SHA-1 of the file's content, in hex: an identity for the
    store, not a defence against anyone forging a collision."""
    # The hash runs in a thread that shares the cores with the parsing processes, so the
    # cheapest hash wins: SHA-1 has far less work per byte than SHA-256, and OpenSSL uses the
    # SHA instructions of CPUs that have them.
    digest = hashlib.sha1(usedforsecurity=False)
    with path.open("rb") as stream:
        while chunk := stream.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()[:_KEY_HEX_DIGITS]


def stat_of(path: Path) -> dict[str, int]:
    """What tells that ``path`` changed: its size, modification and change times, inode."""
    status = path.stat()
    return {
        "size": status.st_size,
        "mtime_ns": status.st_mtime_ns,
        "ctime_ns": status.st_ctime_ns,
        "inode": status.st_ino,
    }


def log_bytes(sources: Sources) -> int:
    """The size of the log file of ``sources`` (0 without one)."""
    if sources.log is None or streamed(sources.log):
        return 0
    try:
        return stat_of(Path(sources.log))["size"]
    except OSError:
        return 0


def source_files(sources: Sources) -> list[tuple[str, Path]]:
    """The files of ``sources`` with their roles: log, an export's kind, capture."""
    files = [] if sources.log is None else [("log", Path(sources.log))]
    files += [(kind, Path(path)) for kind, path in sources.exports().items()]
    if sources.capture is not None:
        files.append(("capture", Path(sources.capture)))
    return files


def absolute_paths(sources: Sources) -> dict[str, str | None]:
    """``sources`` as the store records them: paths made absolute (standard input stays ``-``)."""
    return {
        key: value if value in (None, "-") or key == "name" else str(Path(value).resolve())
        for key, value in sources.as_dict().items()
    }


def index_key(sources: Sources) -> str:
    """Where ``index.json`` records what was read from ``sources``."""
    return json.dumps(absolute_paths(sources), sort_keys=True)


def file_stats(sources: Sources) -> dict[str, dict[str, int]]:
    """What the store records of each file of ``sources`` to know it has not changed."""
    return {role: stat_of(path) for role, path in source_files(sources)}


def sources_key(sources: Sources) -> str:
    """The content key of ``sources``: the log's content hash; with exports, a hash of every
    file's. (Hashing releases the interpreter lock: a thread can work it out while a log is
    parsed.)"""
    files = source_files(sources)
    if [role for role, _ in files] == ["log"]:
        return content_key(files[0][1])
    combined = "\n".join(f"{role}:{content_key(path)}" for role, path in files)
    return hashlib.sha1(combined.encode(), usedforsecurity=False).hexdigest()[:_KEY_HEX_DIGITS]
