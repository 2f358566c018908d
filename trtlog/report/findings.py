"""The report's findings: what ``trtlog check`` finds in the build, with what to try."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trtlog.report.page import escape, table

if TYPE_CHECKING:
    from trtlog.analysis import BuildLog


def findings_section(log: BuildLog) -> str:
    """The findings of ``trtlog check`` under the settings it would use here
    (``[tool.trtlog.check]`` of the nearest pyproject.toml), most severe first, each with its
    rule's advice."""
    from trtlog import check as checks

    note = ""
    try:
        settings, disabled = checks.resolve_settings(checks.load_config(), {}, [])
    except checks.CheckSettingError as error:
        # The report is still worth having: the defaults stand in.
        note = f'<p class="note">Default thresholds used: {escape(error)}.</p>'
        settings, disabled = {}, set()
    findings = checks.run_checks(log, settings, disabled)
    advice = {rule.id: rule.advice for rule in checks.RULES}
    findings = findings.assign(advice=findings["rule"].map(advice))
    counts = findings["severity"].value_counts()
    said = ", ".join(
        f"{counts[level]} {level}" for level in reversed(checks.SEVERITIES) if level in counts
    )
    intro = (
        f'<p class="note">{escape(said or "No findings")} '
        "(<code>trtlog check --list</code> says what each rule looks for and why).</p>"
    )
    if findings.empty:
        return note + intro
    return note + intro + table(findings, None, "trtlog check")


__all__ = ["findings_section"]
