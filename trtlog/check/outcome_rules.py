"""Rules about how a run ended: a CI gate fails on a build that failed."""

from __future__ import annotations

from collections.abc import Iterator

from trtlog.analysis import BuildLog
from trtlog.check.rule import Finding, Rule
from trtlog.events import Diagnostic, Event, Foreign, RunFooter, TacticSkipped
from trtlog.parse import ERROR_OR_WORSE, build_marker, described


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
        # builds never finished, but those TensorRT went on from.
        events = log.events
        errors = [
            (position, event)
            for position, event in enumerate(events)
            if event.severity in ERROR_OR_WORSE and type(event) is not Foreign
        ]
        # Per build, where TensorRT last skipped a tactic (under None: in any build, for an
        # error printed before the log says which build it is in).
        last_skip: dict[int | None, int] = {}
        for at, event in enumerate(events):
            if _skipped_tactic(event):
                last_skip[event.build] = last_skip[None] = at
        errors = [
            (at, error)
            for at, error in errors
            if not _recovered(error, at < last_skip.get(error.build, -1))
        ]
        if errors and not any(_built(event) for event in events):
            first_error = errors[0][1]
            first = described(first_error)
            count = f"{len(errors)} TensorRT error{'s' if len(errors) > 1 else ''}"
            if log.summary.builds == 0 and any(_loading(error) for _, error in errors):
                message = f"{count} and an engine that failed to load (none was built); "
                message += f"the first is at {first}"
            else:
                message = f"{count} and no engine built; the first is at {first}"
            yield self.found(message, None, first_error.line)


def _recovered(error: Event, tactic_skipped_after: bool) -> bool:
    """Whether TensorRT went on from ``error``: a tactic it skipped for an exception (8.x-10.x
    print "9: Skipping tactic 0x... due to exception ..." as an error), an allocation that
    failed while timing a tactic it then skipped, or an object destroyed after the build
    ("[builder.cpp::~Builder::307] Error Code 3: API Usage Error (...)")."""
    text = getattr(error, "text", "")
    if _skipped_tactic(error) or "::~" in text:
        return True
    out_of_memory = isinstance(error, Diagnostic) and error.detail == "out of memory"
    return out_of_memory and tactic_skipped_after


def _skipped_tactic(event: Event) -> bool:
    return isinstance(event, TacticSkipped) or "Skipping tactic" in getattr(event, "text", "")


def _loading(error: Event) -> bool:
    """Whether ``error`` is the runtime's refusal of an engine: its serialization check (an
    engine built by another TensorRT release) or its deserialization."""
    if isinstance(error, Diagnostic) and error.category == "Serialization":
        return True
    return "deserializ" in getattr(error, "text", "").lower()


def _built(event: Event) -> bool:
    """Whether ``event`` says that an engine was built: a reported total of TensorRT's,
    trtexec's, Polygraphy's or Torch-TensorRT's, or what a finished build reports at INFO level
    in every version ("Engine generation completed" is VERBOSE in 8.x): its allocators' peak
    and the memory it kept."""
    marker = build_marker(event)
    return marker is not None and marker[0] != "detected"
