"""``may_contain`` never says False of a literal that some text the expression matches holds,
and says it of the phrases a hot form's lines cannot hold (so that the block scanner need not
search for them)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.test_regex_prefix import ATOMS, _regexps_of
from trtlog.parse.blocks import _MYELIN_LINE, _NAMED_LINE, _PLAIN_LINE
from trtlog.parse.containment import _literal_steps, may_contain
from trtlog.parse.grammar import message_parser
from trtlog.parse.lexer_order import StartConflicts


def _regexps() -> st.SearchStrategy[str]:
    return _regexps_of(
        ATOMS,
        ["*", "+", "?", "{2}", "{1,3}", "*?", "+?", "{0}"],
        ["(?={})", "(?!{})", "({})", r"{}\b", "^{}$", "(?i:{})", r"({})\1"],
        max_leaves=8,
    ).filter(_compiles)


def _compiles(regexp: str) -> bool:
    try:
        re.compile(regexp)
    except re.error:
        return False
    return True


# The longest text matched. Hypothesis makes texts for an expression with a lookaround without
# it, then keeps those the whole expression matches; matching a long text with nested repeats
# inside a lookaround can backtrack for hours. The length is checked first, at the start of
# the expression it matches the texts with.
_LONGEST_TEXT = 20


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_regexps(), st.data())
def test_never_false_where_a_match_holds_the_literal(regexp: str, data: st.DataObject) -> None:
    short = re.compile(rf"(?=[\s\S]{{0,{_LONGEST_TEXT}}}\Z)(?:{regexp})")
    text = data.draw(st.from_regex(short, fullmatch=True))
    start = data.draw(st.integers(0, len(text)))
    literal = text[start : data.draw(st.integers(start, len(text)))]
    assert may_contain(regexp, literal) or not literal


@settings(max_examples=500, deadline=None)
@given(st.text("ab", min_size=1, max_size=6), st.text("abc", max_size=12))
@example("aab", "aaab")  # a partial match that fails goes on from its longest border
@example("abab", "abababb")
def test_the_literal_steps_find_the_literal_in_a_text(literal: str, text: str) -> None:
    step, matched, found = _literal_steps(literal), 0, False
    for char in text:
        matched = step(matched, char if char in literal else "")
        if matched == len(literal):
            found, matched = True, 0
    assert found == (literal in text)


@pytest.mark.parametrize(
    ("regexp", "literal", "expected"),
    [
        ("ab*c", "bbb", True),
        ("ab{2}c", "abbc", True),
        ("a(?:xy|z)b", "yb", True),
        ("a(?:xy|z)b", "zy", False),
        ("x(?:aab)+y", "baaba", True),  # across repeats
        ("x(?:aab)+y", "bab", False),
        (r"\d+ ms", " [", False),
        (r"[^\s]+ ms", "x ms", True),
        (r"(\w)\1 ms", "a ms", True),  # a back reference may be anything
        ("(?i:ab)", "AB", True),  # flags are not modelled
        (r"a(?=b c)b", "b c", False),  # a lookahead only narrows what matches
    ],
)
def test_examples(regexp: str, literal: str, expected: bool) -> None:
    assert may_contain(regexp, literal) is expected


def _lazy_phrases() -> list[str]:
    """The literals of the lazy terminals the lexer tries before a tactic line's own."""
    conflicts = StartConflicts(message_parser(), "message")
    conflicts.clear("_TACTIC_KEYWORD", "Tactic: 0x1 Time: 1")
    check = conflicts._checks["_TACTIC_KEYWORD"]
    return [literal for literal, _after in check.lookaheads if literal is not None]


def test_tactic_lines_cannot_hold_the_phrases_of_earlier_terminals() -> None:
    phrases = _lazy_phrases()
    assert " [" in phrases and ") profiling completed in " in phrases
    for phrase in phrases:
        assert not may_contain(_PLAIN_LINE.pattern, phrase), phrase
    # A kernel name is any word: "Tactic Name: broadcasting Tactic: ..." holds ": broadcasting ".
    named = [phrase for phrase in phrases if may_contain(_NAMED_LINE.pattern, phrase)]
    assert named == [": broadcasting "]
    assert re.fullmatch(_NAMED_LINE, "Tactic Name: broadcasting Tactic: 0x1 Time: 1")
    # A Myelin trace line may hold any text.
    assert all(may_contain(_MYELIN_LINE.pattern, phrase) for phrase in phrases)
