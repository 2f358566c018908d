"""The summary of a parsed log (``trtlog.parse.summary.Summary``) from its events."""

from __future__ import annotations

import bisect
import re
import shlex
from collections import Counter
from typing import Any

from trtlog.events import (
    BuilderNote,
    DeviceProperty,
    Diagnostic,
    Foreign,
    LoadedModule,
    OptionLine,
    PhaseDuration,
    RunFooter,
    RunHeader,
    TensorrtVersion,
    Unrecognized,
)
from trtlog.events.base import Event
from trtlog.events.options import builder_precisions
from trtlog.grammars import terminal_pattern
from trtlog.parse.envelope import ERROR_OR_WORSE
from trtlog.parse.result import ParsedLog
from trtlog.parse.summary import Summary

# trtexec flags that choose precisions (removed in 11.x, where the network decides).
_PRECISION_FLAGS = (
    "--fp16",
    "--bf16",
    "--int8",
    "--fp8",
    "--int4",
    "--fp4",
    "--best",
    "--noTF32",
    "--stronglyTyped",
)
# A number, with its minus sign unless that joins two words ("conv-1").
_NUMBER = re.compile(r"(?:(?<!\w)-)?\d+(?:\.\d+)?")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
# The envelope grammar's TIMESTAMP, left in front of an unrecognised line's text.
_TIMESTAMP = re.compile("^" + terminal_pattern("TIMESTAMP"))
_LIBRARY_VERSION = re.compile(r"libnvinfer[\w]*\.so\.(\d+\.\d+\.\d+)")
# Warnings that name the running release ("Functionality provided through tensorrt.plugin module
# is experimental in TensorRT 10.6."); others name the release a change came in ("profileSharing0806
# is on by default in TensorRT 10.0", printed by every 10.x builder that sets it).
_MESSAGE_VERSION = re.compile(r"\bis experimental in TensorRT (\d+\.\d+(?:\.\d+)?)")
# The GPU a program around TensorRT names: Torch-TensorRT's "Device(ID: 0, Name: NVIDIA A100,
# SM Capability: ...)", the banner of YOLOv5 and Ultralytics ("Ultralytics 8.3.75 Python-3.8.19
# torch-1.12.1+cu113 CUDA:0 (NVIDIA GeForce RTX 3090, 24268MiB)"), Triton's "Collecting metrics
# for GPU 0: NVIDIA GeForce RTX 3090".
_PROGRAM_GPU = re.compile(
    r"Device\(ID: \d+, Name: ([^,]+), SM Capability"
    r"|\bCUDA:\d+ \(([^,()]+), \d+(?:\.\d+)?MiB\)"
    r"|Collecting metrics for GPU \d+: ([^\n]+?)\s*$"
)
# YOLOv5's and Ultralytics' exporters (2021 to today) name the TensorRT they build with: "TensorRT:
# starting export with TensorRT 10.12.0.36...".
_EXPORTER_VERSION = re.compile(r"TensorRT: starting export with TensorRT (\d+(?:\.\d+)+)")
# The precision a program around TensorRT says it builds in: those exporters ("TensorRT: building
# FP16 engine as best.engine"), jetson-inference ("selecting fastest native precision for GPU:
# FP16", "desired precision specified for GPU: INT8").
_STATED_PRECISION = re.compile(
    r"(?:TensorRT: building |(?:selecting fastest native precision|desired precision specified)"
    r" for \w+:\s+)(FP16|INT8|FP32)\b"
)
_STYLE_NAMES = {
    "trtexec": "trtexec",
    "python-api": "python-api",
    "python-legacy": "python-api",
    "level": "custom-logger",
    "word-level": "custom-logger",
    "torch-tensorrt": "torch-tensorrt",
    "python-logging": "torch-tensorrt",
    "python-relay": "python-logging",
    "jetson-inference": "jetson-inference",
    "edge-llm": "tensorrt-edge-llm",
    "deepstream": "deepstream",
    "onnx-tensorrt": "onnx-tensorrt",
    "onnxruntime": "onnxruntime",
    "triton": "triton",
    "paddle": "paddle-inference",
    "glog": "glog",
    "tensorrt-llm-runtime": "tensorrt-llm",
    "tensorflow": "tf-trt",
    "none": "bare",
}


def summarize(log: ParsedLog, families: Counter[str] | None = None, top: int = 5) -> Summary:
    """The summary of ``log``; ``families`` counts the events per family where ``log`` holds
    only some of them (a streamed log keeps no tactic timings)."""
    counts = log.counts
    unrecognized = Counter(_form(event.text) for event in log.of(Unrecognized))
    version, version_source = _tensorrt_version(log)
    builds: set[int] = set()
    warnings = 0
    errors: list[Event] = []
    for event in log.events:
        if event.build is not None:
            builds.add(event.build)
        # Other programs' warnings and errors (Python's, glog's and absl's) are not the build's.
        if type(event) is Foreign:
            continue
        if event.severity == "warning":
            warnings += 1
        elif event.severity in ERROR_OR_WORSE:
            errors.append(event)
    footers = log.of(RunFooter)
    return Summary(
        source=log.source,
        log_style=_log_style(log),
        styles=_run_styles(log),
        tensorrt_version=version,
        tensorrt_version_source=version_source,
        gpu=_gpu(log),
        precision=_precision(log),
        runs=len(log.of(RunHeader)),
        builds=len(builds),
        build_seconds=_build_seconds(log),
        lines=log.physical_lines,
        recognized=counts.recognized,
        unrecognized=counts.unrecognized,
        foreign=counts.foreign,
        blank=counts.blank,
        out_of_range=counts.out_of_range,
        recognized_percent=round(100 * log.recognized_ratio, 2),
        families=dict((families or Counter(event.family for event in log.events)).most_common()),
        commonest_unrecognized=unrecognized.most_common(top),
        outcome=", ".join(footer.status for footer in footers) or None,
        warnings=warnings,
        errors=len(errors),
        first_error=described(errors[0]) if errors else None,
    )


def described(event: Event) -> str:
    """How a message is named in a summary or a finding: its line and its text."""
    text = getattr(event, "text", None)
    return f"line {event.line}: {text if isinstance(text, str) else event.kind()}"


def _form(text: str) -> str:
    """An unrecognised line with its timestamp, numbers and tactic ids blanked out."""
    text = _TIMESTAMP.sub("", text)
    return _NUMBER.sub("N", _HEX.sub("0x…", text))[:160]


def _log_style(log: ParsedLog) -> str:
    if log.physical_lines == 0 and any(event.producer == "export" for event in log.events):
        return "json-export"
    headers = log.of(RunHeader)
    if (headers and headers[0].program == "polygraphy") or any(
        module.module == "polygraphy" for module in log.of(LoadedModule)
    ):
        return "polygraphy"
    if any(event.producer == "trtllm" for event in log.events):
        return "tensorrt-llm"
    # The style of TensorRT's own lines, where there are any: a program relaying a few of them
    # (Paddle Inference, Triton) prints many more lines of its own in the same prefix.
    styles: Counter[str] = Counter()
    for _first, _last, style, records in log.counts.style_spans:
        styles[style] += records
    if not styles:
        styles.update(log.counts.envelope_styles)
        del styles["none"]
    if not styles:
        return "bare"
    return _STYLE_NAMES.get(max(styles, key=styles.__getitem__), "bare")


def _run_styles(log: ParsedLog) -> list[dict[str, Any]]:
    """The envelope style of each run, where the runs of one log use more than one: runs
    grouped by style in order of their first run, [{"style": "python-api", "runs": [0]},
    {"style": "trtexec", "runs": [1, 2]}]. A run starts at each "&&&& RUNNING" header; the
    lines before the first header are run 0. A run's style is the one most of its records
    use (bare lines and other programs' own messages aside); runs without such records are
    left out."""
    starts = [header.line for header in log.of(RunHeader)]
    per_run: list[Counter[str]] = [Counter() for _ in range(len(starts) + 1)]
    for first, last, style, records in log.counts.style_spans:
        # Where a stretch crosses a header, its records are shared out by lines.
        run = bisect.bisect_right(starts, first)
        while True:
            end = starts[run] - 1 if run < len(starts) and starts[run] <= last else last
            begin = first if run == 0 or starts[run - 1] <= first else starts[run - 1]
            share = records * max(end - begin + 1, 0) / (last - first + 1)
            per_run[run][_STYLE_NAMES.get(style, "bare")] += share
            if end == last:
                break
            run += 1
    styles: dict[str, list[int]] = {}
    for run, counts in enumerate(per_run):
        if counts:
            styles.setdefault(counts.most_common(1)[0][0], []).append(run)
    if len(styles) < 2:
        return []
    return [{"style": style, "runs": runs} for style, runs in styles.items()]


def _tensorrt_version(log: ParsedLog) -> tuple[str | None, str | None]:
    # A run's banners state it: "&&&& RUNNING TensorRT.trtexec [TensorRT v8412]", and the same
    # on "&&&& PASSED" where the start of the log was not kept.
    for event in log.of(TensorrtVersion, RunHeader, RunFooter, LoadedModule):
        if isinstance(event, TensorrtVersion):
            return event.version, "stated"
        if isinstance(event, (RunHeader, RunFooter)) and event.version:
            return event.version, "stated"
        if isinstance(event, LoadedModule) and event.module == "tensorrt" and event.version:
            return event.version, "stated"
    for note in log.of(BuilderNote):
        # 8.6+ load "libnvinfer_builder_resource.so.10.3.0" and name it in VERBOSE.
        match = _LIBRARY_VERSION.search(note.text)
        if match:
            return match.group(1), "library name"
    for diagnostic in log.of(Diagnostic):
        match = _MESSAGE_VERSION.search(diagnostic.text)
        if match:
            return match.group(1), "warning text"
    for foreign in log.of(Foreign):
        if "TensorRT: " in foreign.text and (match := _EXPORTER_VERSION.search(foreign.text)):
            return match.group(1), "stated"
    return None, None


def _gpu(log: ParsedLog) -> str | None:
    for event in log.of(DeviceProperty):
        if event.key == "Selected Device":
            return event.value
    for foreign in log.of(Foreign):
        text = foreign.text
        if ("Device(" in text or "CUDA:" in text or "GPU " in text) and (
            match := _PROGRAM_GPU.search(text)
        ):
            return next(name for name in match.groups() if name)
    return None


def _precision(log: ParsedLog) -> list[str]:
    flags: list[str] = []
    # The command on a run's opening banner, or on its closing one where the opening was not kept.
    commands = [event.command for event in log.of(RunHeader)]
    commands += [event.command for event in log.of(RunFooter)]
    for command in commands:
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
        flags.extend(word for word in words if word in _PRECISION_FLAGS and word not in flags)
    for option in log.of(OptionLine):
        value = None
        if option.key == "Precision" and option.section == "Build Options":
            value = f"Precision: {option.value}"
        elif (enabled := builder_precisions(option)) is not None:
            # Polygraphy's builder flags, in trtexec's form.
            value = "Precision: " + "+".join(["FP32", *enabled])
        if value is not None and value not in flags:
            flags.append(value)
    for foreign in log.of(Foreign):
        text = foreign.text
        if ("FP" in text or "INT8" in text) and (match := _STATED_PRECISION.search(text)):
            value = "Precision: " + "+".join(dict.fromkeys(["FP32", match.group(1)]))
            if value not in flags:
                flags.append(value)
    return flags


def _build_seconds(log: ParsedLog) -> float | None:
    """trtexec's own "Engine built in" where printed, else the builder's engine generation time,
    else what the program around the builder reports: TensorRT-LLM's time for all engines,
    Polygraphy's "Finished engine building", Torch-TensorRT's "Build TRT engine elapsed time"."""
    for name in (
        "Engine built",
        "Engine generation",
        "Building all engines",
        "Engine building",
        "Build TRT engine",
    ):
        durations = [event.seconds for event in log.of(PhaseDuration) if event.phase == name]
        if durations:
            return round(sum(durations), 6)
    return None
