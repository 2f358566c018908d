"""Rules about the build and the run: workspace, build time, shapes, weights, timing noise."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import ClassVar

from trtlog.analysis import BuildLog
from trtlog.check.rule import Finding, Rule
from trtlog.events import (
    BuilderNote,
    Diagnostic,
    DynamicShapeOverride,
    Event,
    PerfAdvice,
    TacticDeviceRequest,
    TacticSkipped,
)

_MIB = 1024 * 1024
_VARIANCE = re.compile(r"coefficient of variance = ([\d.]+)%")
_NO_PROFILE = "dynamic or shape inputs, but no optimization profile has been defined"
_SUBNORMAL = re.compile(r"(\d+) weights are affected by this issue: (.*)")
# 7.x-8.x: "TensorRT was linked against cuDNN 8.4.1 but loaded cuDNN 8.0.5" (and cuBLAS).
_LINKED = re.compile(r"TensorRT was linked against (.+?) (\S+) but loaded \1 (\S+)")


class WorkspaceLimited(Rule):
    id = "workspace-limited"
    severity = "warning"
    title = "Tactics skipped for lack of workspace or device memory"
    why = (
        "Tactics that need more scratch memory than the builder may use, or than the device has "
        "free, are never timed; the fastest one may be among them."
    )
    advice = (
        "Give the builder the workspace the skipped tactics asked for "
        "(trtexec --memPoolSize=workspace:<MiB>, IBuilderConfig.set_memory_pool_limit) when the "
        "GPU has it; where the device itself was short, build with less else on the GPU."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        # 7.x-8.x say how much scratch was available; 8.x's and 10.x's "insufficient memory"
        # skips do not (8.x's size is not even in bytes throughout), but 7.x-8.x precede them
        # with "Tactic Device request: <MB> Available: <MB>" (``TacticDeviceRequest``).
        # 8.6's fast-skipped tactics ("time limit") were too slow, not short of memory.
        skipped = [
            event
            for event in log.events
            if isinstance(event, TacticSkipped)
            and event.reason not in ("only option", "time limit")
        ]
        requests = [event for event in log.events if isinstance(event, TacticDeviceRequest)]
        notes = [
            event
            for event in log.events
            if isinstance(event, BuilderNote)
            and event.text.startswith("Some tactics do not have sufficient workspace")
        ]
        if skipped:
            sized = [event for event in skipped if event.scratch_requested is not None]
            largest = max(sized or skipped, key=lambda event: event.scratch_requested or 0)
            message = f"{len(skipped)} tactics skipped for lack of memory"
            if largest.scratch_requested is not None:
                message += f"; the largest asked for {_size(largest.scratch_requested)}"
                if largest.scratch_available is not None:
                    message += f" with {_size(largest.scratch_available)} available"
            message += f" ({largest.layer or 'a layer'})"
            if requests:
                message += _device_memory(requests)
            yield self.found(message, largest.layer, largest.line)
        elif requests:
            largest_request = max(requests, key=lambda event: event.requested_bytes)
            message = f"tactics found the device short of memory{_device_memory(requests)}"
            yield self.found(message, largest_request.layer, largest_request.line)
        elif notes:
            yield self.found(notes[0].text, None, notes[0].line)


def _text_matches(log: BuildLog, pattern: re.Pattern[str]) -> Iterator[tuple[Event, re.Match[str]]]:
    """The events whose message text ``pattern`` finds something in, with what it found."""
    for event in log.events:
        text = getattr(event, "text", None)
        match = pattern.search(text) if isinstance(text, str) else None
        if match:
            yield event, match


def _size(size_bytes: int) -> str:
    if size_bytes >= _MIB:
        return f"{size_bytes / _MIB:.1f} MiB"
    if size_bytes >= 1024:
        return f"{size_bytes / 1024:.1f} KiB"
    return f"{size_bytes} bytes"


def _device_memory(requests: list[TacticDeviceRequest]) -> str:
    largest = max(requests, key=lambda event: event.requested_bytes)
    return (
        f"; device memory short {len(requests)} time{'s' if len(requests) > 1 else ''}, the "
        f"largest request {largest.requested_bytes / _MIB:.0f} MiB with "
        f"{largest.available_bytes / _MIB:.0f} MiB free ({largest.layer or 'a layer'})"
    )


class BuildTimeHog(Rule):
    id = "build-time-hog"
    severity = "note"
    title = "One layer or Myelin region takes most of the tuning time"
    why = "When one layer dominates the build, that layer is where build time can be won back."
    advice = (
        "Reuse a timing cache (--timingCacheFile), lower --builderOptimizationLevel, limit its "
        "tactic sources, or look at why it is tuned so long (trtlog tactics --layer NAME)."
    )
    defaults: ClassVar[Mapping[str, float]] = {
        "build-time-hog-percent": 25.0,
        "build-time-hog-seconds": 1.0,
    }

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        timeline = log.timeline
        tuning = timeline[(timeline["level"] == "phase") & (timeline["phase"] == "autotuning")]
        totals = tuning.groupby(["run", "build"])["seconds"].sum(min_count=1).to_dict()
        layers = timeline[(timeline["level"] == "layer") & timeline["seconds"].notna()]
        # Before 8.6 a layer's time is measured between one-second stamps, and the layers' times
        # can add up to more than the tuning TensorRT reports: the share is of the larger.
        tuned = layers.groupby(["run", "build"])["seconds"].sum().to_dict()
        for layer in layers.itertuples(index=False):
            reported = totals.get((layer.run, layer.build))
            total = (
                max(reported or 0.0, tuned.get((layer.run, layer.build), 0.0)) if reported else None
            )
            if not total or layer.seconds < self.setting("build-time-hog-seconds"):
                continue
            share = 100 * layer.seconds / total
            if share > self.setting("build-time-hog-percent"):
                message = (
                    f"{layer.layer} took {layer.seconds:.3g} s, {share:.0f}% of the tuning "
                    f"time of build {layer.build}"
                )
                yield self.found(message, layer.layer, layer.first_line)


class DynamicShapesWithoutProfile(Rule):
    id = "dynamic-shapes-no-profile"
    severity = "error"
    title = "Dynamic input shapes built without an optimisation profile"
    why = (
        "When a dynamic input gets no shapes, trtexec builds for a batch of one (or the build "
        "fails): the engine is tuned for a shape it will not see."
    )
    advice = (
        "Give --minShapes/--optShapes/--maxShapes (or an IOptimizationProfile) for every "
        "dynamic input."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for event in log.events:
            if isinstance(event, DynamicShapeOverride):
                message = f"input {event.input} has dynamic dimensions; built for {event.shape}"
                yield self.found(message, None, event.line)
            elif isinstance(event, Diagnostic) and _NO_PROFILE in event.text:
                yield self.found(event.text, None, event.line)


class Int64Weights(Rule):
    id = "int64-weights"
    severity = "note"
    title = "INT64 weights cast down to INT32"
    why = (
        "TensorRT has no INT64 arithmetic for these weights; values outside INT32's range are "
        "clamped."
    )
    advice = "Export the model with INT32 indices and shapes, or check that no value exceeds INT32."

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for event in log.events:
            if isinstance(event, Diagnostic) and "generated with INT64 weights" in event.text:
                yield self.found(event.text, None, event.line)
                return


class SubnormalFp16Weights(Rule):
    id = "subnormal-fp16-weights"
    severity = "warning"
    title = "Weights that FP16 cannot represent"
    why = (
        "Weights below FP16's smallest normal value lose precision (subnormal) or become zero "
        "when converted, which can cost accuracy."
    )
    advice = (
        "Check accuracy against FP32 (polygraphy run --trt --onnxrt); keep the affected layers in "
        "FP32 (--layerPrecisions) or retrain with weight regularisation."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for event, match in _text_matches(log, _SUBNORMAL):
            yield self.found(f"{match.group(1)} weights: {match.group(2)}", None, event.line)


class UnstableGpuTime(Rule):
    id = "unstable-gpu-time"
    severity = "warning"
    title = "GPU compute time unstable between iterations"
    why = (
        "With a large coefficient of variance the latency figures of this run are not reliable "
        "to compare."
    )
    advice = (
        "Lock the GPU clocks, use --useSpinWait, close other GPU work, and run longer (--duration)."
    )
    defaults: ClassVar[Mapping[str, float]] = {"unstable-gpu-percent": 1.0}

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        for event in log.events:
            if isinstance(event, PerfAdvice):
                match = _VARIANCE.search(event.text)
                if match and float(match.group(1)) > self.setting("unstable-gpu-percent"):
                    yield self.found(f"coefficient of variance {match.group(1)}%", None, event.line)


class LibraryMismatch(Rule):
    id = "library-mismatch"
    severity = "warning"
    title = "TensorRT runs with another cuDNN or cuBLAS than it was built for"
    why = (
        "Tactics of the library TensorRT was linked against may be missing or slower in the one "
        "it loaded; builds can fail or pick worse tactics, and results differ between machines."
    )
    advice = (
        "Install the cuDNN and cuBLAS versions TensorRT's release notes name (or use NVIDIA's "
        "container of that release), or drop the library as a tactic source (--tacticSources)."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        # One finding for the log: each library once, as first reported.
        mismatches: dict[str, tuple[str, int]] = {}
        for event, match in _text_matches(log, _LINKED):
            if match.group(1) not in mismatches:
                linked = f"{match.group(1)} {match.group(2)}, loaded {match.group(3)}"
                mismatches[match.group(1)] = (linked, event.line)
        if mismatches:
            message = "linked against " + "; ".join(text for text, _ in mismatches.values())
            yield self.found(message, None, min(line for _, line in mismatches.values()))
