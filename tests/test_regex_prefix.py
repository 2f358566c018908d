"""``may_match_at_start`` never says False where a match exists, and says it where the run's
lines start with a literal that the terminals tried before theirs cannot follow."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trtlog.parse.regex_prefix import may_match_at_start

ALPHABET = "ab (1_"
ATOMS = ["a", "b", " ", r"\(", "1", "_", "[ab]", "[^a]", r"\d", r"\w", r"\W", r"\s", "."]


def _regexps() -> st.SearchStrategy[str]:
    atom = st.sampled_from(ATOMS)

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda pair: f"(?:{pair[0]}|{pair[1]})"),
            st.tuples(inner, st.sampled_from(["*", "+", "?", "{2}", "{1,3}", "*?", "+?"])).map(
                lambda pair: f"(?:{pair[0]}){pair[1]}"
            ),
            inner.map(lambda text: f"(?={text})"),
            inner.map(lambda text: f"(?!{text})"),
            inner.map(lambda text: f"({text})"),
            inner.map(lambda text: rf"{text}\b"),
            inner.map(lambda text: f"{text}$"),
            inner.map(lambda text: f"(?i:{text})"),
        )

    return st.recursive(atom, extend, max_leaves=8)


@settings(max_examples=1500, deadline=None)
@given(_regexps(), st.text(ALPHABET, max_size=5), st.text(ALPHABET, max_size=5))
def test_never_false_where_a_match_exists(regexp: str, prefix: str, rest: str) -> None:
    if re.match(regexp, prefix + rest):
        assert may_match_at_start(regexp, prefix)


@pytest.mark.parametrize(
    ("regexp", "prefix", "expected"),
    [
        # Literal phrases of other messages, and a layer name followed by its runner.
        (r"Applying generic optimizations|Loading standard plugins", "Tactic Name: ", False),
        (r"[A-Za-z][\w]*(?= \([A-Za-z]+\))", "Tactic Name: ", False),
        (r"[A-Za-z][\w]*(?= \([A-Za-z]+\))", "Tactic (Cask)", True),
        # A match shorter than the prefix, and one that runs past it.
        ("Tac", "Tactic Name: ", True),
        (r"T\w+ N\w+: \S+ Tactic", "Tactic Name: ", True),
        (r"\d+", "Tactic: 0x1", False),
        # Not simple to tell: case-insensitive, a back reference.
        ("(?i)applying", "Tactic Name: ", True),
        (r"(T)\1", "Tactic Name: ", True),
    ],
)
def test_examples(regexp: str, prefix: str, expected: bool) -> None:
    assert may_match_at_start(regexp, prefix) is expected
