"""``may_match_at_start`` never says False where a match exists, and says it where the run's
lines start with a literal that the terminals tried before theirs cannot follow;
``within_lines`` never says True of an expression whose search of a run of lines differs from
searching each line."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from trtlog.parse.lexer_order import _found_past_line_starts
from trtlog.parse.regex_prefix import may_match_at_start, parse_tree, within_lines

ALPHABET = "ab (1_"
ATOMS = ["a", "b", " ", r"\(", "1", "_", "[ab]", "[^a]", r"\d", r"\w", r"\W", r"\s", "."]


def _regexps_of(
    atoms: list[str], repeats: list[str], wrappers: list[str], max_leaves: int
) -> st.SearchStrategy[str]:
    """Expressions built from ``atoms`` by concatenation, alternation, ``repeats`` and
    ``wrappers`` (format strings around one expression, "{}" standing for it)."""

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda pair: f"(?:{pair[0]}|{pair[1]})"),
            st.tuples(inner, st.sampled_from(repeats)).map(lambda pair: f"(?:{pair[0]}){pair[1]}"),
            *(inner.map(wrapper.format) for wrapper in wrappers),
        )

    return st.recursive(st.sampled_from(atoms), extend, max_leaves=max_leaves)


def _regexps() -> st.SearchStrategy[str]:
    return _regexps_of(
        ATOMS,
        ["*", "+", "?", "{2}", "{1,3}", "*?", "+?"],
        ["(?={})", "(?!{})", "({})", r"{}\b", "{}$", "(?i:{})"],
        max_leaves=8,
    )


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


LINE_ATOMS = [*ATOMS, r"\n", r"[^\n]", r"[^a]", r"\S", r"\D", "^", r"\A", r"\Z", "(?s:.)"]


def _line_regexps() -> st.SearchStrategy[str]:
    return _regexps_of(
        LINE_ATOMS,
        ["*", "+", "?", "{2}", "*?"],
        ["(?={})", "(?<!a){}", r"{}\b", "{}$", "(a){}\\1"],
        max_leaves=6,
    )


@settings(max_examples=3000, deadline=None)
@given(_line_regexps(), st.lists(st.text(ALPHABET, max_size=6), min_size=1, max_size=4))
# Empty lines: searching one "from its second character" searches it from 0.
@example("(?:a)*", [""])
@example("(?:a)*", ["ab", "", "b"])
@example("(?:a)*", ["ab", "b", ""])
@example("b", ["ab", "b"])
def test_within_lines_means_one_search_of_the_lines_is_a_search_of_each(
    regexp: str, lines: list[str]
) -> None:
    # What ``StartConflicts`` relies on: a match anywhere but at a line's start.
    if within_lines(regexp):
        pattern = re.compile(regexp)
        each = any(pattern.search(line, 1) for line in lines)
        assert _found_past_line_starts(pattern, "\n".join(lines)) == each


@pytest.mark.parametrize(
    ("regexp", "expected"),
    [
        # The lazy subjects' lookaheads of the grammar (``PROFILED_SUBJECT``, ``CACHED_SUBJECT``).
        (r" \([A-Za-z][\w]*(\[0x[0-9a-fA-F]+\])?\) profiling completed in ", True),
        (r" \[[^\n]*\] got cached result: ", True),
        (r": \d+ available tactics, \b", True),
        # A newline, a class or category holding one, "." under DOTALL, anchors, lookarounds.
        (r"a\nb", False),
        (r"a[^b]c", False),
        (r"a\sb", False),
        (r"(?s)a.b", False),
        (r"a$", False),
        (r"(?=a)b", False),
        (r"(?<=a)b", False),
        (r"(a)\1", False),
    ],
)
def test_within_lines_examples(regexp: str, expected: bool) -> None:
    assert within_lines(regexp) is expected


def test_an_expression_is_parsed_once_and_shared_unchangeable() -> None:
    # The lexer-order checks ask about each terminal once per prefix: its parse is kept.
    regexp = r"Tactic: 0x[0-9a-f]+ Time: [0-9.]+(?:\s+\w+)?"
    first = parse_tree(regexp)
    assert first is not None and first is parse_tree(regexp)
    assert isinstance(first, tuple)
    # Answers after the cached parse are those of a fresh one.
    assert not may_match_at_start(regexp, "Time: ")
    assert may_match_at_start(regexp, "Tactic: 0x1f")
    assert not may_match_at_start(regexp, "Tactic: 0xg")
