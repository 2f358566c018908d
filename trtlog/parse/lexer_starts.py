"""Where the grammar's lexer starts a message: its start terminals, read from the parser.

Lark's contextual lexer tries the terminals a parse state accepts in a fixed order (priority,
then longest possible match) and takes the first that matches. Lazy terminals such as
``PROFILED_SUBJECT`` (``[^\\n]+?(?= \\(<Runner>\\) profiling completed in )``) come before the
literals of most messages, so a line holding that phrase is lexed as a profiled runner line
whatever it starts with. The native core claims a form only where no terminal tried before the
form's first one matches (its guards, ``trtlog.parse.scanner.core_guards``, read with
``start_state_terminals``). And ``LexerStarts.can_start`` answers whether the lexer can start a
text at all, from the terminals a start rule's state tries, compiled once by the core
(``trtlog._core.StartTerminals``, each pattern widened to match the same text or more, so that
the answer errs only on the safe side): lines that no message form takes (another program's
output between TensorRT's lines) are each tried with the grammar before they are kept as
``Foreign``; most fail on their first character, and a failed Lark parse is dear (the lexer's
error, the root lexer's retry for a better message, the exception).

A start rule's terminals are compiled when a text is first asked about for it: most logs reach
few of the start rules.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from lark import Lark

from trtlog import _core


def start_state_terminals(lark: Lark, start: str) -> list[Any]:
    """The terminals the contextual lexer tries at the start of ``start``, in its order."""
    frontend = lark.parser
    state = frontend.parser.parser.parse_table.start_states[start]
    return list(frontend.lexer.lexers[state].scanner.terminals)


def terminal_name(definition: Any) -> str:
    """A terminal by Lark's name, a literal as "'" + its text (as ``core_guards`` names them)."""
    pattern = definition.pattern
    return "'" + str(pattern.value) if pattern.type == "str" else str(definition.name)


class LexerStarts:
    """Per start rule, the terminals the lexer tries at its start, compiled by the core."""

    def __init__(self, lark: Lark) -> None:
        self._lark = lark
        self._starts: dict[str, _core.StartTerminals] = {}

    def can_start(self, start: str, text: str) -> bool:
        """False only when the grammar's lexer cannot take the first token of ``text`` for
        ``start`` (the parse would fail at its first character)."""
        return self.terminals(start).may_start(text)

    def terminals(self, start: str) -> _core.StartTerminals:
        """The start state's terminals, compiled when first asked for."""
        compiled = self._starts.get(start)
        if compiled is None:
            patterns = [
                _core.widened(terminal.pattern.to_regexp())
                for terminal in start_state_terminals(self._lark, start)
            ]
            compiled = self._starts[start] = _core.StartTerminals(patterns)
        return compiled


@cache
def shared_lexer_starts(lark: Lark) -> LexerStarts:
    """The lexer's start terminals of a grammar, compiled once per process."""
    return LexerStarts(lark)


__all__ = ["LexerStarts", "shared_lexer_starts", "start_state_terminals", "terminal_name"]
