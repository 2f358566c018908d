"""The native scanning core (the Rust crate in ``core/``), built into the package by maturin."""

def widened(pattern: str) -> str:
    """A grammar terminal's Python pattern as a Rust pattern matching the same text or more."""

class Guards:
    """Per grammar rule the core claims, the patterns of the terminals Lark's lexer tries before
    the rule's first terminal; compiled once, shared by scanners."""

    def __init__(self, guards: list[tuple[str, list[str]]]) -> None: ...

class Scanner:
    """Reads a log's bytes into pieces, in order:

    - ``(0, first_line, text, record_follows)``: lines as text joined by "\\n";
    - ``(1, first_line, envelope, tactic_ids, times, kernels, parameters)``: one-line tactic
      timings; ids and times as bytes of native u64 and f64, kernels and parameters lists where
      the lines name them, else None;
    - ``(2, first_line, envelope, lines, bodies)``: one-line Myelin trace rows.
    """

    def __init__(self, guards: Guards, first_line: int = 1) -> None: ...
    def feed(self, data: bytes) -> list[tuple[object, ...]]: ...
    def finish(self) -> list[tuple[object, ...]]: ...
    @property
    def lines(self) -> int: ...

def envelope_end(line: str) -> int:
    """How many characters of ``line`` its envelope takes: 0 where it has none, -1 where only
    the envelope grammar can tell."""

def envelope_fields(prefix: str) -> tuple[str, str | None, str | None, str] | None:
    """The style, stamp, level and producer of the envelope ``prefix`` is (as ``envelope_end``
    found it, with nothing after it); None when it is not one."""
