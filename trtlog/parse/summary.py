"""What ``trtlog parse`` says about a log at a glance (made by ``trtlog.parse.summarize``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Summary:
    """The headline facts of one parsed log."""

    source: str
    log_style: str
    tensorrt_version: str | None
    # "stated" (trtexec's version line, the run header, Polygraphy's module list) or how the
    # version was inferred (a versioned TensorRT library name, a message naming the version).
    tensorrt_version_source: str | None
    gpu: str | None
    precision: list[str]
    runs: int
    builds: int
    build_seconds: float | None
    lines: int
    recognized: int
    unrecognized: int
    foreign: int
    blank: int
    recognized_percent: float
    families: dict[str, int] = field(default_factory=dict)
    commonest_unrecognized: list[tuple[str, int]] = field(default_factory=list)
    # How each run ended ("&&&& PASSED ...", "&&&& FAILED ..."), in order; None when no run
    # printed its end (Python API logs).
    outcome: str | None = None
    warnings: int = 0
    # Events at error severity or worse, and the first of them ("line 8: Error[10]: ...").
    errors: int = 0
    first_error: str | None = None
    # Where the runs of one log use different envelope styles (a Python API build, then
    # trtexec runs): [{"style": "python-api", "runs": [0]}, {"style": "trtexec", "runs": [1, 2]}];
    # empty where they all use ``log_style``'s.
    styles: list[dict[str, Any]] = field(default_factory=list)
    # Numbers beyond 64 bits (a corrupted log), kept as no value (``LineCounts.out_of_range``).
    out_of_range: int = 0

    def precision_text(self) -> str | None:
        """The precisions the log states, then the flags that asked for them: "FP32+FP16
        (--fp16)"; None where it states none."""
        echoed = [item.removeprefix("Precision: ") for item in self.precision]
        stated = [text for item, text in zip(self.precision, echoed, strict=True) if item != text]
        flags = [item for item in self.precision if not item.startswith("Precision: ")]
        if not stated:
            return ", ".join(flags) or None
        return ", ".join(stated) + (f" ({', '.join(flags)})" if flags else "")

    def as_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["commonest_unrecognized"] = [
            {"form": form, "count": count} for form, count in self.commonest_unrecognized
        ]
        return data


def require_tensorrt_lines(log: str | None, summary: Summary) -> None:
    """Raise ``LogSourceError`` when the log ``log`` (None: exports only, nothing to check) has
    no line TensorRT or a tool around it wrote: a README, a CSV or an empty file is not a log
    to keep or to make current."""
    from trtlog.parse.reader import LogSourceError

    if log is not None and summary.recognized == 0:
        name = "standard input" if log == "-" else log
        raise LogSourceError(f"no TensorRT log lines in {name}")
