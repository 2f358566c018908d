"""A stand-in for the parts of the ``tensorrt`` Python API that ``trtlog build --backend python``
uses, so that the worker's steps (flags, shapes, workspace, timing cache, the engine, the
inspector's JSON, failures) run on machines without TensorRT or a GPU. It builds nothing: it
logs a few messages in TensorRT 10.x's wording and returns fixed bytes.

Environment: FAKE_TRT_FAIL=1 logs an error during the build and returns None;
FAKE_TRT_NO_FP16=1 drops the FP16 flag, as TensorRT 11 did.
"""

from __future__ import annotations

import enum
import json
import os
from typing import Any

__version__ = "10.99.0"


class Severity(enum.Enum):
    INTERNAL_ERROR = 0
    ERROR = 1
    WARNING = 2
    INFO = 3
    VERBOSE = 4


class ILogger:
    Severity = Severity

    def __init__(self) -> None:
        pass


BuilderFlag = enum.Enum(  # type: ignore[misc]
    "BuilderFlag", ["INT8"] if os.environ.get("FAKE_TRT_NO_FP16") else ["FP16", "INT8"]
)


class ProfilingVerbosity(enum.Enum):
    LAYER_NAMES_ONLY = 0
    NONE = 1
    DETAILED = 2


class MemoryPoolType(enum.Enum):
    WORKSPACE = 0


class LayerInformationFormat(enum.Enum):
    ONELINE = 0
    JSON = 1


class NetworkDefinitionCreationFlag(enum.Enum):
    EXPLICIT_BATCH = 0


class _Tensor:
    def __init__(self, name: str) -> None:
        self.name = name


class _Network:
    num_inputs = 1

    def get_input(self, index: int) -> _Tensor:
        return _Tensor("x")


class _Cache:
    def __init__(self, blob: bytes) -> None:
        self.blob = blob or b"fresh timing cache"

    def serialize(self) -> bytes:
        return self.blob + b"+1 entry"


class _Profile:
    def __init__(self) -> None:
        self.shapes: dict[str, Any] = {}

    def set_shape(self, name: str, low: Any, opt: Any, high: Any) -> None:
        self.shapes[name] = (low, opt, high)


class _Config:
    def __init__(self) -> None:
        self.profiling_verbosity = ProfilingVerbosity.LAYER_NAMES_ONLY
        self.flags: list[Any] = []
        self.pool: dict[Any, int] = {}
        self.profiles: list[_Profile] = []
        self.cache: _Cache | None = None

    def create_timing_cache(self, blob: bytes) -> _Cache:
        return _Cache(blob)

    def set_timing_cache(self, cache: _Cache, ignore_mismatch: bool) -> bool:
        self.cache = cache
        return True

    def get_timing_cache(self) -> _Cache | None:
        return self.cache

    def set_flag(self, flag: Any) -> None:
        self.flags.append(flag)

    def set_memory_pool_limit(self, pool: Any, size: int) -> None:
        self.pool[pool] = size

    def add_optimization_profile(self, profile: _Profile) -> int:
        self.profiles.append(profile)
        return len(self.profiles) - 1


class Builder:
    def __init__(self, logger: ILogger) -> None:
        self.logger = logger

    def create_network(self, flags: int = 0) -> _Network:
        return _Network()

    def create_builder_config(self) -> _Config:
        return _Config()

    def create_optimization_profile(self) -> _Profile:
        return _Profile()

    def build_serialized_network(self, network: _Network, config: _Config) -> bytes | None:
        log = self.logger.log  # type: ignore[attr-defined]
        settings = {
            "flags": sorted(flag.name for flag in config.flags),
            "workspace": list(config.pool.values()),
            "shapes": [profile.shapes for profile in config.profiles],
            "verbosity": config.profiling_verbosity.name,
        }
        log(Severity.INFO, f"fake builder settings: {json.dumps(settings)}")
        log(Severity.VERBOSE, "Original: 1 layers")
        log(Severity.VERBOSE, "After dead-layer removal: 1 layers")
        log(Severity.VERBOSE, "=============== Computing costs for node_relu")
        log(Severity.VERBOSE, "Tactic: 0x0000000000000000 Time: 0.00512")
        log(
            Severity.VERBOSE,
            "Engine Layer Information:\nLayer(PointWiseV2): node_relu, Tactic: 0x0000000000000000, x (Float[1,3,16,16]) -> y (Float[1,3,16,16])",
        )
        if os.environ.get("FAKE_TRT_FAIL"):
            log(
                Severity.ERROR,
                "[builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error (Assertion engine != nullptr failed.)",
            )
            return None
        return b"fake serialized engine"


class _Inspector:
    def get_engine_information(self, format: LayerInformationFormat) -> str:
        return json.dumps(
            {
                "Layers": [{"Name": "node_relu", "LayerType": "PointWiseV2"}],
                "Bindings": ["x", "y"],
            }
        )


class _Engine:
    def create_engine_inspector(self) -> _Inspector:
        return _Inspector()


class Runtime:
    def __init__(self, logger: ILogger) -> None:
        logger.log(Severity.INFO, "fake runtime created")  # type: ignore[attr-defined]

    def deserialize_cuda_engine(self, blob: bytes) -> _Engine:
        return _Engine()


class _ParserError:
    def __str__(self) -> str:
        return "ModelImporter.cpp:900: Failed to parse ONNX model: not a protobuf"


class OnnxParser:
    def __init__(self, network: _Network, logger: ILogger) -> None:
        self.errors: list[_ParserError] = []

    def parse_from_file(self, path: str) -> bool:
        with open(path, "rb") as model:
            if model.read().startswith(b"bad"):
                self.errors.append(_ParserError())
                return False
        return True

    @property
    def num_errors(self) -> int:
        return len(self.errors)

    def get_error(self, index: int) -> _ParserError:
        return self.errors[index]
