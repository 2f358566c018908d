"""The Python backend's build, run in a child process: ``python -m trtlog.build.worker``.

It runs apart from trtlog so that a TensorRT crash, or a runtime object that must not be used
after CUDA failed to start, cannot take trtlog (and the log it is writing) down with it. Every
TensorRT message goes, with its severity and monotonic time, as one JSON object per line to a
pipe the parent reads; so do the worker's own reports (``version``, ``failure``).

Exit codes: 0 built, 1 the build failed, 2 the input or an option cannot be used, 5 no GPU.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from trtlog.build.python_backend import WORKER_BUILD_FAILED
from trtlog.build.trt_logger import capture_logger

EXIT_BUILD_FAILED = WORKER_BUILD_FAILED
EXIT_UNUSABLE = 2
EXIT_NO_GPU = 5

# TensorRT objects are kept here until the process ends: after CUDA failed to start, even
# destroying a runtime crashes, and the worker leaves with os._exit, which destroys nothing.
_KEEP: list[Any] = []


class WorkerFailure(Exception):
    def __init__(self, reason: str, message: str, code: int) -> None:
        super().__init__(message)
        self.reason = reason
        self.code = code


class Channel:
    """One JSON object per line to the parent."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def send(self, kind: str, **fields: Any) -> None:
        self._stream.write(json.dumps({"kind": kind, **fields}) + "\n")
        self._stream.flush()

    def message(self, severity: str, text: str, monotonic_ns: int) -> None:
        self.send("log", severity=severity, text=text, t_ns=monotonic_ns)


def main(argv: list[str] | None = None) -> int:
    arguments = argparse.ArgumentParser(prog="python -m trtlog.build.worker")
    arguments.add_argument("--fd", type=int, required=True, help="descriptor of the pipe")
    arguments.add_argument("--spec", required=True, help="the build, as JSON")
    options = arguments.parse_args(argv)
    channel = Channel(os.fdopen(options.fd, "w", encoding="utf-8"))
    spec = json.loads(options.spec)
    try:
        code = _run(spec, channel)
    except WorkerFailure as failure:
        channel.send("failure", reason=failure.reason, message=str(failure))
        code = failure.code
    except Exception as error:
        # TensorRT's bindings raise on misuse; the traceback goes to the log's stderr lines.
        traceback.print_exc()
        channel.send("failure", reason="build-failed", message=f"{type(error).__name__}: {error}")
        code = EXIT_BUILD_FAILED
    sys.stdout.flush()
    sys.stderr.flush()
    # Leave without running TensorRT's destructors: after a CUDA failure they may crash.
    os._exit(code)


def _run(spec: dict[str, Any], channel: Channel) -> int:
    module_name = spec["module"]
    try:
        trt = importlib.import_module(module_name)
    except ImportError as error:
        raise WorkerFailure(
            "missing", f"cannot import {module_name}: {error}", EXIT_UNUSABLE
        ) from None
    version = str(getattr(trt, "__version__", "unknown"))
    channel.send("version", version=version, module=module_name)
    logger = capture_logger(trt, channel.message)
    # Creating a runtime starts CUDA; without a usable GPU TensorRT logs errors here ("CUDA
    # initialization failure with error: 35") rather than raising.
    runtime = trt.Runtime(logger)
    _KEEP.extend((logger, runtime))
    if logger.errors:
        raise WorkerFailure("no-gpu", logger.errors[0], EXIT_NO_GPU)
    if not hasattr(trt, "Builder"):
        raise WorkerFailure(
            "runtime-only",
            f"{module_name} {version} is a runtime-only TensorRT package and cannot build "
            "engines: install the full tensorrt package",
            EXIT_UNUSABLE,
        )
    return _build(trt, version, logger, runtime, spec)


def _build(trt: ModuleType, version: str, logger: Any, runtime: Any, spec: dict[str, Any]) -> int:
    builder = trt.Builder(logger)
    _KEEP.append(builder)
    network = builder.create_network(_network_flags(trt, version))
    _parse_onnx(trt, network, logger, Path(spec["model"]))
    config = builder.create_builder_config()
    if hasattr(trt, "ProfilingVerbosity"):
        config.profiling_verbosity = trt.ProfilingVerbosity.DETAILED
    cache_path = Path(spec["timing_cache"])
    if hasattr(config, "create_timing_cache"):
        blob = cache_path.read_bytes() if cache_path.is_file() else b""
        config.set_timing_cache(config.create_timing_cache(blob), False)
    for flag in spec.get("flags", []):
        _set_flag(trt, config, version, flag)
    if spec.get("workspace_mib") is not None:
        _set_workspace(trt, config, version, int(spec["workspace_mib"]) << 20)
    if spec.get("shapes"):
        _add_profile(builder, network, config, spec["shapes"])
    serialized = builder.build_serialized_network(network, config)
    if serialized is None or logger.errors:
        message = logger.errors[0] if logger.errors else "build_serialized_network returned None"
        raise WorkerFailure("build-failed", message, EXIT_BUILD_FAILED)
    Path(spec["engine"]).write_bytes(bytes(serialized))
    if hasattr(config, "get_timing_cache"):
        cache_path.write_bytes(bytes(config.get_timing_cache().serialize()))
    _write_layer_information(trt, runtime, serialized, Path(spec["layers"]))
    return 0


def _network_flags(trt: ModuleType, version: str) -> int:
    # Explicit batch had to be asked for before 10.0, where it became the only mode.
    creation = getattr(trt, "NetworkDefinitionCreationFlag", None)
    explicit = getattr(creation, "EXPLICIT_BATCH", None)
    if explicit is None or _major(version) >= 10:
        return 0
    return 1 << int(explicit)


def _parse_onnx(trt: ModuleType, network: Any, logger: Any, model: Path) -> None:
    parser = trt.OnnxParser(network, logger)
    if hasattr(parser, "parse_from_file"):
        parsed = parser.parse_from_file(str(model))
    else:
        parsed = parser.parse(model.read_bytes())
    if not parsed:
        errors = [str(parser.get_error(index)) for index in range(parser.num_errors)]
        first = errors[0] if errors else "the ONNX parser failed"
        raise WorkerFailure("bad-model", f"{model}: {first}", EXIT_UNUSABLE)


def _set_flag(trt: ModuleType, config: Any, version: str, name: str) -> None:
    flag = getattr(trt.BuilderFlag, name, None)
    if flag is None:
        # TensorRT 11 removed the precision flags: networks are strongly typed.
        raise WorkerFailure(
            "unsupported-option",
            f"TensorRT {version} has no {name} builder flag: the network's own types (or its "
            "Q/DQ layers) choose the precisions",
            EXIT_UNUSABLE,
        )
    config.set_flag(flag)


def _set_workspace(trt: ModuleType, config: Any, version: str, size: int) -> None:
    if hasattr(config, "set_memory_pool_limit"):
        config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, size)
    elif hasattr(config, "max_workspace_size"):
        config.max_workspace_size = size
    else:
        raise WorkerFailure(
            "unsupported-option", f"TensorRT {version} has no workspace limit", EXIT_UNUSABLE
        )


def _add_profile(builder: Any, network: Any, config: Any, shapes: list[list[Any]]) -> None:
    inputs = [network.get_input(index).name for index in range(network.num_inputs)]
    profile = builder.create_optimization_profile()
    for name, dims in shapes:
        if name not in inputs:
            raise WorkerFailure(
                "unsupported-option",
                f"--shapes names {name!r}, which is not an input of the network "
                f"(inputs: {', '.join(inputs)})",
                EXIT_UNUSABLE,
            )
        profile.set_shape(name, dims, dims, dims)
    config.add_optimization_profile(profile)


def _write_layer_information(trt: ModuleType, runtime: Any, serialized: Any, path: Path) -> None:
    # The engine inspector (8.2+) gives trtexec's --exportLayerInfo document.
    engine = runtime.deserialize_cuda_engine(serialized)
    if engine is None or not hasattr(engine, "create_engine_inspector"):
        return
    inspector = engine.create_engine_inspector()
    path.write_text(inspector.get_engine_information(trt.LayerInformationFormat.JSON))


def _major(version: str) -> int:
    head = version.split(".", 1)[0]
    return int(head) if head.isdigit() else 0


if __name__ == "__main__":
    main()
