"""Findings as SARIF 2.1.0, the format code-scanning services read."""

from __future__ import annotations

from typing import Any

import pandas as pd

from trtlog.check.rule import Rule
from trtlog.version import __version__

_LEVELS = {"error": "error", "warning": "warning", "note": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def sarif_document(
    findings: pd.DataFrame, rules: tuple[type[Rule], ...], source: str
) -> dict[str, Any]:
    results = []
    for finding in findings.itertuples(index=False):
        location: dict[str, Any] = {"artifactLocation": {"uri": source}}
        if pd.notna(finding.line):
            location["region"] = {"startLine": int(finding.line)}
        results.append(
            {
                "ruleId": finding.rule,
                "level": _LEVELS[finding.severity],
                "message": {"text": finding.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "trtlog",
                        "version": __version__,
                        "rules": [
                            {
                                "id": rule.id,
                                "name": rule.id,
                                "shortDescription": {"text": rule.title},
                                "fullDescription": {"text": rule.why},
                                "help": {"text": rule.advice},
                                "defaultConfiguration": {"level": _LEVELS[rule.severity]},
                            }
                            for rule in rules
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
