"""What a line's envelope says (``Envelope``: timestamp, severity, producer), the level words
and stamps the loggers print, and which producers speak for TensorRT. The envelope grammar
splits a line into its envelope and body (``trtlog.parse.envelope_grammar``); the native core
splits the prefixes of nearly every line (``trtlog.parse.envelope_split``), which gives the
same."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from functools import cache, lru_cache

LEVELS = {
    "V": "verbose",
    "I": "info",
    "W": "warning",
    "E": "error",
    "F": "fatal",
    "X": "extra_verbose",
    "S": "super_verbose",
    "U": "ultra_verbose",
    "!": "critical",
    "VERBOSE": "verbose",
    "INFO": "info",
    "WARNING": "warning",
    "ERROR": "error",
    "INTERNAL_ERROR": "internal_error",
    "INTERNAL ERROR": "internal_error",
    "DEBUG": "debug",
    "CRITICAL": "critical",
}

# TensorRT-Edge-LLM's level words: it prints TensorRT's VERBOSE as DEBUG and INTERNAL_ERROR as
# UNKNOWN.
EDGE_LLM_LEVELS = {
    "DEBUG": "verbose",
    "INFO": "info",
    "WARNING": "warning",
    "ERROR": "error",
    "UNKNOWN": "internal_error",
}
# The level words of onnx2trt's and ONNX Runtime's TensorRT loggers ("    BUG" is INTERNAL_ERROR;
# ONNX Runtime prints VERBOSE as UNKNOWN), of DeepStream's nvinfer (DEBUG is TensorRT's VERBOSE,
# and in newer releases its INFO too) and of TensorRT-LLM's C++ runtime (TRACE below DEBUG).
RELAYED_LEVELS = {
    "BUG": "internal_error",
    "INTERNAL_ERROR": "internal_error",
    "ERROR": "error",
    "WARNING": "warning",
    "INFO": "info",
    "VERBOSE": "verbose",
    "UNKNOWN": "verbose",
    "DEBUG": "verbose",
    "TRACE": "verbose",
}
# The date of a stamp that gives the time of day only (TensorRT-Edge-LLM's): offsets between
# lines hold, the day is unknown.
UNDATED = date(1900, 1, 1)

# Producers whose lines are never TensorRT messages: Python logging of other loggers,
# TensorRT-Edge-LLM's own messages (which name their source file where TensorRT's say
# "[TensorRT]"), ONNX Runtime's (no stamp of TensorRT's logger after its prefix), Triton's and
# TensorFlow's (written from another source file than their logger of TensorRT).
FOREIGN_PRODUCERS = frozenset({"python", "edgellm", "onnxruntime", "glog", "tensorflow"})
# Producers that sometimes relay TensorRT messages and otherwise print their own.
RELAYING_PRODUCERS = frozenset(
    {"trtllm", "torch_tensorrt", "polygraphy", "word-logger", "python-relay"}
)
WARNING_OR_WORSE = frozenset({"warning", "error", "fatal", "internal_error", "critical"})
ERROR_OR_WORSE = WARNING_OR_WORSE - {"warning"}


@dataclass(frozen=True, slots=True)
class Envelope:
    """What the prefix of a line says about the message after it."""

    style: str
    timestamp: datetime | None = None
    severity: str | None = None
    producer: str = "none"


NO_ENVELOPE = Envelope(style="none")


# Bare "[V]"-style envelopes are shared by custom loggers and Polygraphy's own reports.
POLYGRAPHY_OR_LOGGER = frozenset({"logger", "polygraphy"})


def own_messages_rule(envelope: Envelope) -> str | None:
    """The start rule of the own messages of a program that prints them in TensorRT's envelope,
    tried where no TensorRT rule claims a line: Polygraphy's reports, jetson-inference's lines
    under its "[TRT]    " prefix, TensorRT samples' lines in trtexec's."""
    if envelope.style == "jetson-inference":
        return "jetson_inference_message"
    if envelope.producer == "trtexec":
        return "sample_message"
    return "foreign_message" if envelope.producer in POLYGRAPHY_OR_LOGGER else None


# Programs that relay TensorRT's messages in a prefix that their own warnings and errors share.
_OWN_ERRORS_SHARE_THE_PREFIX = frozenset({"word-logger", "python-relay"})


def start_rule(envelope: Envelope) -> str:
    """The start rule of the message grammar a record in ``envelope`` is read with."""
    if torch_tensorrt_only(envelope):
        return "torch_tensorrt_message"
    if envelope.producer != "trtexec":
        return "message"
    return "trtexec_warning" if envelope.severity in WARNING_OR_WORSE else "trtexec_message"


def diagnostic_rule(envelope: Envelope) -> str | None:
    """The start rule tried for a warning or an error that no specific rule claims: any text
    (``diagnostic``), or TensorRT's shapes of an error alone (``relayed_error``) where the
    program's own errors share the prefix; None for other levels."""
    if envelope.severity not in WARNING_OR_WORSE or torch_tensorrt_only(envelope):
        return None
    own_errors = envelope.producer in _OWN_ERRORS_SHARE_THE_PREFIX
    return "relayed_error" if own_errors and envelope.severity in ERROR_OR_WORSE else "diagnostic"


def torch_tensorrt_only(envelope: Envelope) -> bool:
    """Whether the message is Torch-TensorRT 2.x's own, from one of its Python loggers: read by
    the ``torch_tensorrt_message`` rule alone (it says much that TensorRT's forms would take
    wrongly: "Removing node clone_12 from graph, since ...")."""
    return envelope.style == "python-logging" and envelope.producer == "torch_tensorrt"


@cache
def parse_timestamp(text: str) -> datetime | None:
    """``[MM/DD/YYYY-HH:MM:SS]`` as printed by trtexec and the Python logger (local time)."""
    try:
        return datetime(
            int(text[7:11]),
            int(text[1:3]),
            int(text[4:6]),
            int(text[12:14]),
            int(text[15:17]),
            int(text[18:20]),
        )
    except ValueError:
        return None


# Millisecond stamps rarely repeat: only the latest are kept.
@lru_cache(maxsize=4096)
def parse_clock_stamp(text: str) -> datetime | None:
    """``[HH:MM:SS.mmm]``: a time of day, on the day ``UNDATED``."""
    try:
        return datetime.combine(
            UNDATED,
            datetime.min.time().replace(
                hour=int(text[1:3]),
                minute=int(text[4:6]),
                second=int(text[7:9]),
                microsecond=int(text[10:13]) * 1000,
            ),
        )
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def parse_iso_stamp(text: str) -> datetime | None:
    """``YYYY-MM-DD HH:MM:SS``, to the microsecond when a fraction follows (ONNX Runtime's
    nanoseconds are cut to microseconds)."""
    try:
        whole = datetime.fromisoformat(text[:19])
    except ValueError:
        return None
    fraction = text[20:26] if text[19:20] == "." else ""
    return whole.replace(microsecond=int(fraction.ljust(6, "0"))) if fraction.isdigit() else whole


def parse_triton_stamp(text: str) -> datetime | None:
    """Triton's ``MMDD HH:MM:SS.ffffff``, in ``UNDATED``'s year (None on 29 February)."""
    try:
        return datetime(
            UNDATED.year,
            int(text[:2]),
            int(text[2:4]),
            int(text[5:7]),
            int(text[8:10]),
            int(text[11:13]),
            int(text[14:20]),
        )
    except ValueError:
        return None


def level_of(tag: str) -> str:
    """The level a tag or word names ("[V] ", "INFO:"), as TensorRT's: verbose, info, ..."""
    return LEVELS.get(tag.strip().strip("[]:"), tag.strip())


def library_producer(tag: str | None, default: str) -> str:
    """Whose message a library tag ("[TRT]", "[TRT-LLM]") says a line is; ``default`` where
    there is none."""
    if tag is None:
        return default
    return "trtllm" if "LLM" in tag else "trt"
