"""Whether the grammar's lexer can start a text at all.

Lines that no message form takes (another program's output between TensorRT's lines: a plugin's
debug prints, a script's progress) are each tried with the grammar before they are kept as
``Foreign``. Most fail on their first character, and a failed Lark parse is dear (the lexer's
error, then the root lexer's retry for a better message, then the exception). The contextual
lexer starts a parse with the terminals its start state accepts; when none of them matches at
the text's start, the parse fails there, whatever follows. One regular expression of those
terminals answers that first.
"""

from __future__ import annotations

import re
from functools import cache

from lark import Lark

from trtlog.parse.lexer_order import start_state_terminals


class StartTerminals:
    """Per start rule, an expression matching where one of its first terminals matches."""

    def __init__(self, lark: Lark) -> None:
        self._lark = lark
        self._patterns: dict[str, re.Pattern[str]] = {}

    def can_start(self, start: str, text: str) -> bool:
        """False only when the grammar's lexer cannot take the first token of ``text`` for
        ``start`` (the parse would fail at its first character)."""
        pattern = self._patterns.get(start)
        if pattern is None:
            pattern = self._patterns[start] = self._pattern(start)
        return pattern.match(text) is not None

    def _pattern(self, start: str) -> re.Pattern[str]:
        terminals = start_state_terminals(self._lark, start)
        alternatives = "|".join(f"(?:{terminal.pattern.to_regexp()})" for terminal in terminals)
        # No terminal at all: nothing can start, as the lexer would find.
        return re.compile(alternatives or "(?!)", self._lark.options.g_regex_flags)


@cache
def shared_start_terminals(lark: Lark) -> StartTerminals:
    """The start terminals of a grammar, worked out once per process."""
    return StartTerminals(lark)


__all__ = ["StartTerminals", "shared_start_terminals"]
