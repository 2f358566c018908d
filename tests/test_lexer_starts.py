"""``LexerStarts`` (answered by the native core) may say "cannot start" only where the grammar
fails on the first character: checked with Lark itself on the message bodies of every corpus and
sample log and on generated texts, for every start rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from tests.conftest import CORPUS_LOGS, SAMPLES, examples, needs_corpus
from trtlog.parse.envelope_grammar import split_envelope
from trtlog.parse.grammar import MESSAGE_START_RULES, message_parser
from trtlog.parse.lexer_starts import LexerStarts
from trtlog.parse.reader import numbered_segments, open_log

LARK = message_parser()
STARTS = LexerStarts(LARK)
# Distinct bodies read per log: enough for every form a log holds, few enough to parse each
# with Lark four times.
BODIES_PER_LOG = 3000


def fails_at_first_character(start: str, text: str) -> bool:
    try:
        LARK.parse(text, start=start)
    except UnexpectedInput as error:
        return error.pos_in_stream == 0
    return False


def assert_sound(text: str) -> None:
    for start in MESSAGE_START_RULES:
        if not STARTS.can_start(start, text):
            assert fails_at_first_character(start, text), (start, text)


def bodies(path: Path) -> list[str]:
    found: dict[str, None] = {}
    with open_log(path) as stream:
        for _, segment in numbered_segments(stream):
            found.setdefault(split_envelope(segment)[1], None)
            found.setdefault(segment, None)
            if len(found) >= BODIES_PER_LOG:
                break
    return list(found)


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize(
    "path", sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS, ids=lambda path: path.name
)
def test_no_corpus_text_the_grammar_can_start_is_refused(path: Path) -> None:
    for text in bodies(path):
        assert_sound(text)


@settings(max_examples=examples(2000), deadline=None)
@given(
    st.text(alphabet=st.sampled_from(" \t\n[]()<>:=-*.,0123456789xabcTNVIWE_+/#!&|"), max_size=40)
)
@example("    0x55ddd05d3460[enqueue]")
@example("\nTactic: 0x1 Time: 0.1")
def test_generated_texts_are_refused_only_where_the_grammar_fails(text: str) -> None:
    assert_sound(text)


def test_a_foreign_line_is_refused_and_a_message_is_not() -> None:
    assert not STARTS.can_start("message", "    0x55ddd05d3460[enqueue]")
    assert STARTS.can_start("message", "Tactic: 0x0000000000000000 Time: 0.00314842")


def test_a_record_whose_first_line_ends_a_terminal_may_start() -> None:
    # The ONNX importer's banner, 64 dashes to the end of its line, over the line after it: the
    # terminal ends before the newline, not at the end of the text.
    banner = "-" * 64
    text = f"{banner}\nInput filename:   model.onnx"
    assert STARTS.can_start("message", text)
    assert not fails_at_first_character("message", text)


def _group_end(pattern: str, start: int) -> int:
    """Where the group opening at ``start`` closes (escapes and classes skipped)."""
    depth, index, in_class = 0, start, False
    while index < len(pattern):
        character = pattern[index]
        if character == "\\":
            index += 2
            continue
        if in_class:
            in_class = character != "]"
        elif character == "[":
            in_class = True
        elif character in "()":
            depth += 1 if character == "(" else -1
            if depth == 0:
                return index + 1
        index += 1
    raise ValueError(f"unbalanced group in {pattern!r}")


def test_every_lookahead_of_a_terminal_closes_it() -> None:
    # The core widens a terminal by reading "X(?=L)" as "X(?:L)": the same text or more only
    # where nothing follows the lookahead ("(?=[^\n]*@)[@ ]{28}" would become narrower).
    for terminal in LARK.terminals:
        pattern, start = terminal.pattern.to_regexp(), 0
        while (found := pattern.find("(?=", start)) >= 0:
            rest = pattern[_group_end(pattern, found) :]
            assert not rest.strip(")"), (terminal.name, pattern)
            start = found + 3
