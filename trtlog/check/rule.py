"""What a lint rule is: an id, a severity, what it looks for, why that matters, what to try,
and the thresholds it takes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from trtlog.analysis import BuildLog

SEVERITIES = ("note", "warning", "error")


@dataclass(frozen=True)
class Finding:
    """One thing a rule found: where (a layer and the log line that shows it) and what."""

    rule: str
    severity: str
    message: str
    layer: str | None = None
    line: int | None = None


@dataclass
class Rule:
    """A lint rule. Subclasses set the class attributes and ``findings``; thresholds are in
    ``defaults`` (name -> value) and arrive in ``settings`` with user overrides applied."""

    id: ClassVar[str]
    severity: ClassVar[str]
    title: ClassVar[str]
    why: ClassVar[str]
    advice: ClassVar[str]
    defaults: ClassVar[Mapping[str, float]] = {}
    settings: dict[str, float] = field(default_factory=dict)

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        raise NotImplementedError

    def setting(self, name: str) -> float:
        return self.settings.get(name, self.defaults[name])

    def found(self, message: str, layer: str | None = None, line: object = None) -> Finding:
        try:
            number = int(line)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            number = None
        return Finding(self.id, self.severity, message, layer, number)
