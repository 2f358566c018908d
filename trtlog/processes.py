"""Processes trtlog starts end with it.

Linux's parent-death signal (``prctl(PR_SET_PDEATHSIG)``) is set in every process trtlog
starts: the ingest workers, the forked table writer, the build (trtexec or the Python
worker). When trtlog ends for any reason, ``kill -9`` included, the kernel sends them SIGTERM;
they never block forever on a pipe whose other end is gone nor hold the caller's standard output
open. Elsewhere (macOS, Windows) this does nothing: the pools' own shutdown is all there is.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable
from functools import cache

_PR_SET_PDEATHSIG = 1


@cache
def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The C library is already loaded: its symbols are the program's own.
        function: Callable[..., int] | None = getattr(ctypes.CDLL(None), "prctl", None)
    except OSError:
        return None
    return function


def prepare() -> None:
    """Look up what ``die_with_parent`` calls, in the parent: a forked child inherits it and
    loads nothing itself."""
    _prctl()


def die_with_parent(parent: int | None = None) -> None:
    """Have the kernel send this process SIGTERM when its parent ends; ``parent``: the pid the
    parent had before this process started, to catch a parent that ended in between."""
    prctl = _prctl()
    if prctl is None:
        return
    prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        # The parent ended before the signal was set.
        os.kill(os.getpid(), signal.SIGTERM)


def child_setup() -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen`` that sets the signal in the child, everything
    it needs looked up here, in the parent (a forked child must not load libraries)."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def setup() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)

    return setup


__all__ = ["child_setup", "die_with_parent", "prepare"]


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS and Windows
        return max(1, os.cpu_count() or 1)
