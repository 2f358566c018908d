"""Load the grammars shipped in ``trtlog.grammars`` and build the Lark parsers."""

from __future__ import annotations

import hashlib
import os
import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from lark import Lark
from lark.exceptions import UnexpectedInput
from lark.load_grammar import FromPackageLoader, Grammar, PackageResource, load_grammar

from trtlog.grammars import grammar_cache, grammar_text

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
    "trtexec_report",
    "diagnostic",
    "relayed_error",
    "foreign_message",
    "jetson_inference_message",
    "sample_message",
    "torch_tensorrt_message",
)


# The file of the terminals several families share; each family imports those it uses.
SHARED_GRAMMAR = "common.lark"
# An import of a grammar file's names: "%import .onnx (network_input, REST)".
_IMPORT = re.compile(r"^%import \.(\w+) \(([^)]*)\)[^\n]*\n?", re.MULTILINE)


def grammar_loader() -> FromPackageLoader:
    """Lark's loader for the package's grammars: it resolves their ``%import``s, so that each
    file loads on its own (``Lark.open_from_package``)."""
    return FromPackageLoader(GRAMMAR_PACKAGE, (GRAMMAR_FOLDER,))


class MessageGrammarLoader:
    """The loader the message grammar is built with: the package's files, a family file without
    the shared terminals messages.lark names in its import of that family.

    Each family imports the shared terminals it uses from common.lark, so that it loads on its
    own, and messages.lark imports them once for all. Lark refuses a symbol that two imports both
    define ("Symbol already defined": ``REST`` from messages.lark's import and again from the
    family's), and one left to the family's own import under a namespaced name is a second
    terminal, ``onnx__REST`` (lark-parser/lark#1448). So messages.lark names the shared terminals
    a family's rules use in its import of that family, and the family is served to it without
    importing those: they are the ones messages.lark imported. A shared terminal a family only
    builds a terminal on (onnx.lark's ``LOCATED_IMPORTER_STEP`` on ``DIAGNOSTIC_LOCATION``) stays
    in the family's import, since Lark resolves such a terminal within its own file; left
    unnamed by messages.lark, the copy is dropped once the terminal is built.

    Lark's grammar cache checks each file it read against the text it was given, which it cannot
    do for a file served altered; the loader's ``repr`` is part of Lark's cache key, so it names
    a digest of every grammar file, and the key changes with any file.
    """

    def __init__(self) -> None:
        self._package = grammar_loader()
        self._digest = grammar_files_digest()
        self._named: dict[str, set[str]] = {}
        for family, names in _IMPORT.findall(grammar_text(MESSAGE_GRAMMAR)):
            self._named.setdefault(f"{family}.lark", set()).update(_names(names))

    def __call__(
        self, base_path: str | PackageResource | None, grammar_path: str
    ) -> tuple[PackageResource, str]:
        source, text = self._package(base_path, grammar_path)
        folder, name = os.path.split(source.path)
        if name in (SHARED_GRAMMAR, MESSAGE_GRAMMAR):
            return source, text
        named = self._named.get(name, set())

        def without_named(found: re.Match[str]) -> str:
            if found.group(1) != SHARED_GRAMMAR.removesuffix(".lark"):
                return found.group(0)
            kept = [shared for shared in _names(found.group(2)) if shared not in named]
            return f"%import .common ({', '.join(kept)})\n" if kept else ""

        # (Named after the file, in its folder for its imports, but no file of the package:
        # Lark's cache would find the file's own text differ from the text served.)
        served = PackageResource(source.pkg_name, os.path.join(folder, f"{name} for messages"))
        return served, _IMPORT.sub(without_named, text)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({GRAMMAR_PACKAGE!r}, {GRAMMAR_FOLDER!r}, {self._digest})"


def _names(listed: str) -> list[str]:
    return [name.strip() for name in listed.split(",") if name.strip()]


def grammar_files_digest() -> str:
    """The SHA-256 of every ``.lark`` file of the package, by name."""
    digest = hashlib.sha256()
    folder = resources.files(f"{GRAMMAR_PACKAGE}.{GRAMMAR_FOLDER}")
    for name in sorted(file.name for file in folder.iterdir() if file.name.endswith(".lark")):
        digest.update(f"{name}\0{grammar_text(name)}\0".encode())
    return digest.hexdigest()


def message_grammar() -> Grammar:
    """The message grammar as ``message_parser`` reads it (``messages.lark`` and what it
    imports), for building another parser from it: ``Lark(message_grammar(), start=...)``."""
    source, text = grammar_loader()(None, MESSAGE_GRAMMAR)
    # (Lark's function is untyped: a grammar and the files it read.)
    grammar: Grammar = load_grammar(text, source, [MessageGrammarLoader()], False)[0]
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
        import_paths=[MessageGrammarLoader()],
        start=list(MESSAGE_START_RULES),
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=True,
        transformer=message_transformer(),
        cache=grammar_cache("message") or False,
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


def first_bad_line(error: UnexpectedInput) -> int | None:
    """The first line of the record the grammar could not take (1-based), if known.

    A message that is complete but followed by a line it does not take fails on the newline
    that ends it; that newline belongs to the line before the bad one.
    """
    line = getattr(error, "line", None)
    if not isinstance(line, int) or line <= 0:
        return None
    token = getattr(error, "token", None)
    if token is not None and token.type == "_NL":
        return line + 1
    if getattr(error, "char", None) == "\n":
        return line + 1
    return line
