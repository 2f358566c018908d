"""What a running build is doing, read from the lines it prints.

The build's own VERBOSE stream is the only source: no TensorRT callback is added (a progress
monitor costs build time, and covers little of it). Each line costs a few substring tests; the
phase names are those of ``BuildLog.timeline``.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from trtlog.grammars import terminal_pattern

# A phase starts at the first line holding one of its markers; markers are tried in order.
_PHASE_MARKERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("profiling", ("=== Profile (",)),
    (
        "inference warm-up and timing",
        ("Starting inference", "Warmup completed", "Timing trace has"),
    ),
    ("engine load", ("Loaded engine size", "Engine loaded in", "Engine deserialized in")),
    (
        "engine generation and serialisation",
        ("Engine generation completed", "Engine Layer Information", "Engine built in"),
    ),
    ("memory planning", ("[BlockAssignment]", "Total Activation Memory", "Memory consumption")),
    ("reformat selection", ("Formats and tactics selection completed", "Adding reformat layer")),
    (
        "autotuning",
        ("Computing costs for", "Autotuning format combination", "Timing Runner:"),
    ),
    ("calibration", ("Starting Calibration", "Calibrated batch")),
    ("graph optimisation", ("Applying generic optimizations", "Graph optimization time")),
    ("network construction", ("Graph construction completed",)),
    (
        "model parsing",
        ("Start parsing network model", "Parsing node:", "Importing initializer", "ONNX IR"),
    ),
)
_PHASE_ORDER = {
    "starting": -1,
    **{name: rank for rank, (name, _) in enumerate(reversed(_PHASE_MARKERS))},
}
_COMPUTING_COSTS = "Computing costs for "
# "After vertical fusions: 57 layers": the last count before autotuning is how many layers will
# be tuned (reformat layers may add a few).
# The stage is the grammar's STAGE_NAME (which sees the count and the line's end after it).
_LAYER_COUNT = re.compile(rf"(?P<stage>{terminal_pattern('STAGE_NAME')}): (?P<count>\d+) layers")
# Timed tactics in every version's form: "Tactic: 1002 time 0.06" (7.x), "Tactic: 0x3e8 Time:
# 0.002" (8.x), "Tactic Name: k Tactic: 0x.. Time: 0.01" (8.6+), "Tactic 31379 time 8.0" (5.x).
_TACTIC_TIMED = re.compile(
    rf"(?<!Fastest )(?<!\w)Tactic(?: Name: \S+ Tactic)?:? (?:{terminal_pattern('TACTIC_ID')})"
    rf"{terminal_pattern('_TIME_KEYWORD')}"
)
# 8.0-8.2 print no "Computing costs for" header: a layer's tuning starts at its first runner.
_TIMING_RUNNER = "Timing Runner: "
_REFORMAT_RUNNER = "Optimizer Reformat"
_FINISHED = ("&&&& PASSED", "&&&& FAILED")
_ERROR_TAGS = ("[E]", "[F]", "ERROR:", "INTERNAL_ERROR")
# How TensorRT and CUDA say that there is no usable GPU (TensorRT logs it, it does not raise).
_NO_GPU = (
    "CUDA initialization failure",
    "no CUDA-capable device",
    "CUDA driver version is insufficient",
    "cudaErrorNoDevice",
    "cudaErrorInsufficientDriver",
)


@dataclass
class ProgressState:
    """The build's progress so far; ``feed`` it every line the build prints."""

    started: float = field(default_factory=time.monotonic)
    phase: str = "starting"
    layer: str | None = None
    layers_tuned: int = 0
    layers_total: int | None = None
    tactics_timed: int = 0
    lines: int = 0
    errors: int = 0
    first_error: str | None = None
    gpu_error: str | None = None
    finished: str | None = None
    _headers_seen: bool = field(default=False, repr=False)

    def feed(self, line: str) -> None:
        self.lines += 1
        if _COMPUTING_COSTS in line:
            if not self._headers_seen:
                # Runners timed before the first header were reformats of the build's inputs.
                self._headers_seen = True
                self.layers_tuned = 0
            self._tune(line.split(_COMPUTING_COSTS, 1)[1].strip())
            return
        if _TIMING_RUNNER in line:
            runner = line.split(_TIMING_RUNNER, 1)[1].rsplit(" (", 1)[0].strip()
            if self._headers_seen or runner.startswith(_REFORMAT_RUNNER):
                self._enter("autotuning")
                if (
                    self.layer is None
                    and self._headers_seen
                    and not runner.startswith(_REFORMAT_RUNNER)
                ):
                    # 8.x prints "Computing costs for " without the layer's name.
                    self.layer = runner
            elif runner != self.layer:
                self._tune(runner)
            return
        if "ime" in line and "Tactic" in line and _TACTIC_TIMED.search(line):
            self.tactics_timed += 1
            return
        if " layers" in line and (count := _LAYER_COUNT.search(line.rstrip())):
            self._count_layers(count.group("stage"), int(count.group("count")))
            return
        if any(tag in line for tag in _ERROR_TAGS):
            self._error(line.strip())
        for ending in _FINISHED:
            if line.startswith(ending) or f"] {ending}" in line:
                self.finished = ending.split()[1].lower()
        for phase, markers in _PHASE_MARKERS:
            if any(marker in line for marker in markers):
                self._enter(phase)
                break

    def _error(self, line: str) -> None:
        self.errors += 1
        if self.first_error is None:
            self.first_error = line[:300]
        if self.gpu_error is None and any(marker in line for marker in _NO_GPU):
            self.gpu_error = line[:300]

    def _tune(self, layer: str) -> None:
        self._enter("autotuning")
        self.layer = layer or None
        self.layers_tuned += 1

    def _count_layers(self, stage: str, count: int) -> None:
        if stage == "Original":
            # A new build (another optimisation profile, another engine) starts over.
            self.phase = "graph optimisation"
            self.layers_tuned = 0
            self.layer = None
            self._headers_seen = False
        if _PHASE_ORDER[self.phase] <= _PHASE_ORDER["graph optimisation"]:
            self.layers_total = count
            self._enter("graph optimisation")

    def _enter(self, phase: str) -> None:
        # Phases only move forward, except that a new run starts over with parsing or loading.
        rank = _PHASE_ORDER[phase]
        if rank >= _PHASE_ORDER[self.phase] or phase in ("model parsing", "engine load"):
            self.phase = phase
        if self.phase != "autotuning":
            self.layer = None

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def as_dict(self) -> dict[str, Any]:
        state = asdict(self)
        del state["started"], state["_headers_seen"]
        return state

    def describe(self) -> str:
        """One line for a terminal: phase, layer, counts, elapsed time."""
        parts = [self.phase]
        if self.layers_tuned:
            # The layer count after graph optimisation is the total, give or take the layers
            # Myelin or reformats add; past it, only the count is shown.
            total = self.layers_total
            known = f"/{total}" if total and self.layers_tuned <= total else ""
            parts.append(f"layer {self.layers_tuned}{known}")
        if self.layer:
            parts.append(self.layer if len(self.layer) <= 60 else self.layer[:57] + "...")
        if self.tactics_timed:
            parts.append(f"{self.tactics_timed} tactics timed")
        minutes, seconds = divmod(int(self.elapsed), 60)
        parts.append(f"{minutes}:{seconds:02d} elapsed")
        return "  ".join(parts)


__all__ = ["ProgressState"]
