"""The trtexec backend: which trtexec, what it supports, and the command line that captures.

trtexec's options changed across versions (``--nvtxMode`` became ``--profilingVerbosity`` in
8.2, ``--exportLayerInfo`` arrived in 8.2, ``--timingCacheFile`` in 8.0), and an option it does
not know stops it with "Unknown option". So trtexec's own ``--help`` is read first and only the
options it lists are added. Options the user passes after ``--`` win over trtlog's own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from trtlog.build.runfolder import RunFolder
from trtlog.grammars import terminal_pattern

ENGINE_SUFFIXES = (".engine", ".plan", ".trt")
_OPTION = re.compile(r"(?<![\w-])(--[A-Za-z][\w]*)")
# "&&&& RUNNING TensorRT.trtexec [TensorRT v100300] # trtexec --help": the run header's
# VERSION_TAG.
_VERSION = re.compile(terminal_pattern("VERSION_TAG"))
_VERSION_DIGITS = re.compile(r"\d+")
_HELP_SECONDS = 30


@dataclass(frozen=True)
class TrtexecInfo:
    """What ``trtexec --help`` told: the TensorRT version and the options it knows (None when
    the help could not be read, in which case every option is tried)."""

    path: str
    version: str | None
    options: frozenset[str] | None

    def knows(self, option: str) -> bool:
        return self.options is None or option in self.options


def find_trtexec(explicit: str | os.PathLike[str] | None = None) -> str | None:
    """``explicit`` if it names an executable (a path, or a name on PATH), else trtexec on PATH;
    TensorRT's tarballs put it in bin/ beside lib/, so $TENSORRT_HOME/bin is tried too."""
    if explicit is not None:
        return shutil.which(str(explicit)) or (
            str(explicit) if os.access(explicit, os.X_OK) and Path(explicit).is_file() else None
        )
    found = shutil.which("trtexec")
    if found is None and (home := os.environ.get("TENSORRT_HOME")):
        found = shutil.which("trtexec", path=str(Path(home) / "bin"))
    return found


def probe_trtexec(path: str) -> TrtexecInfo:
    try:
        result = subprocess.run(
            [path, "--help"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=_HELP_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return TrtexecInfo(path, None, None)
    text = (result.stdout + result.stderr).decode("utf-8", errors="replace")
    options = frozenset(_OPTION.findall(text))
    tag = _VERSION.search(text)
    version = None if tag is None else _VERSION_DIGITS.search(tag.group())
    return TrtexecInfo(
        path,
        _dotted(version.group()) if version else None,
        options if len(options) >= 10 else None,
    )


def _dotted(number: str) -> str:
    """TensorRT's packed version: 100300 -> 10.3.0, 8601 -> 8.6.1, 8003 -> 8.0.3."""
    value = int(number)
    if value >= 10000:
        return f"{value // 10000}.{value // 100 % 100}.{value % 100}"
    return f"{value // 1000}.{value // 100 % 10}.{value % 100}"


def trtexec_command(
    info: TrtexecInfo,
    model: Path,
    folder: RunFolder,
    extra: list[str],
    timing_cache: Path | None = None,
) -> list[str]:
    """The command that builds ``model`` (or profiles an engine) and captures everything."""
    given = {argument.split("=", 1)[0] for argument in extra if argument.startswith("-")}
    if "-v" in given:
        given.add("--verbose")
    is_engine = model.suffix.lower() in ENGINE_SUFFIXES
    wanted: list[tuple[str, str | None]] = [
        ("--loadEngine" if is_engine else "--onnx", str(model)),
        ("--verbose", None),
    ]
    if info.knows("--profilingVerbosity"):
        wanted.append(("--profilingVerbosity", "detailed"))
    elif info.options is not None and "--nvtxMode" in info.options:
        wanted.append(("--nvtxMode", "verbose"))
    if not is_engine:
        wanted.append(("--saveEngine", str(folder.engine)))
        wanted.append(("--timingCacheFile", str(timing_cache or folder.timing_cache)))
    wanted += [
        ("--exportLayerInfo", str(folder.export("layers"))),
        ("--exportProfile", str(folder.export("profile"))),
        ("--exportTimes", str(folder.export("times"))),
    ]
    command = [info.path]
    for option, value in wanted:
        if option in given or not info.knows(option):
            continue
        command.append(option if value is None else f"{option}={value}")
    return command + extra


__all__ = ["ENGINE_SUFFIXES", "TrtexecInfo", "find_trtexec", "probe_trtexec", "trtexec_command"]
