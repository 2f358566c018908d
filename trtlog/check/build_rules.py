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
    PerfAdvice,
    TacticSkipped,
)

_MIB = 1024 * 1024
_VARIANCE = re.compile(r"coefficient of variance = ([\d.]+)%")
_NO_PROFILE = "dynamic or shape inputs, but no optimization profile has been defined"
_SUBNORMAL = re.compile(r"(\d+) weights are affected by this issue: (.*)")


class WorkspaceLimited(Rule):
    id = "workspace-limited"
    severity = "warning"
    title = "Tactics skipped for lack of workspace"
    why = (
        "Tactics that need more scratch memory than the builder may use are never timed; the "
        "fastest one may be among them."
    )
    advice = (
        "Give the builder the workspace the skipped tactics asked for "
        "(trtexec --memPoolSize=workspace:<MiB>, IBuilderConfig.set_memory_pool_limit) when the "
        "GPU has it."
    )

    def findings(self, log: BuildLog) -> Iterator[Finding]:
        skipped = [
            event
            for event in log.events
            if isinstance(event, TacticSkipped) and event.scratch_requested is not None
        ]
        notes = [
            event
            for event in log.events
            if isinstance(event, BuilderNote)
            and event.text.startswith("Some tactics do not have sufficient workspace")
        ]
        if skipped:
            largest = max(skipped, key=lambda event: event.scratch_requested or 0)
            asked = (largest.scratch_requested or 0) / _MIB
            available = (largest.scratch_available or 0) / _MIB
            message = (
                f"{len(skipped)} tactics skipped for scratch memory; the largest asked for "
                f"{asked:.1f} MiB with {available:.1f} MiB available ({largest.layer or 'a layer'})"
            )
            yield self.found(message, largest.layer, largest.line)
        elif notes:
            yield self.found(notes[0].text, None, notes[0].line)


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
        for layer in layers.itertuples(index=False):
            total = totals.get((layer.run, layer.build))
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
        for event in log.events:
            text = getattr(event, "text", None)
            match = _SUBNORMAL.search(text) if isinstance(text, str) else None
            if match:
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
