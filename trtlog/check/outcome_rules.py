"""Rules about how a run ended: a CI gate fails on a build that failed."""

from __future__ import annotations

from collections.abc import Iterator

from trtlog.analysis import BuildLog
from trtlog.check.rule import Finding, Rule
from trtlog.events import (
    Event,
    Foreign,
    MemUsageChange,
    MemUsageStats,
    PhaseDuration,
    RunFooter,
)
from trtlog.parse import ERROR_OR_WORSE

# The reported totals that say an engine was built: TensorRT's own, trtexec's, Polygraphy's,
# Torch-TensorRT's.
_BUILT = ("Engine generation", "Engine built", "Engine building", "Build TRT engine")
# What a finished build reports at INFO level in every version ("Engine generation completed"
# is VERBOSE in 8.x): its allocators' peak and the memory it kept.
_BUILT_MEMORY = (
    "Peak memory usage of TRT CPU/GPU memory allocators",
    "TensorRT-managed allocation in building engine",
)


class BuildFailed(Rule):
    id = "build-failed"
    severity = "error"
    title = "The run failed, or TensorRT reported errors and built no engine"
    why = (
        "A run that ended FAILED (trtexec and TensorRT's samples print '&&&& FAILED'), or a "
        "build that reported errors and never finished, produced no engine to ship or measure."
    )
    advice = (
        "Read the first error (trtlog parse shows it, trtlog warnings lists them all); an "
        "'Error Code 10: Could not find any implementation' or 'Error Code 4' names the layer "
        "or the network check that stopped the build."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        footers = [event for event in log.events if isinstance(event, RunFooter)]
        for footer in footers:
            if footer.status == "FAILED":
                command = f": {footer.command.strip()}" if footer.command.strip() else ""
                yield self.found(f"run {footer.run} ended FAILED{command}", None, footer.line)
        if footers:
            return
        # No closing banner (the Python API, a log cut short): the errors of a log whose
        # builds never finished.
        errors = [
            event
            for event in log.events
            if event.severity in ERROR_OR_WORSE and type(event) is not Foreign
        ]
        if errors and not any(_built(event) for event in log.events):
            first = log.summary.first_error or f"line {errors[0].line}"
            count = f"{len(errors)} TensorRT error{'s' if len(errors) > 1 else ''}"
            message = f"{count} and no engine built; the first is at {first}"
            yield self.found(message, None, errors[0].line)


def _built(event: Event) -> bool:
    """Whether ``event`` says that an engine was built."""
    if isinstance(event, PhaseDuration):
        return event.phase in _BUILT
    if isinstance(event, MemUsageStats | MemUsageChange):
        return event.what.startswith(_BUILT_MEMORY)
    return False
