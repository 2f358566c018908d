"""The ``trtlog`` command line. Commands stay thin: they call the library and a renderer.

Heavy modules (lark, pandas, matplotlib) are imported inside the commands that use them, so
``trtlog --help`` stays instant. Each command module registers its commands on the shared app
when imported; the order of the imports is the order of ``trtlog --help``.
"""

from __future__ import annotations

import os

# isort: off
from trtlog.cli import parse_command, build_command, queries, visual, compare  # noqa: F401
from trtlog.cli import dataset_commands  # noqa: F401
from trtlog.cli.common import app

# isort: on

__all__ = ["app", "main"]


def main() -> None:
    # numpy's OpenBLAS starts a thread per core when imported, and each spins for a while: on
    # a 2-core machine a stored query spent 0.12 s more CPU time with them (0.83-0.89 s against
    # 0.72-0.75 s), time taken from the command itself. trtlog calls no BLAS routine (no matrix
    # products), so one thread does; a value the user has set is kept. (Set here, before any
    # command imports numpy; the library, imported into another program, leaves it alone.)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    app()


if __name__ == "__main__":
    main()
