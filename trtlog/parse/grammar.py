"""Load the grammars shipped in ``trtlog.grammars`` and build the Lark parsers."""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from lark import Lark
from lark.load_grammar import FromPackageLoader, Grammar, load_grammar

if TYPE_CHECKING:
    from trtlog.parse.transform import MessageTransformer

# Where the grammars are: ``trtlog/grammars/*.lark``, read as package data.
GRAMMAR_PACKAGE = "trtlog"
GRAMMAR_FOLDER = "grammars"
# The message grammar's root file: its start rules and the %imports of every family file.
MESSAGE_GRAMMAR = "messages.lark"
MESSAGE_START_RULES = (
    "message",
    "trtexec_message",
    "trtexec_warning",
    "diagnostic",
    "foreign_message",
    "torch_tensorrt_message",
)


def grammar_loader() -> FromPackageLoader:
    """Lark's loader for the package's grammars: it resolves their ``%import``s."""
    return FromPackageLoader(GRAMMAR_PACKAGE, (GRAMMAR_FOLDER,))


def message_grammar() -> Grammar:
    """The message grammar as Lark's loader reads it (``messages.lark`` and what it imports),
    for building another parser from it: ``Lark(message_grammar(), start=...)``."""
    loader = grammar_loader()
    source, text = loader(None, MESSAGE_GRAMMAR)
    # (Lark's function is untyped: a grammar and the files it read.)
    grammar: Grammar = load_grammar(text, source, [loader], False)[0]
    return grammar


@cache
def message_transformer() -> MessageTransformer:
    """The transformer ``message_parser`` applies; ``begin`` it before each parse."""
    from trtlog.parse.transform import MessageTransformer

    return MessageTransformer()


@cache
def message_parser() -> Lark:
    """The LALR parser for message bodies, one start symbol per kind of record, with the
    transformer applied while parsing (no tree is built)."""
    return Lark.open_from_package(
        GRAMMAR_PACKAGE,
        MESSAGE_GRAMMAR,
        (GRAMMAR_FOLDER,),
        start=list(MESSAGE_START_RULES),
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=True,
        transformer=message_transformer(),
        cache=_grammar_cache() or False,
    )


def terminal_regexp(name: str) -> str:
    """Terminal ``name`` of the message grammar as regular expression text to put into a larger
    expression: a non-capturing group whose own groups capture nothing, so that the larger
    expression's groups are numbered as it writes them."""
    pattern = message_parser().get_terminal(name).pattern.to_regexp()
    return f"(?:{non_capturing(pattern)})"


def non_capturing(pattern: str) -> str:
    """``pattern`` with every group made non-capturing (lookarounds and other "(?" groups are
    left as they are). Parentheses escaped or inside a character class are no groups."""
    out: list[str] = []
    escaped = in_class = False
    for index, character in enumerate(pattern):
        out.append(character)
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif in_class:
            in_class = character != "]"
        elif character == "[":
            in_class = True
        elif character == "(" and not pattern.startswith("?", index + 1):
            out.append("?:")
    return "".join(out)


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
