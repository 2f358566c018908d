"""``trtlog build``: run a TensorRT build with VERBOSE logging and keep everything it said.

Two backends give one result, a run folder (see ``runfolder``): ``trtexec``, run as a child
process, and ``python``, the ``tensorrt`` package driven by a worker process (``worker``). Only
the worker imports TensorRT.
"""

from trtlog.build.progress import ProgressState
from trtlog.build.run import (
    BACKENDS,
    EXIT_BUILD_FAILED,
    EXIT_UNUSABLE,
    BuildError,
    BuildRequest,
    BuildResult,
    run_build,
)

__all__ = [
    "BACKENDS",
    "EXIT_BUILD_FAILED",
    "EXIT_UNUSABLE",
    "BuildError",
    "BuildRequest",
    "BuildResult",
    "ProgressState",
    "run_build",
]
