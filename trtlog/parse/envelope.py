"""Split a line into its envelope (timestamp, severity, producer) and its message body with the
grammar (``split_envelope``). The native core splits the prefixes of nearly every line
(``trtlog.parse.envelope_split``), which gives the same."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import cache, lru_cache
from typing import cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError

from trtlog.grammars import grammar_cache

# The envelope grammar's file in the package's grammar folder, and its start rule.
ENVELOPE_GRAMMAR = "envelope.lark"
ENVELOPE_START = "envelope_line"

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
RELAYING_PRODUCERS = frozenset({"trtllm", "torch_tensorrt", "polygraphy", "word-logger"})
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


def edge_llm_envelope(stamp: str, level: str, source: str) -> Envelope:
    producer = "trt" if source == "TensorRT" else "edgellm"
    return Envelope("edge-llm", parse_clock_stamp(stamp), EDGE_LLM_LEVELS[level], producer)


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


def iso_stamped_envelope(stamp_and_level: str) -> Envelope:
    """``[YYYY-MM-DD HH:MM:SS LEVEL]`` of onnx2trt's and ONNX Runtime's TensorRT loggers."""
    stamp, _, level = stamp_and_level.strip().strip("[]").rpartition(" ")
    return Envelope("onnx-tensorrt", parse_iso_stamp(stamp), RELAYED_LEVELS[level], "trt")


def onnxruntime_envelope(prefix: str, relayed: str | None) -> Envelope:
    """ONNX Runtime's prefix; with the stamp of its TensorRT logger after it, TensorRT's message
    at TensorRT's level, stamped with ONNX Runtime's finer local time."""
    stamp, _, rest = prefix.partition(" [")
    timestamp = parse_iso_stamp(stamp)
    if relayed is None:
        return Envelope("onnxruntime", timestamp, LEVELS[rest[0]], "onnxruntime")
    return Envelope("onnxruntime", timestamp, iso_stamped_envelope(relayed).severity, "trt")


# The source files of the loggers of TensorRT that print glog's prefix, and the envelope style of
# their lines: Triton's TensorRT backend's, and Paddle Inference's (paddle/fluid/inference/
# tensorrt/helper.h: VERBOSE and INFO as glog's I, WARNING and ERROR as W and E).
GLOG_TENSORRT_LOGGERS = {"logging.cc": "triton", "helper.h": "paddle"}


def triton_envelope(prefix: str) -> Envelope:
    """glog's ``I0511 01:22:37.728144 1 logging.cc:52] ``: TensorRT's message when Triton's
    TensorRT backend's logger (or Paddle Inference's) wrote it, the program's own otherwise.
    The stamp has no year: it is dated in ``UNDATED``'s year (29 February, which that year
    lacks, leaves it without one)."""
    # glog's pieces, a blank after each: the level letter with the day, the time of day (the
    # two are the stamp), the thread, the source file and line.
    day, time, _thread, source = prefix.split(maxsplit=3)
    logger_style = GLOG_TENSORRT_LOGGERS.get(source.partition(":")[0])
    stamp = parse_triton_stamp(f"{day[1:]} {time}")
    if logger_style is None:
        return Envelope("glog", stamp, LEVELS[prefix[0]], "glog")
    return Envelope(logger_style, stamp, LEVELS[prefix[0]], "trt")


# The source file of TF-TRT's logger of TensorRT.
TENSORFLOW_TENSORRT_LOGGER = "trt_logger.cc"


def tensorflow_envelope(prefix: str) -> Envelope:
    """TensorFlow's ``2021-01-07 22:13:55.902438: E tensorflow/.../trt_logger.cc:41]
    DefaultLogger ``: TensorRT's message where TF-TRT's logger wrote it (its name after the
    source), TensorFlow's own otherwise. The stamp is local time."""
    stamp, _, rest = prefix.partition(": ")
    source = rest[2:].partition(":")[0]
    producer = "trt" if source.rpartition("/")[2] == TENSORFLOW_TENSORRT_LOGGER else "tensorflow"
    try:
        timestamp: datetime | None = datetime.fromisoformat(stamp)
    except ValueError:
        timestamp = None
    return Envelope("tensorflow", timestamp, LEVELS[rest[0]], producer)


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


def _level(tag: Token | str) -> str:
    return LEVELS.get(tag.strip().strip("[]:"), tag.strip())


def _library_producer(tag: Token | None, default: str) -> str:
    if tag is None:
        return default
    return "trtllm" if "LLM" in tag else "trt"


def torch_tensorrt_envelope(prefix: str) -> Envelope:
    """Torch-TensorRT 1.x's "DEBUG: [Torch-TensorRT TorchScript Conversion Context] - "."""
    level = prefix.split(":", 1)[0]
    producer = "trt" if "Conversion Context" in prefix else "torch_tensorrt"
    return Envelope("torch-tensorrt", None, _level(level), producer)


def python_logging_envelope(prefix: str) -> Envelope:
    """Python's logging module's "LEVEL:logger[ [context]]:" (Torch-TensorRT 2.x)."""
    level, logger = prefix.split(":", 2)[:2]
    # torch-tensorrt 2.x relays TensorRT's logger as "[TensorRT Conversion Context]"; its
    # other Python loggers (torch_tensorrt.dynamo...) speak for torch-tensorrt itself: only
    # its own forms are read from them (``torch_tensorrt_only``), the rest is foreign.
    if "[TensorRT Conversion Context]" in logger:
        producer = "trt"
    elif logger == "torch_tensorrt" or logger.startswith("torch_tensorrt."):
        producer = "torch_tensorrt"
    else:
        producer = "python"
    return Envelope("python-logging", None, _level(level), producer)


def python_logging_stamped_envelope(prefix: str) -> Envelope:
    """Python's logging cookbook's "2026-05-01 00:04:05,398 - logger[ [context]] - LEVEL - "."""
    stamp, rest = prefix[:23], prefix[26:]
    logger, level = rest.removesuffix(" - ").rsplit(" - ", 1)
    envelope = python_logging_envelope(f"{level}:{logger}:")
    return replace(envelope, timestamp=datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f"))


@v_args(inline=True)
class EnvelopeTransformer(Transformer):
    """Builds ``(Envelope, body)`` from the envelope grammar's tree."""

    def envelope_line(self, envelope: Envelope | None, body: Token | None) -> tuple[Envelope, str]:
        return (envelope or NO_ENVELOPE, str(body) if body is not None else "")

    def trtexec_envelope(self, stamp: Token, level: Token, library: Token | None) -> Envelope:
        return Envelope(
            "trtexec",
            parse_timestamp(stamp.rstrip()),
            _level(level),
            _library_producer(library, "trtexec"),
        )

    def python_api_envelope(self, stamp: Token, library: Token, level: Token | None) -> Envelope:
        return Envelope(
            "python-api",
            parse_timestamp(stamp.rstrip()),
            None if level is None else _level(level),
            _library_producer(library, "trt"),
        )

    def timestamp_only_envelope(self, stamp: Token) -> Envelope:
        return Envelope("trtexec", parse_timestamp(stamp.rstrip()), None, "trtexec")

    def level_envelope(self, level: Token, library: Token | None) -> Envelope:
        return Envelope("level", None, _level(level), _library_producer(library, "logger"))

    def pasted_level_envelope(self, tags: Token) -> Envelope:
        first, second = tags.split()[:2]
        if first == "[TRT]":
            return Envelope("python-api", None, _level(second), "trt")
        return Envelope("level", None, _level(first), "trt")

    def library_level_envelope(self, library: Token, level: Token) -> Envelope:
        return Envelope("python-api", None, _level(level), _library_producer(library, "trt"))

    def python_trt_envelope(self, prefix: Token) -> Envelope:
        level = prefix[len("[TensorRT] ") :].rstrip().rstrip(":")
        return Envelope("python-legacy", None, _level(level), "trt")

    def torch_tensorrt_envelope(self, prefix: Token) -> Envelope:
        return torch_tensorrt_envelope(str(prefix))

    def python_logging_envelope(self, prefix: Token) -> Envelope:
        return python_logging_envelope(str(prefix))

    def python_logging_stamped_envelope(self, prefix: Token) -> Envelope:
        return python_logging_stamped_envelope(str(prefix))

    def wrapped_envelope(self, prefix: Token, envelope: Envelope | None) -> Envelope:
        return envelope or NO_ENVELOPE

    def word_level_envelope(self, tag: Token, library: Token | None) -> Envelope:
        # The program's own lines print the same tag as TensorRT's messages, unless a library
        # tag says whose they are.
        producer = _library_producer(library, "word-logger")
        return Envelope("word-level", None, RELAYED_LEVELS[tag.strip()[1:-1]], producer)

    def jetson_envelope(self, tag: Token) -> Envelope:
        return Envelope("jetson-inference", None, None, "trt")

    def edge_llm_envelope(self, stamp: Token, level: Token, source: Token) -> Envelope:
        return edge_llm_envelope(stamp.rstrip(), level.strip().strip("[]"), source.strip()[1:-1])

    def deepstream_envelope(self, prefix: Token) -> Envelope:
        return Envelope("deepstream", None, RELAYED_LEVELS[prefix.split(":", 1)[0]], "trt")

    def iso_stamped_envelope(self, stamp_and_level: Token) -> Envelope:
        return iso_stamped_envelope(stamp_and_level)

    def onnxruntime_envelope(self, prefix: Token, relayed: Token | None) -> Envelope:
        return onnxruntime_envelope(prefix, relayed)

    def triton_envelope(self, prefix: Token) -> Envelope:
        return triton_envelope(prefix)

    def tensorflow_envelope(self, prefix: Token) -> Envelope:
        return tensorflow_envelope(prefix)

    def trtllm_runtime_envelope(self, prefix: Token) -> Envelope:
        level = prefix.split("]", 2)[1].lstrip("[")
        return Envelope("tensorrt-llm-runtime", None, RELAYED_LEVELS[level], "trtllm")


@cache
def envelope_parser() -> Lark:
    """The LALR parser of the envelope grammar (``trtlog/grammars/envelope.lark``, read by Lark's
    own loader from the package), with the transformer applied while parsing; kept analysed
    between runs as the message grammar is (``grammar_cache``)."""
    return Lark.open_from_package(
        "trtlog",
        ENVELOPE_GRAMMAR,
        ("grammars",),
        start=ENVELOPE_START,
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=True,
        transformer=EnvelopeTransformer(),
        cache=grammar_cache("envelope") or False,
    )


def split_envelope(line: str) -> tuple[Envelope, str]:
    """The envelope of ``line`` and the message body after it (never raises)."""
    if not line:
        return NO_ENVELOPE, ""
    try:
        return cast(tuple[Envelope, str], envelope_parser().parse(line))
    except LarkError:
        # A prefix that starts like an envelope but does not finish as one: no envelope.
        return NO_ENVELOPE, line
