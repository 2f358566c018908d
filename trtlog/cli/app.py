"""The ``trtlog`` command line. Commands stay thin: they call the library and a renderer.

Heavy modules (lark, pandas, matplotlib) are imported inside the commands that use them, so
``trtlog --help`` stays instant. Each command module registers its commands on the shared app
when imported; the order of the imports is the order of ``trtlog --help``.
"""

from __future__ import annotations

import gc
import os

# isort: off
from trtlog.cli import parse_command, build_command, watch_command  # noqa: F401
from trtlog.cli import queries, visual, compare  # noqa: F401
from trtlog.cli import dataset_commands, cache_command  # noqa: F401
from trtlog.cli.common import app

# isort: on

__all__ = ["app", "main"]


def main() -> None:
    # numpy's OpenBLAS starts a thread per core when imported, and each spins for a while,
    # taking CPU time from the command itself. trtlog calls no BLAS routine (no matrix
    # products), so one thread does; a value the user has set is kept. (Set here, before any
    # command imports numpy; the library, imported into another program, leaves it alone.)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # numpy asks Linux for transparent huge pages for each array of 4 MB or more. Where the
    # kernel compacts memory to find them on demand (THP "madvise" mode, with defrag
    # "madvise", common on Linux distributions), the first touch of a large array stalls in
    # the kernel. trtlog builds each large array once or twice, too few times for huge pages
    # to pay back; a value the user has set is kept.
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    try:
        app()
    finally:
        # At exit, CPython collects garbage once more, walking every object still alive (a
        # large log leaves millions); frozen, they are left out of that collection and still
        # freed. Nothing trtlog leaves behind needs it: its files and processes are closed.
        # (``trtlog parse`` also freezes what the parse kept before it builds the tables:
        # ``parse_output``.)
        gc.freeze()


if __name__ == "__main__":
    main()
