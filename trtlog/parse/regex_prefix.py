"""Whether a regular expression may match at the start of a text that starts with a given prefix.

``StartConflicts`` checks a run of tactic lines against every terminal the grammar's lexer
tries before the run's own; the run's lines all start with one known literal ("Tactic Name: "),
which most of those terminals cannot match after ("Applying generic optimizations...", a layer
name followed by " (<Runner>)"). Deciding that once, from the expression's parse tree, spares
searching each run for them. The answer errs one way only: False means no match is possible;
True may mean "not simple to tell" (flags, back references, unknown classes).

``within_lines`` answers a second question for the same checks: whether an expression's matches
in a text of many lines are exactly its matches in each line on its own, so that one search of
the whole run stands for a search of each of its lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

try:  # Python 3.11 and later
    import re._parser as sre_parse  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse

# The character classes of sre's CATEGORY items, as expressions that test one character.
_CATEGORIES = {
    "CATEGORY_DIGIT": re.compile(r"\d"),
    "CATEGORY_NOT_DIGIT": re.compile(r"\D"),
    "CATEGORY_SPACE": re.compile(r"\s"),
    "CATEGORY_NOT_SPACE": re.compile(r"\S"),
    "CATEGORY_WORD": re.compile(r"\w"),
    "CATEGORY_NOT_WORD": re.compile(r"\W"),
}
REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


# The lexer-order checks ask about the same few terminals for each of many prefixes (a first
# parse of a typical corpus log parsed 8 expressions 161 times).
@lru_cache(maxsize=512)
def parse_tree(regexp: str) -> tuple[Any, ...] | None:
    """The items of ``regexp``'s parse tree; None when it cannot be parsed or its flags change
    what its items mean (case, verbose). Shared between callers: read, never changed."""
    try:
        parsed = sre_parse.parse(regexp)
    except (re.error, TypeError, ValueError):
        return None
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    return tuple(parsed)


def may_match_at_start(regexp: str, prefix: str) -> bool:
    """False only when no match of ``regexp`` can begin a text that starts with ``prefix``."""
    items = parse_tree(regexp)
    if items is None:
        return True
    try:
        return bool(_Walk(prefix).advance(items, {0}))
    except (TypeError, ValueError, IndexError):
        return True


class _Walk:
    """Follows a parse tree along ``prefix``: the set of places in it a match may have reached;
    ``len(prefix)`` stands for "past the prefix", where anything may follow."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.end = len(prefix)

    def advance(self, items: Sequence[Any], places: set[int]) -> set[int]:
        for op, value in items:
            if not places:
                break
            places = self._item(str(op), value, places)
        return places

    def _rest(self, places: set[int]) -> set[int]:
        """Anything from the first of ``places`` on (where the walk cannot tell)."""
        return set(range(min(places), self.end + 1)) if places else places

    def _step(self, places: set[int], accepts: Callable[[str], bool | None]) -> set[int]:
        reached = set()
        for place in places:
            if place == self.end:
                reached.add(place)
            elif accepts(self.prefix[place]) is not False:
                reached.add(place + 1)
        return reached

    def _item(self, name: str, value: Any, places: set[int]) -> set[int]:
        if name == "LITERAL":
            return self._step(places, lambda char: char == chr(value))
        if name == "NOT_LITERAL":
            return self._step(places, lambda char: char != chr(value))
        if name == "ANY":
            return self._step(places, lambda char: char != "\n")
        if name == "IN":
            return self._step(places, lambda char: in_class(value, char))
        if name == "SUBPATTERN":
            _group, add_flags, del_flags, inner = value
            if add_flags or del_flags:
                return self._rest(places)
            return self.advance(list(inner), places)
        if name == "BRANCH":
            return set().union(*(self.advance(list(branch), places) for branch in value[1]))
        if name in REPEATS:
            return self._repeat(value, places)
        if name == "ASSERT":
            direction, inner = value
            if direction < 0:
                return places
            return {place for place in places if self.advance(list(inner), {place})}
        if name in ("AT", "ASSERT_NOT"):
            return places
        if name == "ATOMIC_GROUP":
            return self.advance(list(value), places)
        return self._rest(places)

    def _repeat(self, value: Any, places: set[int]) -> set[int]:
        low, high, inner = value
        reached = set(places) if low == 0 else set()
        current, count = places, 0
        # Places only move forward and there are end + 1 of them: past low repeats, stop when
        # nothing new is reached.
        while current and count < high:
            current = self.advance(list(inner), current)
            count += 1
            if count >= low:
                if current <= reached:
                    break
                reached |= current
            if count > low + self.end + 1:
                return self._rest(places)
        return reached


def in_class(items: Any, char: str) -> bool | None:
    """Whether ``char`` is in a character class (None: not simple to tell)."""
    negate, found = False, False
    for op, value in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            found = found or char == chr(value)
        elif name == "RANGE":
            found = found or value[0] <= ord(char) <= value[1]
        elif name == "CATEGORY" and str(value) in _CATEGORIES:
            found = found or _CATEGORIES[str(value)].match(char) is not None
        else:
            return None
    return found != negate


def within_lines(regexp: str) -> bool:
    """True only when no match of ``regexp`` can hold a newline and nothing in it looks past
    the text it matches (anchors, lookarounds, back references): searching a text of lines
    then finds a match where, and only where, searching a line on its own finds one. Flags
    other than the defaults answer False (``.`` matches a newline under DOTALL)."""
    try:
        parsed = sre_parse.parse(regexp)
    except (re.error, TypeError, ValueError):
        return False
    if parsed.state.flags & ~re.UNICODE:
        return False
    return _newline_free(list(parsed))


# Boundaries are the same at a line's ends in a text as at the ends of the line on its own.
_SAME_IN_LINES = frozenset({"AT_BOUNDARY", "AT_NON_BOUNDARY"})


def _newline_free(items: Sequence[Any]) -> bool:
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            if value == ord("\n"):
                return False
        elif name == "NOT_LITERAL":
            if value != ord("\n"):
                return False
        elif name == "ANY":
            continue
        elif name == "IN":
            if in_class(value, "\n") is not False:
                return False
        elif name == "AT":
            if str(value) not in _SAME_IN_LINES:
                return False
        elif name == "SUBPATTERN":
            _group, add_flags, del_flags, inner = value
            if add_flags or del_flags or not _newline_free(list(inner)):
                return False
        elif name == "BRANCH":
            if not all(_newline_free(list(branch)) for branch in value[1]):
                return False
        elif name in REPEATS:
            if not _newline_free(list(value[2])):
                return False
        elif name == "ATOMIC_GROUP":
            if not _newline_free(list(value)):
                return False
        else:
            return False
    return True


__all__ = ["REPEATS", "in_class", "may_match_at_start", "parse_tree", "sre_parse", "within_lines"]
