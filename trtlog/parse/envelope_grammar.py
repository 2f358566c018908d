"""Split a line into its envelope and its message body with the envelope grammar
(``split_envelope``): the envelopes of TensorRT's own loggers and of the programs around it
(``trtlog/grammars/envelope.lark``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import cache
from typing import cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError

from trtlog.grammars import grammar_cache
from trtlog.parse.envelope import (
    EDGE_LLM_LEVELS,
    LEVELS,
    NO_ENVELOPE,
    RELAYED_LEVELS,
    UNDATED,
    Envelope,
    level_of,
    library_producer,
    parse_clock_stamp,
    parse_iso_stamp,
    parse_timestamp,
    parse_triton_stamp,
)

# The envelope grammar's file in the package's grammar folder, and its start rule.
ENVELOPE_GRAMMAR = "envelope.lark"
ENVELOPE_START = "envelope_line"


def edge_llm_envelope(stamp: str, level: str, source: str) -> Envelope:
    producer = "trt" if source == "TensorRT" else "edgellm"
    return Envelope("edge-llm", parse_clock_stamp(stamp), EDGE_LLM_LEVELS[level], producer)


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


def torch_tensorrt_envelope(prefix: str) -> Envelope:
    """Torch-TensorRT 1.x's "DEBUG: [Torch-TensorRT TorchScript Conversion Context] - "."""
    level = prefix.split(":", 1)[0]
    producer = "trt" if "Conversion Context" in prefix else "torch_tensorrt"
    return Envelope("torch-tensorrt", None, level_of(level), producer)


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
    return Envelope("python-logging", None, level_of(level), producer)


def python_logging_bracketed_envelope(prefix: str) -> Envelope:
    """ "[2023-03-23 16:02:43] logger LEVEL : ": a logger named after TensorRT (Frigate's TensorRT
    detector) relays its messages and says some of its own; any other speaks for its program."""
    stamp, _, rest = prefix[1:].partition("] ")
    logger, level = rest.split()[:2]
    producer = "python-relay" if "tensorrt" in logger.lower() else "python"
    timestamp = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S")
    return Envelope("python-relay", timestamp, level_of(level), producer)


def python_logging_leveled_envelope(prefix: str) -> Envelope:
    """ "[YYYY-MM-DD ]HH:MM:SS[,mmm] - LEVEL - ": TensorRT's messages relayed with the
    application's own; a time of day alone is dated in ``UNDATED``'s year."""
    stamp, level = prefix.split(" - ")[:2]
    clock = stamp.rpartition(" ")[2]
    day = stamp[:10] if len(stamp) > len(clock) else UNDATED.isoformat()
    try:
        timestamp: datetime | None = datetime.fromisoformat(f"{day}T{clock.replace(',', '.')}")
    except ValueError:
        timestamp = None
    return Envelope("python-relay", timestamp, level_of(level), "python-relay")


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
            level_of(level),
            library_producer(library, "trtexec"),
        )

    def python_api_envelope(self, stamp: Token, library: Token, level: Token | None) -> Envelope:
        return Envelope(
            "python-api",
            parse_timestamp(stamp.rstrip()),
            None if level is None else level_of(level),
            library_producer(library, "trt"),
        )

    def timestamp_only_envelope(self, stamp: Token) -> Envelope:
        return Envelope("trtexec", parse_timestamp(stamp.rstrip()), None, "trtexec")

    def level_envelope(self, level: Token, library: Token | None) -> Envelope:
        return Envelope("level", None, level_of(level), library_producer(library, "logger"))

    def pasted_level_envelope(self, tags: Token) -> Envelope:
        first, second = tags.split()[:2]
        if first == "[TRT]":
            return Envelope("python-api", None, level_of(second), "trt")
        return Envelope("level", None, level_of(first), "trt")

    def library_level_envelope(self, library: Token, level: Token) -> Envelope:
        return Envelope("python-api", None, level_of(level), library_producer(library, "trt"))

    def python_trt_envelope(self, prefix: Token) -> Envelope:
        level = prefix[len("[TensorRT] ") :].rstrip().rstrip(":")
        return Envelope("python-legacy", None, level_of(level), "trt")

    def torch_tensorrt_envelope(self, prefix: Token) -> Envelope:
        return torch_tensorrt_envelope(str(prefix))

    def python_logging_envelope(self, prefix: Token) -> Envelope:
        return python_logging_envelope(str(prefix))

    def python_logging_stamped_envelope(self, prefix: Token) -> Envelope:
        return python_logging_stamped_envelope(str(prefix))

    def python_logging_bracketed_envelope(self, prefix: Token) -> Envelope:
        return python_logging_bracketed_envelope(str(prefix))

    def python_logging_leveled_envelope(self, prefix: Token) -> Envelope:
        return python_logging_leveled_envelope(str(prefix))

    def wrapped_envelope(self, prefix: Token, envelope: Envelope | None) -> Envelope:
        return envelope or NO_ENVELOPE

    def word_level_envelope(self, tag: Token, library: Token | None) -> Envelope:
        # The program's own lines print the same tag as TensorRT's messages, unless a library
        # tag says whose they are.
        producer = library_producer(library, "word-logger")
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
