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

from trtlog.parse.containment import may_contain
from trtlog.parse.regex_prefix import may_match_at_start, sre_parse, within_lines

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

    def clear_all(
        self, terminal: str, starts: tuple[str, ...], bodies: str, line_pattern: str = ""
    ) -> bool:
        """``clear`` for each of ``bodies`` (joined by "\\n"), which all start with one of
        ``starts``; False may also mean "ask line by line". With a ``line_pattern``, the answer
        holds for bodies that each match it in full (the caller checks that)."""
        check = self._checks.get(terminal)
        if check is None:
            check = self._checks[terminal] = self._check_for(terminal)
        return check.clear_all(starts, bodies, line_pattern)

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
        # Per lookahead, whether its matches stay within lines: a run of lines is then searched
        # as one text, not line by line (``_found_past_line_starts``).
        self._in_lines = tuple(within_lines(after.pattern) for _literal, after in lookaheads)
        # Per ``starts`` of ``clear_all``: whether no earlier literal can take such a body, and
        # the other terminals that may match one (``_AtStart``).
        self._for_starts: dict[tuple[str, ...], tuple[bool, _AtStart]] = {}
        # Per line pattern of ``clear_all``: the lookaheads (with whether they stay within
        # lines) whose literal a line matching it may hold; the others cannot occur there.
        self._for_lines: dict[str, tuple[tuple[str | None, re.Pattern[str], bool], ...]] = {}

    def __call__(self, body: str) -> bool:
        if self.prefixes and body.startswith(self.prefixes):
            return False
        for literal, after in self.lookaheads:
            if (literal is None or literal in body) and after.search(body, 1):
                return False
        return self.at_start is None or self.at_start.match(body) is None

    def clear_all(self, starts: tuple[str, ...], bodies: str, line_pattern: str = "") -> bool:
        """``__call__`` for every line of ``bodies`` (bodies joined by "\\n"), each of which
        starts with one of ``starts`` (and matches ``line_pattern`` in full, when given): True
        only when it is True for each of them. It may say False where checking line by line
        would not (the caller then does so)."""
        known = self._for_starts.get(starts)
        if known is None:
            known = self._for_starts[starts] = self._check_for_starts(starts)
        starts_clear, at_start = known
        if not starts_clear or at_start.found_in(bodies):
            return False
        lookaheads = self._for_lines.get(line_pattern)
        if lookaheads is None:
            lookaheads = self._for_lines[line_pattern] = self._possible_in(line_pattern)
        for literal, after, in_lines in lookaheads:
            if literal is None:
                return False
            if literal not in bodies:
                continue
            if in_lines:
                if _found_past_line_starts(after, bodies):
                    return False
            elif any(after.search(body, 1) for body in bodies.split("\n") if literal in body):
                return False
        return True

    def _possible_in(
        self, line_pattern: str
    ) -> tuple[tuple[str | None, re.Pattern[str], bool], ...]:
        """The lookaheads a line matching ``line_pattern`` in full may set off: a literal the
        lookahead needs that no such line can hold rules it out (``may_contain``)."""
        return tuple(
            (literal, after, in_lines)
            for (literal, after), in_lines in zip(self.lookaheads, self._in_lines, strict=True)
            if not line_pattern
            or literal is None
            or "\n" in literal
            or may_contain(line_pattern, literal)
        )

    def _check_for_starts(self, starts: tuple[str, ...]) -> tuple[bool, _AtStart]:
        # No body starting with one of ``starts`` can be taken by an earlier literal.
        starts_clear = not any(
            prefix.startswith(start) or start.startswith(prefix)
            for prefix in self.prefixes
            for start in starts
        )
        # Nor by a terminal that cannot match after any of them.
        others = tuple(
            other
            for other in self.others
            if any(may_match_at_start(other, start) for start in starts)
        )
        return starts_clear, _AtStart(_either(others))


def _found_past_line_starts(pattern: re.Pattern[str], lines: str) -> bool:
    """Whether ``pattern`` (``within_lines``) matches in one of ``lines`` (joined by "\\n") other
    than at the line's start: what searching each line from its second character finds."""
    position = 0
    while (match := pattern.search(lines, position)) is not None:
        start = match.start()
        if start > 0 and lines[start - 1] != "\n":
            return True
        # At a line's start: that line is searched whole only when it is empty (``search``
        # starts an empty string's search at 0, not past its end).
        if start == len(lines) or lines[start] == "\n":
            return True
        position = start + 1
    return False


def _either(regexps: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(f"(?:{regexp})" for regexp in regexps)) if regexps else None


class _AtStart:
    """Terminals that must not match at the start of any line of a text."""

    def __init__(self, pattern: re.Pattern[str] | None) -> None:
        self.pattern = pattern
        # The pattern after any newline of a text, where that is the same as at the start of
        # each line on its own (searching for a newline first is much faster than for "^").
        self._after_newline = (
            re.compile(f"\n(?:{pattern.pattern})", pattern.flags)
            if pattern is not None and _same_at_line_start(pattern.pattern)
            else None
        )

    def found_in(self, lines: str) -> bool:
        """Whether a terminal matches at the start of one of ``lines`` (joined by "\\n")."""
        if self._after_newline is not None:
            return self._after_newline.search("\n" + lines) is not None
        if self.pattern is None:
            return False
        return any(map(self.pattern.match, lines.split("\n")))


# Anchors whose meaning changes when a line is matched inside a text rather than on its own.
_LINE_ANCHORS = frozenset(
    {"AT_BEGINNING", "AT_BEGINNING_LINE", "AT_BEGINNING_STRING", "AT_END", "AT_END_LINE",
     "AT_END_STRING"}
)  # fmt: skip


def _same_at_line_start(regexp: str) -> bool:
    """Whether ``regexp`` matches at the start of a line of a text wherever it matches at the
    start of that line on its own (it may match more: past the line's end). Anchors,
    lookbehinds and negative lookaheads make the difference; \\b does not."""
    try:
        return not _anchored(list(sre_parse.parse(regexp)))
    except (re.error, TypeError, ValueError):
        return False


def _anchored(items: list[Any]) -> bool:
    for op, value in items:
        name = str(op)
        if name == "AT" and str(value) in _LINE_ANCHORS:
            return True
        if name in ("ASSERT", "ASSERT_NOT"):
            direction, pattern = value
            if direction < 0 or _anchored(list(pattern)):
                return True
            # A negative lookahead at a line's end sees nothing on its own and "\n..." in a
            # text: only "(?![^\n])" (the end of the line) is the same in both.
            if name == "ASSERT_NOT" and [(str(op), arg) for op, arg in pattern] != [
                ("NOT_LITERAL", 10)
            ]:
                return True
        elif name == "SUBPATTERN":
            if _anchored(list(value[-1])):
                return True
        elif name == "BRANCH":
            if any(_anchored(list(branch)) for branch in value[1]):
                return True
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if _anchored(list(value[2])):
                return True
        elif name in ("ATOMIC_GROUP",):
            if _anchored(list(value)):
                return True
        elif name == "GROUPREF_EXISTS":
            return True
    return False


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
