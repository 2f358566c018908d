"""The grammar files (``*.lark``): the one specification of every message form."""

from __future__ import annotations

from importlib import resources


def grammar_text(name: str) -> str:
    """The text of one ``.lark`` file from the installed package."""
    return resources.files("trtlog.grammars").joinpath(name).read_text(encoding="utf-8")
