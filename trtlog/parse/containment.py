"""Whether any text a regular expression matches can contain a given literal.

The block scanner (``trtlog.parse.blocks``) takes a run of tactic lines only when every line
matches the fast path's expression for its form in full, and when the grammar's lexer would
start no line with a lazy terminal tried earlier: ``PROFILED_SUBJECT`` and its kind, which take
a line holding " (<Runner>) profiling completed in ", " [<tensor>] inputs:" and so on wherever
the phrase stands (``trtlog.parse.lexer_order``). Searching every run for seven such phrases
took a fifth of the time spent making blocks of a 10.x log's runs. But "Tactic: <id> Time:
<number>" cannot hold " [" or " completed in " at all, whatever id and number it carries:
proving that once per form and phrase, from the two expressions, spares the searches.

The proof follows every path through the expression's parse tree while matching the literal
along it (the Knuth-Morris-Pratt automaton of the literal over the expression's automaton), so
it holds for every text the expression matches. It errs one way only: constructs it does not
model (back references, unknown classes, flags) are taken to match anything, and bounded
repeats to repeat without bound, so False means "no match can contain the literal"; True may
mean "not simple to tell".
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from trtlog.parse.regex_prefix import REPEATS, in_class, parse_tree

# Any character that is not in the literal: reading one puts the search back at its start.
_OTHER = ""


@cache
def may_contain(regexp: str, literal: str) -> bool:
    """False only when no text ``regexp`` matches (any text it can match any part of) contains
    ``literal``."""
    items = parse_tree(regexp)
    if not literal or items is None:
        return True
    automaton = _Automaton(frozenset(literal))
    try:
        automaton.add(items, 0)
    except (TypeError, ValueError, IndexError):
        return True
    return automaton.reaches(literal)


class _Automaton:
    """A Thompson automaton of an expression over the literal's characters and ``_OTHER``:
    ``moves[state]`` lists (characters read, or None for no character; next state)."""

    def __init__(self, chars: frozenset[str]) -> None:
        self.chars = chars
        self.everything = frozenset({*chars, _OTHER})
        self.moves: list[list[tuple[frozenset[str] | None, int]]] = [[]]

    def _state(self) -> int:
        self.moves.append([])
        return len(self.moves) - 1

    def _read(self, start: int, chars: frozenset[str]) -> int:
        end = self._state()
        # Any class may hold a character outside the literal: reading one only restarts the
        # search, so allowing it where it cannot occur loses nothing.
        self.moves[start].append((chars | {_OTHER}, end))
        return end

    def _anything(self, start: int) -> int:
        """Any text at all, for what is not modelled."""
        end = self._state()
        self.moves[start].append((None, end))
        self.moves[end].append((self.everything, end))
        return end

    def add(self, items: Sequence[Any], start: int) -> int:
        """The items in sequence from ``start``; the state they end in."""
        for op, value in items:
            start = self._item(str(op), value, start)
        return start

    def _item(self, name: str, value: Any, start: int) -> int:
        if name == "LITERAL":
            return self._read(start, frozenset({chr(value)}) & self.chars)
        if name == "NOT_LITERAL":
            return self._read(start, self.chars - {chr(value)})
        if name == "ANY":
            return self._read(start, self.chars)
        if name == "IN":
            # A class too intricate to tell (None) may hold the character.
            chars = {char for char in self.chars if in_class(value, char) is not False}
            return self._read(start, frozenset(chars))
        if name == "SUBPATTERN":
            _group, add_flags, del_flags, inner = value
            if add_flags or del_flags:
                return self._anything(start)
            return self.add(list(inner), start)
        if name == "BRANCH":
            end = self._state()
            for branch in value[1]:
                self.moves[self.add(list(branch), start)].append((None, end))
            return end
        if name in REPEATS:
            low, high, inner = value
            if high == 0:
                return start
            if low == 0 and high == 1:
                end = self._state()
                self.moves[start].append((None, end))
                self.moves[self.add(list(inner), start)].append((None, end))
                return end
            if low > 0:
                start = self.add(list(inner), start)
            if high == 1:
                return start
            # Any number of further repeats: a loop back to where they start.
            self.moves[self.add(list(inner), start)].append((None, start))
            return start
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            # Lookarounds and anchors only narrow what matches.
            return start
        if name == "ATOMIC_GROUP":
            return self.add(list(value), start)
        return self._anything(start)

    def reaches(self, literal: str) -> bool:
        """Whether some path from the first state reads ``literal`` along it."""
        step = _literal_steps(literal)
        seen = {(0, 0)}
        pending = [(0, 0)]
        while pending:
            state, matched = pending.pop()
            for chars, target in self.moves[state]:
                following = (
                    [(target, matched)]
                    if chars is None
                    else [(target, step(matched, char)) for char in chars]
                )
                for place in following:
                    if place[1] == len(literal):
                        return True
                    if place not in seen:
                        seen.add(place)
                        pending.append(place)
        return False


def _literal_steps(literal: str) -> Any:
    """The Knuth-Morris-Pratt step: how much of ``literal`` has been read after reading
    ``char`` with ``matched`` characters of it read."""
    fallback = [0] * (len(literal) + 1)
    for index in range(1, len(literal)):
        back = fallback[index]
        while back and literal[index] != literal[back]:
            back = fallback[back]
        fallback[index + 1] = back + 1 if literal[index] == literal[back] else 0

    def step(matched: int, char: str) -> int:
        if char == _OTHER:
            return 0
        while matched and literal[matched] != char:
            matched = fallback[matched]
        return matched + 1 if literal[matched] == char else 0

    return step


__all__ = ["may_contain"]
