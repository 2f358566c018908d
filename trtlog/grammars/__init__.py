"""The grammar files (``*.lark``): the one specification of every message form."""

from __future__ import annotations

from functools import cache
from importlib import resources


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
