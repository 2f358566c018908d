"""Which terminal the grammar's lexer would start a message with, answered by the native core.

Lark's contextual lexer tries the terminals a parse state accepts in a fixed order (priority,
then longest possible match) and takes the first that matches. Lazy terminals such as
``PROFILED_SUBJECT`` (``[^\\n]+?(?= \\(<Runner>\\) profiling completed in )``) come before the
literals of most messages, so a line holding that phrase is lexed as a profiled runner line
whatever it starts with. Two questions follow, both asked of the terminals a start rule's state
tries, compiled once by the core (``trtlog._core.StartTerminals``, with each pattern widened to
match the same text or more, so that both answers err only on the safe side):

- ``LexerStarts.can_start``: can the lexer start a text at all? Lines that no message form takes
  (another program's output between TensorRT's lines) are each tried with the grammar before
  they are kept as ``Foreign``; most fail on their first character, and a failed Lark parse is
  dear (the lexer's error, the root lexer's retry for a better message, the exception).
- ``StartConflicts.clear``: would the lexer start a message with a given terminal, no terminal
  tried before it matching? The fast path may take a line only then.

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
    """A terminal as ``StartConflicts`` names it: Lark's name, a literal as "'" + its text."""
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


class StartConflicts:
    """For each terminal a hot form starts with, whether a terminal tried before it would take
    the line instead. Terminals are named as Lark names them; a literal as "'" + its text."""

    def __init__(self, lark: Lark, start: str) -> None:
        self._lark = lark
        self._start = start
        # Terminal name -> its place in the lexer's order (the first, for a name listed twice),
        # and the terminals compiled: both when first asked.
        self._places: dict[str, int] = {}
        self._terminals: _core.StartTerminals | None = None

    def clear(self, terminal: str, body: str) -> bool:
        """True when the lexer would start ``body`` with nothing tried before ``terminal``."""
        terminals = self._terminals
        if terminals is None:
            terminals = self._compile()
        place = self._places.get(terminal)
        if place is None:
            # Not a terminal this start state knows: never take the fast path.
            return False
        first = terminals.first_match(body)
        return first is None or first >= place

    def _compile(self) -> _core.StartTerminals:
        for place, definition in enumerate(start_state_terminals(self._lark, self._start)):
            self._places.setdefault(terminal_name(definition), place)
        self._terminals = shared_lexer_starts(self._lark).terminals(self._start)
        return self._terminals


__all__ = [
    "LexerStarts",
    "StartConflicts",
    "shared_lexer_starts",
    "start_state_terminals",
    "terminal_name",
]
