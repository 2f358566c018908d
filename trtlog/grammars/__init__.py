"""The grammar files (``*.lark``): the one specification of every message form."""

from __future__ import annotations

import os
import sys
from functools import cache
from importlib import resources
from pathlib import Path


def grammar_text(name: str) -> str:
    """The text of one ``.lark`` file from the installed package."""
    return resources.files("trtlog.grammars").joinpath(name).read_text(encoding="utf-8")


@cache
def terminal_pattern(name: str) -> str:
    """The regular expression of terminal ``name`` as a grammar file writes it (``NAME:
    /pattern/`` on one line, without flags), read without building a parser: for code the
    parser is built with (the transformer), as the native core reads its terminals."""
    head = f"{name}: /"
    for file in sorted(resources.files("trtlog.grammars").iterdir(), key=lambda file: file.name):
        if not file.name.endswith(".lark"):
            continue
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.startswith(head) and line.endswith("/"):
                return line[len(head) : -1]
    raise LookupError(f"terminal {name} is not written as /pattern/ in the grammar")


def grammar_cache(name: str) -> str | None:
    """Where Lark keeps grammar ``name`` analysed between runs (loading it is much quicker than
    analysing the grammar again, and Lark rebuilds it when the grammar changes): the user's own
    cache folder, never a shared temporary one, since the file is a pickle. None to build it
    every time."""
    if os.environ.get("TRTLOG_NO_GRAMMAR_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(base) / "trtlog"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    python = f"{sys.version_info[0]}{sys.version_info[1]}"
    return str(folder / f"{name}-grammar-py{python}.lark-cache")
