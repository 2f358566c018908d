"""One captured build: choose the backend, start it, keep every line, and say how it ended."""

from __future__ import annotations

import os
import platform
import shutil
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from trtlog.build.progress import ProgressState
from trtlog.build.python_backend import (
    INSTALL_HINT,
    WORKER_BUILD_FAILED,
    WorkerMessages,
    has_tensorrt,
    parse_shapes,
    tensorrt_module,
    worker_command,
)
from trtlog.build.runfolder import (
    CaptureWriter,
    RunFolder,
    default_run_folder,
    monotonic_ns,
    wall_clock,
)
from trtlog.build.supervise import ChildOutcome, Supervisor
from trtlog.build.trtexec import ENGINE_SUFFIXES, find_trtexec, probe_trtexec, trtexec_command
from trtlog.store.sources import pid_namespace
from trtlog.version import __version__

# Exit codes of `trtlog build`, besides 0: 2 the model, an option or the machine cannot be used
# (no trtexec, no tensorrt, no GPU); 4 the build failed or crashed; 128 + N interrupted by
# signal N (130 for Ctrl-C, 143 for SIGTERM).
EXIT_UNUSABLE = 2
EXIT_BUILD_FAILED = 4
BACKENDS = ("auto", "trtexec", "python")
_PYTHON_ONLY = ("fp16", "int8", "shapes", "workspace_mib")


class BuildError(Exception):
    """A build that cannot start; the message is one line."""

    def __init__(self, message: str, code: int = EXIT_UNUSABLE) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class BuildRequest:
    model: Path
    backend: str = "auto"
    trtexec: str | None = None
    folder: Path | None = None
    # Passed to trtexec as they are (the arguments after "--").
    extra: list[str] = field(default_factory=list)
    fp16: bool = False
    int8: bool = False
    shapes: str | None = None
    workspace_mib: int | None = None
    timing_cache: Path | None = None
    grace_seconds: float = 10.0


@dataclass
class BuildResult:
    folder: RunFolder
    run: dict[str, Any]
    progress: ProgressState

    @property
    def outcome(self) -> str:
        return str(self.run["outcome"])

    @property
    def exit_code(self) -> int:
        return int(self.run["trtlog_exit_code"])


def run_build(
    request: BuildRequest, progress: ProgressState, echo: Callable[[bytes], None] | None = None
) -> BuildResult:
    """Run the build that ``request`` asks for; raises ``BuildError`` when it cannot start."""
    # A missing model is told before a missing TensorRT: it is the mistake more easily made.
    _check_model_file(request.model)
    backend = _choose_backend(request)
    model = _check_model(request.model, backend)
    shapes = _check_options(request, backend)
    folder = RunFolder((request.folder or default_run_folder(model)).resolve(), model)
    if folder.path.is_dir() and any(folder.path.iterdir()):
        # An earlier run's log, engine and run.json are never overwritten.
        raise BuildError(
            f"{folder.path}: the run folder already holds files; pass another --out, or leave "
            "it out for a new folder under trtlog-runs/"
        )
    try:
        folder.path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BuildError(
            f"{folder.path}: cannot create the run folder ({error.strerror})"
        ) from None
    started_ns = monotonic_ns()
    start_utc, start_local = wall_clock()
    writer = CaptureWriter(folder, started_ns)

    def sink(raw: bytes, read_ns: int, stream: str, severity: str | None = None) -> None:
        writer.write(raw, read_ns, stream, severity)
        progress.feed(raw.decode("utf-8", errors="replace"))
        if echo is not None:
            echo(raw)

    supervisor = Supervisor(
        {
            "stdout": lambda raw, t: sink(raw, t, "stdout"),
            "stderr": lambda raw, t: sink(raw, t, "stderr"),
        },
        grace_seconds=request.grace_seconds,
    )
    run: dict[str, Any] = {
        "trtlog": __version__,
        # While the outcome is "running": the trtlog that runs it, and the process id
        # namespace where that id means it (see sources.resolve).
        "trtlog_pid": os.getpid(),
        "pid_namespace": pid_namespace(),
        "backend": backend,
        "model": str(model),
        "folder": str(folder.path.resolve()),
        "host": _host(),
        "gpu": _gpu_name(),
        "start": start_utc,
        "start_local": start_local,
        "outcome": "running",
    }
    messages: WorkerMessages | None = None
    if backend == "trtexec":
        executable = find_trtexec(request.trtexec)
        assert executable is not None
        info = probe_trtexec(executable)
        command = trtexec_command(info, model, folder, request.extra, request.timing_cache)
        run["tensorrt_version"] = info.version
    else:
        messages = WorkerMessages(sink, datetime.fromisoformat(start_local), started_ns)
        fd = supervisor.open_pipe("logger")
        supervisor.handlers = {**supervisor.handlers, "logger": messages}
        spec = _worker_spec(request, model, folder, shapes)
        command = worker_command(spec, fd)
        run["tensorrt_module"] = spec["module"]
    run["command"] = command
    folder.write_run(run)
    try:
        outcome = supervisor.run(command)
    finally:
        writer.close()
    if messages is not None:
        run["tensorrt_version"] = messages.version
    if supervisor.errors:
        run["capture_error"] = supervisor.errors[0]
    _finish(run, outcome, messages, progress, folder, writer.lines)
    folder.write_run(run)
    return BuildResult(folder, run, progress)


def _choose_backend(request: BuildRequest) -> str:
    if request.backend not in BACKENDS:
        raise BuildError(f"--backend must be one of {', '.join(BACKENDS)}")
    module = tensorrt_module()
    if request.backend == "trtexec" or (request.backend == "auto" and request.trtexec):
        if find_trtexec(request.trtexec) is None:
            where = request.trtexec or "trtexec"
            raise BuildError(
                f"{where}: not found; put trtexec (in TensorRT's bin/ folder) on PATH or pass "
                "--trtexec PATH"
            )
        return "trtexec"
    if request.backend == "python":
        if not has_tensorrt(module):
            raise BuildError(f"the {module} Python package is not installed: {INSTALL_HINT}")
        return "python"
    if find_trtexec() is not None:
        return "trtexec"
    if has_tensorrt(module):
        return "python"
    raise BuildError(
        "no TensorRT found: neither trtexec (on PATH, or --trtexec PATH) nor the tensorrt "
        f"Python package ({INSTALL_HINT})"
    )


def _check_model_file(model: Path) -> None:
    if not model.is_file():
        what = "is a directory" if model.is_dir() else "no such file"
        raise BuildError(f"{model}: {what}")


def _check_model(model: Path, backend: str) -> Path:
    _check_model_file(model)
    if model.suffix.lower() in ENGINE_SUFFIXES:
        if backend == "python":
            raise BuildError(f"{model}: an engine; the python backend builds ONNX models")
    elif model.suffix.lower() != ".onnx":
        raise BuildError(
            f"{model}: not an ONNX model (.onnx) or an engine ({', '.join(ENGINE_SUFFIXES)})"
        )
    return model.resolve()


def _check_options(request: BuildRequest, backend: str) -> list[tuple[str, list[int]]]:
    if backend == "trtexec":
        given = [name for name in _PYTHON_ONLY if getattr(request, name) not in (None, False)]
        if given:
            option = "--" + given[0].replace("_mib", "")
            raise BuildError(
                f"{option} is an option of the python backend; for trtexec pass trtexec's own "
                f"options after --, for example: trtlog build MODEL -- --fp16"
            )
        return []
    if request.extra:
        raise BuildError("arguments after -- are passed to trtexec; the python backend takes none")
    try:
        return parse_shapes(request.shapes) if request.shapes else []
    except ValueError as error:
        raise BuildError(str(error)) from None


def _worker_spec(
    request: BuildRequest, model: Path, folder: RunFolder, shapes: list[tuple[str, list[int]]]
) -> dict[str, Any]:
    return {
        "module": tensorrt_module(),
        "model": str(model),
        "engine": str(folder.engine),
        "layers": str(folder.export("layers")),
        "timing_cache": str(request.timing_cache or folder.timing_cache),
        "flags": [
            flag for flag, wanted in (("FP16", request.fp16), ("INT8", request.int8)) if wanted
        ],
        "workspace_mib": request.workspace_mib,
        "shapes": shapes,
    }


def _finish(
    run: dict[str, Any],
    child: ChildOutcome,
    messages: WorkerMessages | None,
    progress: ProgressState,
    folder: RunFolder,
    lines: int,
) -> None:
    end_utc, _ = wall_clock()
    start = datetime.fromisoformat(run["start"])
    run.update(
        end=end_utc,
        duration_s=round((datetime.fromisoformat(end_utc) - start).total_seconds(), 3),
        pid=child.pid,
        exit_status=child.exit_status,
        signal=child.signal,
        interrupted_by=child.interrupted_by,
        killed_after_grace=child.killed,
        lines=lines,
        progress=progress.as_dict(),
        files=folder.files(),
    )
    outcome, code, reason = _judge(child, messages, progress)
    run.update(outcome=outcome, trtlog_exit_code=code, reason=reason)


def _judge(
    child: ChildOutcome, messages: WorkerMessages | None, progress: ProgressState
) -> tuple[str, int, str | None]:
    """The outcome, trtlog's exit code, and the reason in one line."""
    if child.error is not None:
        return "not-started", EXIT_UNUSABLE, child.error
    if child.interrupted_by is not None:
        number = _signal_number(child.interrupted_by)
        how = " (killed after the grace period)" if child.killed else ""
        return "interrupted", 128 + number, f"interrupted by {child.interrupted_by}{how}"
    failure = messages.failure if messages is not None else None
    if child.signal is not None:
        return "crashed", EXIT_BUILD_FAILED, f"the build died of {child.signal}"
    if failure is not None:
        reason = str(failure.get("reason"))
        message = str(failure.get("message"))
        if reason == "no-gpu":
            return "no-gpu", EXIT_UNUSABLE, f"TensorRT cannot use a GPU here: {message}"
        if reason == "build-failed" or child.returncode == WORKER_BUILD_FAILED:
            return "failed", EXIT_BUILD_FAILED, message
        return "unusable", EXIT_UNUSABLE, message
    if child.returncode:
        if progress.gpu_error is not None:
            return "no-gpu", EXIT_UNUSABLE, f"TensorRT cannot use a GPU here: {progress.gpu_error}"
        detail = f": {progress.first_error}" if progress.first_error else ""
        return (
            "failed",
            EXIT_BUILD_FAILED,
            f"the build exited with status {child.returncode}{detail}",
        )
    return "succeeded", 0, None


def _signal_number(name: str) -> int:
    import signal

    try:
        return int(signal.Signals[name])
    except KeyError:
        return 0


def _host() -> dict[str, str]:
    return {
        "name": socket.gethostname(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cwd": os.getcwd(),
    }


def _gpu_name() -> str | None:
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        result = subprocess.run(
            [smi, "--query-gpu=name,driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    first = result.stdout.strip().splitlines()[:1]
    return first[0].strip() if result.returncode == 0 and first else None


__all__ = ["BACKENDS", "BuildError", "BuildRequest", "BuildResult", "run_build"]
