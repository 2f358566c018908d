"""The ``trtlog`` command line. Commands stay thin: they call the library and a renderer.

Heavy modules (lark, pandas, matplotlib) are imported inside the commands that use them, so
``trtlog --help`` stays instant. Each command module registers its commands on the shared app
when imported; the order of the imports is the order of ``trtlog --help``.
"""

from __future__ import annotations

import os

# isort: off
from trtlog.cli import parse_command, build_command, watch_command  # noqa: F401
from trtlog.cli import queries, visual, compare  # noqa: F401
from trtlog.cli import dataset_commands, cache_command  # noqa: F401
from trtlog.cli.common import app

# isort: on

__all__ = ["app", "main"]


# Arrow's own allocator keeps the memory it frees apart from what the interpreter and numpy
# use: the tables of a large log, made one after another and each let go before the next, then
# take more memory at once than with one allocator for all. A pool the user chose stays; set
# before pyarrow is first imported, which reads it then.
def main() -> None:
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    app()


if __name__ == "__main__":
    main()
