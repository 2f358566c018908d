"""The native scanning core (the Rust crate in ``core/``), built into the package by maturin."""

from collections.abc import Callable
from typing import Generic, TypeVar

_Envelope = TypeVar("_Envelope")

def widened(pattern: str) -> str:
    """A grammar terminal's Python pattern as a Rust pattern matching the same text or more."""

class Guards:
    """Per grammar rule the core claims, the patterns of the terminals Lark's lexer tries before
    the rule's first terminal; compiled once, shared by scanners."""

    def __init__(self, guards: list[tuple[str, list[str]]]) -> None: ...

class StartTerminals:
    """The terminals a start state of the grammar's lexer tries (patterns widened as by
    ``widened``), compiled once: whether the lexer can start a text at all."""

    def __init__(self, patterns: list[str]) -> None: ...
    def may_start(self, text: str) -> bool:
        """False only when no terminal matches at the start of ``text``."""

class Scanner:
    """Reads a log's bytes into pieces, in order:

    - ``(0, first_line, text)``: lines as text joined by "\\n";
    - ``(1, first_line, envelope, tactic_ids, times, kernels, parameters)``: one-line tactic
      timings; ids and times as bytes of native u64 and f64, kernels and parameters lists where
      the lines name them, else None;
    - ``(2, first_line, envelope, lines, bodies)``: one-line Myelin trace rows;
    - ``(3, first_line, envelope, records)``: one-line records, each its grammar rule and tokens;
      with an empty envelope, lines without one read as their form (a progress monitor's bars),
      each record's last token the line's text.
    """

    def __init__(self, guards: Guards, first_line: int = 1) -> None: ...
    def feed(self, data: bytes) -> list[tuple[object, ...]]:
        """Hands ``data`` on to be scanned and returns the pieces completed by the data fed
        before it: from the second chunk on, a thread scans one chunk while the pieces of the
        last are worked on. A panic of that thread is raised as ``PanicException``."""
    def finish(self) -> list[tuple[object, ...]]:
        """The pieces of the chunks still being scanned, then those the end of input completes."""
    def claim(self, body: str, trtexec: bool, line: int) -> tuple[object, ...] | None:
        """The piece of one message split from its envelope elsewhere, claimed as a line of the
        scanner's own would be (its envelope ""), or None; ``trtexec``: trtexec's own message."""
    @property
    def lines(self) -> int:
        """The physical lines of the pieces handed on so far (all of them once finished)."""

class EnvelopeSplitter(Generic[_Envelope]):
    """Splits lines into their envelope and body, as the envelope grammar does, or says None
    where only the grammar can tell. Each distinct envelope prefix is built once, by
    ``build(style, stamp, level, producer)``: the style as the core names it, the stamp and
    level as printed, the producer; a line without an envelope gets ``no_envelope``."""

    def __init__(
        self,
        build: Callable[[str, str | None, str | None, str], _Envelope],
        no_envelope: _Envelope,
    ) -> None: ...
    def split(self, line: str) -> tuple[_Envelope, str] | None: ...
