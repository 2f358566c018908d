"""What one analysis reads: a log, and beside it the engine's JSON exports.

``resolve`` accepts what users point trtlog at: a log; a trtexec JSON export on its own (its
kind is recognised); or a ``trtlog build`` run folder, whose ``build.log``, ``capture.jsonl``
(each line's arrival time), ``layers.json``, ``profile.json`` and ``times.json`` are picked up
by themselves. Export files given explicitly take precedence.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, BinaryIO

from trtlog.parse.reader import LogSourceError

if TYPE_CHECKING:
    from trtlog.analysis.buildlog import BuildLog
    from trtlog.parse import ParsedLog
    from trtlog.parse.items import Item

# The parser, the export readers and the table builders are imported where used: naming a stored
# log's sources needs none of them.

# The files a run folder holds (see ``trtlog build``).
RUN_FOLDER_LOG = "build.log"
RUN_FOLDER_CAPTURE = "capture.jsonl"
RUN_FOLDER_EXPORTS = {"layers": "layers.json", "profile": "profile.json", "times": "times.json"}
EXPORT_KINDS = tuple(RUN_FOLDER_EXPORTS)


@dataclass(frozen=True)
class Sources:
    """A log (a path, ``-`` for standard input, or None), the export files beside it, and for
    a captured build the arrival time of each of the log's lines."""

    log: str | None = None
    layers: str | None = None
    profile: str | None = None
    times: str | None = None
    capture: str | None = None
    # How tables and reports name the source, where not by its path (standard input read
    # from a temporary copy is still "-").
    name: str | None = None

    def exports(self) -> dict[str, str]:
        return {kind: path for kind in EXPORT_KINDS if (path := getattr(self, kind)) is not None}

    @property
    def label(self) -> str:
        """How tables and reports name the source: the log, else the first export."""
        return self.name or self.log or next(iter(self.exports().values()), "-")

    def as_dict(self) -> dict[str, str | None]:
        return asdict(self)


def resolve(
    log: str | os.PathLike[str] | None,
    layers: str | os.PathLike[str] | None = None,
    profile: str | os.PathLike[str] | None = None,
    times: str | os.PathLike[str] | None = None,
) -> Sources:
    given = Sources(
        log=None if log is None else str(log),
        layers=None if layers is None else str(layers),
        profile=None if profile is None else str(profile),
        times=None if times is None else str(times),
    )
    if given.log is None or given.log == "-":
        return given
    path = Path(given.log)
    if path.is_dir():
        return _run_folder(path, given)
    named_json = path.suffix.lower() == ".json"
    if path.is_file() and (named_json or _starts_as_json(path)):
        # A JSON export given as the log (trtexec writes one to any name it is given, often
        # "build_profile.log"): put it where its kind belongs.
        from trtlog.exports import ExportError

        try:
            kind = _kind_of_file(path)
        except ExportError:
            if named_json:
                raise
            return given
        if getattr(given, kind) is None:
            return replace(given, log=None, **{kind: given.log})
        raise LogSourceError(f"{path}: a {kind} export, and --{kind} names another")
    return given


def _starts_as_json(path: Path) -> bool:
    """Whether the file opens as a JSON object or array of objects would ("{", or "[" then
    "{" or "]"), which no log line does ("[06/14/2023-09:02:11] ...", "[TensorRT] ...")."""
    try:
        with path.open("rb") as file:
            head = file.read(256).lstrip()
    except OSError:
        return False
    if head.startswith(b"{"):
        return True
    return head.startswith(b"[") and head[1:].lstrip()[:1] in (b"{", b"]")


def _run_folder(folder: Path, given: Sources) -> Sources:
    _settle_run_record(folder)
    log = folder / RUN_FOLDER_LOG
    if not log.is_file():
        raise LogSourceError(
            f"{folder}: is a directory without {RUN_FOLDER_LOG} (not a run folder)"
        )
    found = {
        kind: str(folder / name)
        for kind, name in RUN_FOLDER_EXPORTS.items()
        if getattr(given, kind) is None and (folder / name).is_file()
    }
    capture = folder / RUN_FOLDER_CAPTURE
    if capture.is_file():
        found["capture"] = str(capture)
    return replace(given, log=str(log), **found)


def _kind_of_file(path: Path) -> str:
    from trtlog.exports import ExportError, kind_of, read_documents

    documents = read_documents(path)
    kinds = {kind_of(document) for document in documents}
    if len(kinds) == 1 and None not in kinds:
        (kind,) = kinds
        assert kind is not None
        return kind
    raise ExportError(
        f"{path}: a JSON file that is not a trtexec layer info, profile or times export"
    )


def streamed(log: str | None) -> bool:
    """Whether ``log`` can be read only once: standard input ("-"), or a path that is a pipe,
    a FIFO, a socket or a character device (``trtlog parse <(zcat build.log.gz)``). Decided
    once per path: a FIFO may be gone by the time its content has been read."""
    if log is None:
        return False
    if log == "-":
        return True
    return _is_stream(log)


@lru_cache(maxsize=64)
def _is_stream(log: str) -> bool:
    try:
        mode = os.stat(log).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)


# A stream is copied to the store's folder before it is parsed: at most this many bytes
# (``TRTLOG_MAX_STREAM_BYTES`` sets another bound), and never the disk's last bytes, so that an
# endless producer (``yes | trtlog parse -``) ends in an error instead of a full disk.
MAX_STREAM_BYTES = 64 << 30
_DISK_RESERVE_BYTES = 256 << 20
_COPY_BYTES = 1 << 20
# How often the free space is looked at while a stream is copied.
_DISK_CHECK_BYTES = 64 << 20


def max_stream_bytes() -> int:
    configured = os.environ.get("TRTLOG_MAX_STREAM_BYTES", "")
    if not configured:
        return MAX_STREAM_BYTES
    try:
        limit = int(configured)
    except ValueError:
        limit = 0
    if limit < 1:
        raise LogSourceError(
            f"TRTLOG_MAX_STREAM_BYTES={configured!r}: not a positive whole number of bytes"
        )
    return limit


def stream_name(log: str, now: datetime | None = None) -> str:
    """How a log read once is named once read: ``stdin@<UTC time>`` for standard input, the
    path for a pipe or FIFO."""
    if log != "-":
        return log
    moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return "stdin@" + moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@contextmanager
def spooled(sources: Sources, folder: Path) -> Iterator[Sources]:
    """``sources`` as files: a log that can be read only once (``streamed``) is copied to a
    temporary file in ``folder`` (and removed afterwards), so that it is read once, then hashed
    and parsed from the copy, under the name ``stream_name`` gives it. The copy is bounded
    (``max_stream_bytes``, and the disk's free space): past it, ``LogSourceError``."""
    if not streamed(sources.log):
        yield sources
        return
    from trtlog.parse.reader import open_log

    assert sources.log is not None
    limit = max_stream_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    # Opened first: a closed standard input, or bytes that are not text (``< /dev/zero``), are
    # refused from their first bytes before anything is copied.
    with open_log(sources.log) as stream:
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".log", delete=False) as copy:
            try:
                _bounded_copy(stream, copy, limit, sources.log)
            except BaseException:
                Path(copy.name).unlink(missing_ok=True)
                raise
    try:
        yield replace(sources, log=copy.name, name=sources.name or stream_name(sources.log))
    finally:
        Path(copy.name).unlink(missing_ok=True)


def _bounded_copy(source: BinaryIO, target: IO[bytes], limit: int, log: str) -> None:
    what = "standard input" if log == "-" else log
    copied = 0
    checked = 0
    while data := source.read(_COPY_BYTES):
        copied += len(data)
        if copied > limit:
            raise LogSourceError(
                f"{what}: more than {limit:,} bytes; save the log to a file and parse that "
                "(TRTLOG_MAX_STREAM_BYTES sets the bound)"
            )
        if copied - checked >= _DISK_CHECK_BYTES:
            checked = copied
            free = shutil.disk_usage(Path(target.name).parent).free
            if free < _DISK_RESERVE_BYTES:
                raise LogSourceError(
                    f"{what}: the disk holding {Path(target.name).parent} is nearly full "
                    f"after {copied:,} bytes; save the log elsewhere and parse that file"
                )
        target.write(data)


def parse_sources(sources: Sources, on_progress: Callable[[int], None] | None = None) -> ParsedLog:
    """The log's events followed by the events of each export file. ``on_progress``: as
    ``read_sources``'s."""
    from trtlog.parse.items import events_of

    items: list[Item] = []
    parsed = read_sources(sources, items.append, on_progress=on_progress)
    parsed.events = list(events_of(items))
    return parsed


def read_sources(
    sources: Sources,
    sink: Callable[[Item], None],
    on_progress: Callable[[int], None] | None = None,
) -> ParsedLog:
    """Hand each item of the log (blocks stay blocks, see ``trtlog.parse.items``, but in a
    captured build, whose lines each have the time they arrived at: events) and then of each
    export to ``sink`` as it is read; return the log's source and line counts, without its
    events. Memory does not grow with the log. ``on_progress`` (the bytes of the log read so
    far): as ``LogFile``'s."""
    from trtlog.exports import export_events
    from trtlog.parse import ParsedLog
    from trtlog.parse.capture_times import read_capture
    from trtlog.parse.log_file import LogFile

    shell = ParsedLog(source=sources.label)
    place: tuple[int | None, int | None, int | None] = (None, None, None)
    if sources.log is not None:
        parse = LogFile(sources.log, on_progress=on_progress)
        items = parse.items()
        if sources.capture is not None:
            items = read_capture(sources.capture).stamp(items)
        for item in items:
            sink(item)
        shell.counts, shell.physical_lines = parse.counts, parse.physical_lines
        place = parse.last_place
    run, build, strategy = place
    for kind, path in sources.exports().items():
        _, events = export_events(path, expected=kind)
        for event in events:
            # The exports describe the engine of the log's last build (or the one its last run
            # loaded).
            sink(replace(event, run=run, build=build, strategy=strategy))
    return shell


def stream_build_log(
    sources: Sources, on_progress: Callable[[int], None] | None = None
) -> BuildLog:
    """The tables of ``sources``, read in one pass without keeping the bulk of the events: the
    way to read logs of any size. Its events are parsed again if asked for. ``on_progress`` is
    told the bytes of the log read so far."""
    from trtlog.analysis.buildlog import BuildLog
    from trtlog.analysis.stream import TableStream

    stream = TableStream()
    shell = read_sources(sources, stream.feed, on_progress=on_progress)
    return BuildLog.from_stream(shell, stream, reread=lambda: parse_sources(sources).events)


def _settle_run_record(folder: Path) -> None:
    """A run's ``run.json`` that still says "running" although the trtlog that ran it has
    ended (killed with SIGKILL, which it cannot catch; its build ended with it) is corrected."""
    record = folder / "run.json"
    try:
        run = json.loads(record.read_text())
    except (OSError, ValueError):
        return
    if not isinstance(run, dict) or run.get("outcome") != "running":
        return
    pid, namespace = run.get("trtlog_pid"), run.get("pid_namespace")
    # Only a process id of this machine's (or container's) process ids can be looked for.
    if not isinstance(pid, int) or namespace is None or namespace != pid_namespace():
        return
    try:
        os.kill(pid, 0)
        return  # still running
    except ProcessLookupError:
        pass
    except OSError:
        return
    run["outcome"] = "killed"
    run["reason"] = "trtlog was killed before the build ended"
    temporary = record.with_name(f".{record.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(run, indent=1) + "\n")
        temporary.replace(record)
    except OSError:
        temporary.unlink(missing_ok=True)


def pid_namespace() -> str | None:
    """This process's process id namespace and boot (Linux): where a recorded process id names
    the same process; None elsewhere."""
    try:
        namespace = os.readlink("/proc/self/ns/pid")
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return None
    return f"{boot}/{namespace}"


__all__ = [
    "EXPORT_KINDS",
    "MAX_STREAM_BYTES",
    "RUN_FOLDER_CAPTURE",
    "RUN_FOLDER_LOG",
    "Sources",
    "max_stream_bytes",
    "parse_sources",
    "read_sources",
    "resolve",
    "spooled",
    "stream_build_log",
    "stream_name",
    "streamed",
]
