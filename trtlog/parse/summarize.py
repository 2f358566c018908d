"""The summary of a parsed log (``trtlog.parse.summary.Summary``) from its events."""

from __future__ import annotations

import re
import shlex
from collections import Counter

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
from trtlog.parse.envelope import WARNING_OR_WORSE
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
_ERROR_OR_WORSE = WARNING_OR_WORSE - {"warning"}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_TIMESTAMP = re.compile(r"^\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\] ")
_LIBRARY_VERSION = re.compile(r"libnvinfer[\w]*\.so\.(\d+\.\d+\.\d+)")
_MESSAGE_VERSION = re.compile(r"\bin TensorRT (\d+\.\d+(?:\.\d+)?)")
_STYLE_NAMES = {
    "trtexec": "trtexec",
    "python-api": "python-api",
    "python-legacy": "python-api",
    "level": "custom-logger",
    "torch-tensorrt": "torch-tensorrt",
    "python-logging": "torch-tensorrt",
    "jetson-inference": "jetson-inference",
    "edge-llm": "tensorrt-edge-llm",
    "deepstream": "deepstream",
    "onnx-tensorrt": "onnx-tensorrt",
    "onnxruntime": "onnxruntime",
    "triton": "triton",
    "none": "bare",
}


def summarize(log: ParsedLog, families: Counter[str] | None = None, top: int = 5) -> Summary:
    """The summary of ``log``; ``families`` counts the events per family where ``log`` holds
    only some of them (a streamed log keeps no tactic timings)."""
    counts = log.counts
    unrecognized = Counter(_form(event.text) for event in log.of(Unrecognized))
    version, version_source = _tensorrt_version(log)
    errors = [event for event in log.events if event.severity in _ERROR_OR_WORSE]
    footers = log.of(RunFooter)
    return Summary(
        source=log.source,
        log_style=_log_style(log),
        tensorrt_version=version,
        tensorrt_version_source=version_source,
        gpu=_gpu(log),
        precision=_precision(log),
        runs=len(log.of(RunHeader)),
        builds=len({event.build for event in log.events if event.build is not None}),
        build_seconds=_build_seconds(log),
        lines=log.physical_lines,
        recognized=counts.recognized,
        unrecognized=counts.unrecognized,
        foreign=counts.foreign,
        blank=counts.blank,
        recognized_percent=round(100 * log.recognized_ratio, 2),
        families=dict((families or Counter(event.family for event in log.events)).most_common()),
        commonest_unrecognized=unrecognized.most_common(top),
        outcome=", ".join(footer.status for footer in footers) or None,
        warnings=sum(1 for event in log.events if event.severity == "warning"),
        errors=len(errors),
        first_error=_described(errors[0]) if errors else None,
    )


def _described(event: Event) -> str:
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
    styles = {style: n for style, n in log.counts.envelope_styles.items() if style != "none"}
    if not styles:
        return "bare"
    return _STYLE_NAMES.get(max(styles, key=styles.__getitem__), "bare")


def _tensorrt_version(log: ParsedLog) -> tuple[str | None, str | None]:
    for event in log.events:
        if isinstance(event, TensorrtVersion):
            return event.version, "stated"
        if isinstance(event, RunHeader) and event.version:
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
    return None, None


def _gpu(log: ParsedLog) -> str | None:
    for event in log.of(DeviceProperty):
        if event.key == "Selected Device":
            return event.value
    for foreign in log.of(Foreign):
        match = re.search(r"Device\(ID: \d+, Name: ([^,]+), SM Capability", foreign.text)
        if match:
            return match.group(1)
    return None


def _precision(log: ParsedLog) -> list[str]:
    flags: list[str] = []
    for header in log.of(RunHeader):
        try:
            words = shlex.split(header.command)
        except ValueError:
            words = header.command.split()
        flags.extend(word for word in words if word in _PRECISION_FLAGS and word not in flags)
    for option in log.of(OptionLine):
        if option.key == "Precision" and option.section == "Build Options":
            value = f"Precision: {option.value}"
            if value not in flags:
                flags.append(value)
    return flags


def _build_seconds(log: ParsedLog) -> float | None:
    """trtexec's own "Engine built in" where printed, else the builder's engine generation time."""
    for name in ("Engine built", "Engine generation", "Building all engines"):
        durations = [event.seconds for event in log.of(PhaseDuration) if event.phase == name]
        if durations:
            return round(sum(durations), 6)
    return None
