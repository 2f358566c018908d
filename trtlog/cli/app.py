"""The ``trtlog`` command line. Commands stay thin: they call the library and a renderer.

Heavy modules (lark, pandas, matplotlib) are imported inside the commands that use them, so
``trtlog --help`` stays instant. Each command module registers its commands on the shared app
when imported; the order of the imports is the order of ``trtlog --help``.
"""

from __future__ import annotations

# isort: off
from trtlog.cli import parse_command, build_command, watch_command  # noqa: F401
from trtlog.cli import queries, visual, compare  # noqa: F401
from trtlog.cli import dataset_commands, cache_command  # noqa: F401
from trtlog.cli.common import app

# isort: on

__all__ = ["app", "main"]


def main() -> None:
    app()


if __name__ == "__main__":
    main()
