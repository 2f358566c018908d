"""Load the grammars shipped in ``trtlog.grammars`` and build the Lark parsers."""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from lark import Lark

from trtlog.grammars import grammar_text

if TYPE_CHECKING:
    from trtlog.parse.transform import MessageTransformer

# Concatenation order of the message grammar: shared terminals, the start rules, then one file
# per event family (see the header of messages.lark).
FAMILY_FILES = (
    "run.lark",
    "options.lark",
    "onnx.lark",
    "graph.lark",
    "autotuning.lark",
    "memory.lark",
    "engine.lark",
    "phases.lark",
    "performance.lark",
    "notes.lark",
    "diagnostics.lark",
    "foreign.lark",
)
MESSAGE_START_RULES = (
    "message",
    "trtexec_message",
    "trtexec_warning",
    "diagnostic",
    "foreign_message",
    "torch_tensorrt_message",
)


def message_grammar() -> str:
    parts = [grammar_text("common.lark"), grammar_text("messages.lark")]
    parts.extend(grammar_text(name) for name in FAMILY_FILES)
    return "\n".join(parts)


@cache
def message_transformer() -> MessageTransformer:
    """The transformer ``message_parser`` applies; ``begin`` it before each parse."""
    from trtlog.parse.transform import MessageTransformer

    return MessageTransformer()


@cache
def message_parser() -> Lark:
    """The LALR parser for message bodies, one start symbol per kind of record, with the
    transformer applied while parsing (no tree is built)."""
    return Lark(
        message_grammar(),
        start=list(MESSAGE_START_RULES),
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=True,
        transformer=message_transformer(),
        cache=_grammar_cache() or False,
    )


def _grammar_cache() -> str | None:
    """Where Lark keeps the analysed grammar between runs (it loads five times faster than it
    builds, and Lark rebuilds it when the grammar changes): the user's own cache folder, never
    a shared temporary one, since the file is a pickle. None to build it every time."""
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
    return str(folder / f"message-grammar-py{python}.lark-cache")
