"""``trtlog check``: lint rules over a build, each a small documented unit (``rule.Rule``)
that says what it found, why it matters and what to try.

Thresholds and switches come from ``[tool.trtlog.check]`` in the nearest ``pyproject.toml``
and from the command line (which wins)::

    [tool.trtlog.check]
    fail-level = "warning"            # note, warning, error or never
    disable = ["channel-alignment"]
    reformat-share-percent = 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pandas as pd

from trtlog.analysis import BuildLog
from trtlog.check.accuracy_rules import Fp16Layernorm, Int8MissingScales
from trtlog.check.build_rules import (
    BuildTimeHog,
    DynamicShapesWithoutProfile,
    Int64Weights,
    LibraryMismatch,
    SubnormalFp16Weights,
    UnstableGpuTime,
    WorkspaceLimited,
)
from trtlog.check.engine_rules import (
    ChannelAlignment,
    NoTensorCores,
    QuantizedFloatOutput,
    ReformatShare,
    UnfusedQuantization,
    WiderPrecision,
)
from trtlog.check.outcome_rules import BuildFailed
from trtlog.check.rule import SEVERITIES, Finding, Rule

RULES: tuple[type[Rule], ...] = (
    BuildFailed,
    WiderPrecision,
    QuantizedFloatOutput,
    UnfusedQuantization,
    ReformatShare,
    NoTensorCores,
    ChannelAlignment,
    WorkspaceLimited,
    UnstableGpuTime,
    BuildTimeHog,
    DynamicShapesWithoutProfile,
    Int64Weights,
    SubnormalFp16Weights,
    Fp16Layernorm,
    Int8MissingScales,
    LibraryMismatch,
)
FINDING_COLUMNS = ["rule", "severity", "layer", "message", "line"]
FAIL_LEVELS = (*SEVERITIES, "never")


class CheckSettingError(ValueError):
    """A threshold, rule or level that does not exist, or a value that is not one."""


def thresholds() -> dict[str, float]:
    """Every threshold a rule takes, with its default."""
    return {name: value for rule in RULES for name, value in rule.defaults.items()}


def load_config(start: Path | None = None) -> dict[str, Any]:
    """``[tool.trtlog.check]`` of the nearest pyproject.toml above ``start`` (or empty)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        path = candidate / "pyproject.toml"
        if path.is_file():
            try:
                document = tomllib.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise CheckSettingError(f"{path}: {error}") from None
            section = document.get("tool", {}).get("trtlog", {}).get("check", {})
            return dict(section) if isinstance(section, dict) else {}
    return {}


def resolve_settings(
    config: dict[str, Any], overrides: dict[str, float], disable: list[str]
) -> tuple[dict[str, float], set[str]]:
    """Thresholds and disabled rules from the configuration and the command line."""
    known = thresholds()
    ids = {rule.id for rule in RULES}
    settings: dict[str, float] = {}
    for name, value in {**config, **overrides}.items():
        if name in ("fail-level", "disable"):
            continue
        if name not in known:
            raise CheckSettingError(f"unknown threshold {name!r}; thresholds: {', '.join(known)}")
        try:
            settings[name] = float(value)
        except (TypeError, ValueError):
            raise CheckSettingError(f"{name} = {value!r} is not a number") from None
    disabled = set(config.get("disable", [])) | set(disable)
    unknown = disabled - ids
    if unknown:
        raise CheckSettingError(
            f"unknown rule {sorted(unknown)[0]!r}; rules: {', '.join(sorted(ids))}"
        )
    return settings, disabled


def run_checks(
    log: BuildLog, settings: dict[str, float] | None = None, disabled: set[str] | None = None
) -> pd.DataFrame:
    """The findings of every enabled rule, most severe first, in rule order within a level."""
    findings: list[Finding] = []
    for rule_class in RULES:
        if rule_class.id in (disabled or set()):
            continue
        rule = rule_class(settings={**(settings or {})})
        findings.extend(rule.findings(log))
    rows = [
        {
            "rule": f.rule,
            "severity": f.severity,
            "layer": f.layer,
            "message": f.message,
            "line": f.line,
        }
        for f in findings
    ]
    frame = pd.DataFrame(rows, columns=FINDING_COLUMNS).astype({"line": "Int64"})
    order = frame["severity"].map({level: -rank for rank, level in enumerate(SEVERITIES)})
    return (
        frame.assign(_order=order)
        .sort_values("_order", kind="stable")
        .drop(columns="_order")
        .reset_index(drop=True)
    )


def fails(findings: pd.DataFrame, level: str) -> bool:
    """Whether a finding is at or above ``level`` ("never" never fails)."""
    if level == "never":
        return False
    floor = SEVERITIES.index(level)
    return bool(findings["severity"].map(SEVERITIES.index).ge(floor).any())


def rules_table() -> pd.DataFrame:
    rows = [
        {
            "rule": rule.id,
            "severity": rule.severity,
            "finds": rule.title,
            "why": rule.why,
            "try": rule.advice,
            "thresholds": ", ".join(f"{name}={value:g}" for name, value in rule.defaults.items()),
        }
        for rule in RULES
    ]
    return pd.DataFrame(rows)


__all__ = [
    "FAIL_LEVELS",
    "RULES",
    "CheckSettingError",
    "fails",
    "load_config",
    "resolve_settings",
    "rules_table",
    "run_checks",
    "thresholds",
]
