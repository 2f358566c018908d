"""Comparing two builds: ``trtlog diff A B`` and ``diff_logs(a, b)``.

``BuildDiff.sections`` holds one table per aspect: ``overview`` (version, GPU, precision, build
time, layer counts), ``options`` (build, model, inference and system options that differ),
``stages`` (layer count stage by stage), ``fusions`` (made by one build only), ``layers``
(every engine layer paired or not, with what changed), ``reformats``, ``memory`` (totals),
``timeline`` (seconds per phase), ``perf`` (the performance summary, each metric judged
worse, better or within noise: ``sections.NOISE_PERCENT``) and ``profile`` (paired layers'
times, largest regressions first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd

from trtlog.analysis.buildlog import BuildLog
from trtlog.compare import sections

SECTIONS = (
    "overview",
    "options",
    "stages",
    "fusions",
    "layers",
    "reformats",
    "memory",
    "timeline",
    "perf",
    "profile",
)
# --fail-on conditions: a name, or a name and a percentage ("latency=5").
FAIL_ON = {
    "layers": "any engine layer added, removed or changed",
    "precision": "any paired layer whose precision changed",
    "tactics": "any paired layer whose tactic or kernel changed",
    "latency": "mean latency (or GPU compute time) longer by more than PCT percent",
    "throughput": "throughput lower by more than PCT percent",
    "build-time": "build time longer by more than PCT percent",
}
_CONDITION = re.compile(r"^(?P<name>[a-z-]+)(?:=(?P<percent>[\d.]+))?$")


class FailOnError(ValueError):
    """A --fail-on condition that does not exist."""


@dataclass
class BuildDiff:
    a: BuildLog
    b: BuildLog
    sections: dict[str, pd.DataFrame] = field(default_factory=dict)

    def differs(self) -> bool:
        """Whether anything but the file names differs."""
        for name, table in self.sections.items():
            if name in ("layers", "reformats"):
                if (table["status"] != "same").any():
                    return True
            elif name == "profile":
                if (table["delta_ms"].fillna(0) != 0).any():
                    return True
            elif "changed" in table.columns:
                if table["changed"].any():
                    return True
            elif len(table):
                return True
        return False

    def failures(self, conditions: list[str]) -> list[str]:
        """What ``conditions`` (--fail-on) find, one line each; empty when nothing fails."""
        found = []
        layers = self.sections["layers"]
        for condition in conditions:
            match = _CONDITION.match(condition.strip())
            if match is None or match.group("name") not in FAIL_ON:
                raise FailOnError(
                    f"--fail-on {condition!r}: expected one of {', '.join(FAIL_ON)}"
                    " (latency, throughput and build-time take =PCT)"
                )
            name, percent = match.group("name"), float(match.group("percent") or 0)
            if name == "layers":
                moved = layers[layers["status"] != "same"]
                if len(moved):
                    found.append(f"{len(moved)} engine layers added, removed or changed")
            elif name in ("precision", "tactics"):
                pattern = "precision:" if name == "precision" else "tactic:|kernel:"
                hits = layers["changes"].fillna("").str.contains(pattern)
                if hits.any():
                    found.append(f"{int(hits.sum())} paired layers changed {name}")
            else:
                found.extend(self._regression(name, percent))
        return found

    def _regression(self, name: str, percent: float) -> list[str]:
        if name == "build-time":
            table, items = self.sections["overview"], ["build seconds"]
        else:
            table = self.sections["perf"]
            items = (
                ["throughput_qps"]
                if name == "throughput"
                else ["latency_mean_ms", "gpu_compute_time_mean_ms"]
            )
        for item in items:
            rows = table[table["item"] == item]
            if rows.empty or pd.isna(rows.iloc[0].get("percent")):
                continue
            if rows.iloc[0].get("verdict") == "not comparable":
                continue
            change = float(rows.iloc[0]["percent"])
            worse = -change if name == "throughput" else change
            if worse > percent:
                return [
                    f"{item} {'fell' if name == 'throughput' else 'rose'} by {abs(change):.1f}%"
                ]
            return []
        return []


def diff_logs(a: BuildLog, b: BuildLog, noise_percent: float = sections.NOISE_PERCENT) -> BuildDiff:
    layer_changes = sections.layers(a, b)
    result = BuildDiff(a, b)
    result.sections = {
        "overview": sections.overview(a, b),
        "options": sections.options(a, b),
        "stages": sections.stages(a, b),
        "fusions": sections.fusions(a, b),
        "layers": layer_changes,
        "reformats": sections.reformats(layer_changes),
        "memory": sections.memory(a, b),
        "timeline": sections.timeline(a, b),
        "perf": sections.perf(a, b, noise_percent),
        "profile": sections.profile(layer_changes),
    }
    return result


__all__ = ["FAIL_ON", "SECTIONS", "BuildDiff", "FailOnError", "diff_logs"]
