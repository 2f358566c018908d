"""trtlog: turn TensorRT build logs into typed events and answers.

``trtlog.load(path)`` gives a ``BuildLog`` whose attributes are pandas tables (``stages``,
``tactics``, ``choices``, ``fusions``, ``provenance``, ``reformats``, ``memory``,
``memory_totals``, ``layers``, ``perf``, ``profile``, ``warnings``, ``timeline``, ...);
``trtlog.parse`` gives the typed events themselves.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from trtlog.version import __version__ as __version__

if TYPE_CHECKING:
    from trtlog.analysis import BuildLog


def load(
    source: str | os.PathLike[str] | None = None,
    *,
    layers: str | os.PathLike[str] | None = None,
    profile: str | os.PathLike[str] | None = None,
    times: str | os.PathLike[str] | None = None,
    store: bool = False,
    jobs: int = 1,
) -> BuildLog:
    """The tables of a TensorRT log, a trtexec JSON export or a ``trtlog build`` run folder,
    with the ``--exportLayerInfo``, ``--exportProfile`` and ``--exportTimes`` files beside it
    (see ``trtlog.store.load``). ``jobs``: the processes that build a large log's tables for
    the store."""
    # Imported here so that `import trtlog` (and `trtlog --help`) does not pull in pandas.
    from trtlog.store import load as load_from_store

    return load_from_store(
        source, layers=layers, profile=profile, times=times, store=store, jobs=jobs
    )
