"""The headline facts of a log as (label, text) pairs, for the terminal and the HTML report."""

from __future__ import annotations

from trtlog.parse.summary import Summary


def summary_facts(summary: Summary) -> list[tuple[str, str]]:
    version = summary.tensorrt_version or "unknown"
    if summary.tensorrt_version and summary.tensorrt_version_source != "stated":
        version += f" (inferred from the {summary.tensorrt_version_source})"
    build = "not reported" if summary.build_seconds is None else f"{summary.build_seconds:g} s"
    lines = (
        f"{summary.lines} ({summary.recognized} recognised, {summary.unrecognized} unrecognised, "
        f"{summary.foreign} foreign, {summary.blank} blank; "
        f"{summary.recognized_percent:g}% of TensorRT's lines recognised)"
        if summary.lines
        else "none: read from trtexec's JSON exports"
        if summary.log_style == "json-export"
        else "none"
    )
    facts = [
        ("Log", summary.source),
        ("Style", _styles(summary)),
        ("TensorRT", version),
        ("GPU", summary.gpu or "unknown"),
        ("Precision", summary.precision_text() or "not stated"),
        ("Runs / builds", f"{summary.runs} / {summary.builds}"),
        ("Build time", build),
        ("Lines", lines),
    ]
    if summary.out_of_range:
        facts.append(
            ("Out of range", f"{summary.out_of_range} numbers beyond 64 bits, kept as none")
        )
    if summary.outcome:
        facts.insert(6, ("Outcome", summary.outcome))
    facts.append(("Warnings / errors", f"{summary.warnings} / {summary.errors}"))
    if summary.first_error:
        facts.append(("First error", summary.first_error))
    return facts


def _styles(summary: Summary) -> str:
    """The log's style, or each run's where they differ: "python-api (run 0), trtexec (runs
    1-2)"."""
    if not summary.styles:
        return summary.log_style
    return ", ".join(f"{group['style']} ({_runs(group['runs'])})" for group in summary.styles)


def _runs(runs: list[int]) -> str:
    ranges: list[list[int]] = []
    for run in runs:
        if ranges and ranges[-1][1] == run - 1:
            ranges[-1][1] = run
        else:
            ranges.append([run, run])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)
    return ("runs " if len(runs) > 1 else "run ") + text
