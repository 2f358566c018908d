"""Which terminal the grammar's lexer would start a message with.

Lark's contextual lexer tries the terminals a parse state accepts in a fixed order (priority,
then longest possible match) and takes the first that matches. Lazy terminals such as
``PROFILED_SUBJECT`` (``[^\\n]+?(?= \\(<Runner>\\) profiling completed in )``) come before the
literals of most messages, so a line holding that phrase is lexed as a profiled runner line
whatever it starts with. The fast path may take a line only when no terminal tried before the
one its form starts with would match: ``StartConflicts`` answers that, from the parser itself,
cheaply enough to ask for every line.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Lark

# The parse trees of Python's own ``re`` module.
try:  # Python 3.11 and later
    import re._parser as sre_parse  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse


# A terminal "[^\n]+?(?=X)" matches at the start of a line exactly when X occurs after it.
_LAZY_SUBJECT = "[^\n]+?(?="
# A lookahead with a literal at least this long is first looked for with ``in``.
_PREFILTER_LENGTH = 2


class StartConflicts:
    """For each terminal a hot form starts with, whether a terminal tried before it would take
    the line instead. Terminals are named as Lark names them; a literal as "'" + its text."""

    def __init__(self, lark: Lark, start: str) -> None:
        self._order = start_state_terminals(lark, start)
        self._names = [_name(definition) for definition in self._order]
        self._checks: dict[str, _Check] = {}

    def clear(self, terminal: str, body: str) -> bool:
        """True when the lexer would start ``body`` with nothing tried before ``terminal``."""
        check = self._checks.get(terminal)
        if check is None:
            check = self._checks[terminal] = self._check_for(terminal)
        return check(body)

    def _check_for(self, terminal: str) -> _Check:
        if terminal not in self._names:
            # Not a terminal this start state knows: never take the fast path.
            return _Check(("",), (), ())
        index = self._names.index(terminal)
        own = self._order[index].pattern
        literal = str(own.value) if own.type == "str" else None
        firsts = _first_chars(own.to_regexp())
        prefixes: list[str] = []
        lookaheads: list[tuple[str | None, re.Pattern[str]]] = []
        others: list[str] = []
        for definition in self._order[:index]:
            pattern = definition.pattern
            if pattern.type == "str":
                value = str(pattern.value)
                # Only a literal that agrees with ours as far as both go can match our lines.
                if literal is None or value.startswith(literal) or literal.startswith(value):
                    prefixes.append(value)
                continue
            regexp = pattern.to_regexp()
            if regexp.startswith(_LAZY_SUBJECT) and regexp.endswith(")"):
                after = regexp[len(_LAZY_SUBJECT) : -1]
                lookaheads.append((_required_literal(after), re.compile(after)))
                continue
            theirs = _first_chars(regexp)
            if firsts is None or theirs is None or firsts & theirs:
                others.append(regexp)
        return _Check(tuple(prefixes), tuple(lookaheads), tuple(others))


def start_state_terminals(lark: Lark, start: str) -> list[Any]:
    """The terminals the contextual lexer tries at the start of ``start``, in its order."""
    frontend = lark.parser
    state = frontend.parser.parser.parse_table.start_states[start]
    return list(frontend.lexer.lexers[state].scanner.terminals)


def _name(definition: Any) -> str:
    pattern = definition.pattern
    return "'" + str(pattern.value) if pattern.type == "str" else str(definition.name)


class _Check:
    """What must not hold of a body for the lexer to start it with a given terminal."""

    def __init__(
        self,
        prefixes: tuple[str, ...],
        lookaheads: tuple[tuple[str | None, re.Pattern[str]], ...],
        others: tuple[str, ...],
    ) -> None:
        # Literals tried before it that the body must not start with.
        self.prefixes = prefixes
        # (a literal every match holds, or None; a lookahead) of lazy subjects tried before it.
        self.lookaheads = lookaheads
        # Other terminals tried before it that may match at the body's start.
        self.others = others
        self.at_start = _either(others)

    def __call__(self, body: str) -> bool:
        if self.prefixes and body.startswith(self.prefixes):
            return False
        for literal, after in self.lookaheads:
            if (literal is None or literal in body) and after.search(body, 1):
                return False
        return self.at_start is None or self.at_start.match(body) is None


def _either(regexps: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(f"(?:{regexp})" for regexp in regexps)) if regexps else None


def _required_literal(regexp: str) -> str | None:
    """The longest run of plain characters every match of ``regexp`` contains, if long enough
    to be worth looking for first."""
    best = run = ""
    for op, value in sre_parse.parse(regexp):
        if str(op) == "LITERAL":
            run += chr(value)
            best = max(best, run, key=len)
        else:
            run = ""
    return best if len(best) >= _PREFILTER_LENGTH else None


def _first_chars(regexp: str) -> frozenset[str] | None:
    """The characters a match of ``regexp`` can start with; None when that is not simple to
    tell (a class, a category, anything)."""
    try:
        return _firsts(list(sre_parse.parse(regexp)))
    except (re.error, TypeError, ValueError):
        return None


def _firsts(items: list[Any]) -> frozenset[str] | None:
    found: set[str] = set()
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            return frozenset(found | {chr(value)})
        if name == "AT" or name in ("ASSERT", "ASSERT_NOT"):
            continue
        if name == "IN":
            chars = _class_chars(value)
            return None if chars is None else frozenset(found | chars)
        if name == "SUBPATTERN":
            inner = _firsts(list(value[-1]))
            return None if inner is None else frozenset(found | inner)
        if name == "BRANCH":
            branches = [_firsts(list(branch)) for branch in value[1]]
            if any(branch is None for branch in branches):
                return None
            return frozenset(found.union(*branches))  # type: ignore[arg-type]
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, item = value
            inner = _firsts(list(item))
            if inner is None:
                return None
            found |= inner
            if low > 0:
                return frozenset(found)
            continue
        return None
    # The pattern may match the empty string.
    return None


def _class_chars(items: Any) -> set[str] | None:
    chars: set[str] = set()
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            chars.add(chr(value))
        elif name == "RANGE" and value[1] - value[0] < 256:
            chars.update(chr(code) for code in range(value[0], value[1] + 1))
        else:
            return None
    return chars


__all__ = ["StartConflicts", "start_state_terminals"]
