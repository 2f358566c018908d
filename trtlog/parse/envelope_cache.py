"""The envelopes of nearly every line, split with regular expressions and a cache of the
envelopes seen: the same ``(Envelope, body)`` as the envelope grammar (``split_envelope``), or
None where only the grammar can tell (``tests/test_grammar_rules.py`` compares the two)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import NamedTuple

from trtlog.parse.envelope import (
    LEVELS,
    NO_ENVELOPE,
    RELAYED_LEVELS,
    Envelope,
    edge_llm_envelope,
    envelope_parser,
    iso_stamped_envelope,
    onnxruntime_envelope,
    parse_timestamp,
    python_logging_envelope,
    torch_tensorrt_envelope,
    triton_envelope,
)
from trtlog.parse.grammar import non_capturing

# The longest text the timestamped envelope matches ("[ts] [V] [TRT-LLM] "): what it makes of a
# line depends on the line's first ``_HEAD`` characters alone (it has no lookahead).
_HEAD = 36
# Every envelope starts with "[" but those of Python's logging module (Torch-TensorRT), of
# DeepStream, of ONNX Runtime and of Triton.
_LOGGING_PREFIXES = ("DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:")
# What may follow the "[" of an envelope: a digit (a date or a time of day), a level letter, or
# the T of "[TRT]" and "[TensorRT]". A line whose second character is none of these (a progress
# bar's "[=====-----]") has no envelope.
_ENVELOPE_SECOND = frozenset("VIWEFXSU!T")
# Envelopes and heads kept before all are forgotten (a log moves on second by second).
_KEPT = 4096


class EnvelopeCache:
    """Envelopes by prefix: the lines of one second at one level share one."""

    def __init__(self) -> None:
        self._patterns = _patterns()
        self._envelopes: dict[str, Envelope] = {}
        # A timestamped line's first ``_HEAD`` characters -> its envelope and where its body
        # starts: the lines of one second at one level start with a few dozen heads, and a
        # lookup costs less than matching ``_TIMESTAMPED`` again.
        self._heads: dict[str, tuple[Envelope, int]] = {}

    def split(self, line: str) -> tuple[Envelope, str] | None:
        """The envelope and body of a line; None where the grammar must decide."""
        head = line[:_HEAD]
        known = self._heads.get(head)
        if known is not None:
            envelope, end = known
            return envelope, line[end:]
        patterns = self._patterns
        if not line.startswith("["):
            if line.startswith(_LOGGING_PREFIXES):
                return self._logging(line)
            first = line[:1]
            if first.isdigit():
                match = patterns.onnxruntime.match(line)
                if match is not None:
                    return self._shared(line, match, _onnxruntime_envelope), line[match.end() :]
            elif first in ("I", "W", "E", "F"):
                match = patterns.triton.match(line)
                if match is not None:
                    return self._shared(line, match, _triton_envelope), line[match.end() :]
            return NO_ENVELOPE, line
        second = line[1:2]
        if second not in _ENVELOPE_SECOND and not second.isdigit():
            return NO_ENVELOPE, line
        match = patterns.timestamped.match(line)
        if match is not None:
            envelope = self._shared(line, match, _envelope)
            heads = self._heads
            if len(heads) > _KEPT:
                heads.clear()
            heads[head] = (envelope, match.end())
            return envelope, line[match.end() :]
        match = patterns.unstamped.match(line)
        if match is not None:
            return self._shared(line, match, _unstamped_envelope), line[match.end() :]
        match = patterns.clocked.match(line)
        if match is not None:
            return self._shared(line, match, _clocked_envelope), line[match.end() :]
        match = patterns.iso_stamped.match(line)
        if match is not None:
            return self._shared(line, match, _iso_stamped_envelope), line[match.end() :]
        return None

    def _logging(self, line: str) -> tuple[Envelope, str] | None:
        """A line that starts like a Python logger's level: DeepStream's, Torch-TensorRT's or
        Python's logging module's envelope, each matched by the grammar's own terminal."""
        deepstream, torch_tensorrt, logging = _logging_patterns()
        match = deepstream.match(line)
        if match is not None:
            return self._shared(line, match, _deepstream_envelope), line[match.end() :]
        match = torch_tensorrt.match(line)
        if match is not None:
            envelope = self._shared(line, match, _torch_tensorrt_envelope)
            return envelope, line[match.end() :]
        match = logging.match(line)
        if match is not None:
            return self._shared(line, match, _python_logging_envelope), line[match.end() :]
        # None of the envelopes that start with a level word: none at all.
        return NO_ENVELOPE, line

    def _shared(
        self, line: str, match: re.Match[str], make: Callable[[re.Match[str]], Envelope]
    ) -> Envelope:
        """The envelope of the prefix ``match`` found: one object for every line with it."""
        prefix = line[: match.end()]
        envelope = self._envelopes.get(prefix)
        if envelope is None:
            envelopes = self._envelopes
            if len(envelopes) > _KEPT:
                envelopes.clear()
            envelope = envelopes[prefix] = make(match)
        return envelope


class _Patterns(NamedTuple):
    """The envelopes the cache splits itself, put together from the envelope grammar's terminals,
    each terminal a group: trtexec's "[ts] [V] [TRT] " and "[ts] [I] ", the Python API's
    "[ts] [TRT] [V] " (``timestamped``), TensorRT-Edge-LLM's "[13:47:39.127] [INFO] [TensorRT] "
    (``clocked``), the envelopes without a timestamp of the Python logger of 6.x-8.0 and custom
    loggers' bare levels (``unstamped``), onnx2trt's and ONNX Runtime's TensorRT loggers
    (``iso_stamped``), ONNX Runtime's prefix with its TensorRT logger's stamp when it relays
    TensorRT's message (``onnxruntime``), and Triton's "I0511 01:22:37.728144 1 logging.cc:52] "
    (glog's format, F for fatal). Other envelopes, and lines that may have none, go to the
    grammar."""

    timestamped: re.Pattern[str]
    clocked: re.Pattern[str]
    unstamped: re.Pattern[str]
    iso_stamped: re.Pattern[str]
    onnxruntime: re.Pattern[str]
    triton: re.Pattern[str]


@cache
def _patterns() -> _Patterns:
    lark = envelope_parser()

    def group(name: str) -> str:
        return f"({non_capturing(lark.get_terminal(name).pattern.to_regexp())})"

    stamp, level, library = group("TIMESTAMP"), group("LEVEL_TAG"), group("LIBRARY_TAG")
    iso_stamp = group("ISO_STAMP_LEVEL")
    return _Patterns(
        timestamped=re.compile(f"{stamp}(?:{level}{library}?|{library}{level}?)"),
        clocked=re.compile(group("CLOCK_STAMP") + group("WORD_LEVEL_TAG") + group("SOURCE_TAG")),
        unstamped=re.compile(f"{group('PYTHON_TRT_LEVEL')}|{level}{library}?"),
        iso_stamped=re.compile(iso_stamp),
        onnxruntime=re.compile(f"{group('ONNXRUNTIME_PREFIX')}{iso_stamp}?"),
        triton=re.compile(group("TRITON_PREFIX")),
    )


@cache
def _logging_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The grammar's DEEPSTREAM_PREFIX, TORCH_TRT_PREFIX and PYTHON_LOGGING_PREFIX terminals."""
    lark = envelope_parser()
    names = ("DEEPSTREAM_PREFIX", "TORCH_TRT_PREFIX", "PYTHON_LOGGING_PREFIX")
    deepstream, torch_tensorrt, logging = (
        re.compile(lark.get_terminal(name).pattern.to_regexp()) for name in names
    )
    return deepstream, torch_tensorrt, logging


def _torch_tensorrt_envelope(match: re.Match[str]) -> Envelope:
    return torch_tensorrt_envelope(match.group())


def _python_logging_envelope(match: re.Match[str]) -> Envelope:
    return python_logging_envelope(match.group())


def _clocked_envelope(match: re.Match[str]) -> Envelope:
    stamp, level, source = match.groups()
    return edge_llm_envelope(stamp.rstrip(), level.strip().strip("[]"), source.strip()[1:-1])


def _deepstream_envelope(match: re.Match[str]) -> Envelope:
    return Envelope("deepstream", None, RELAYED_LEVELS[match.group().split(":", 1)[0]], "trt")


def _iso_stamped_envelope(match: re.Match[str]) -> Envelope:
    return iso_stamped_envelope(match.group())


def _onnxruntime_envelope(match: re.Match[str]) -> Envelope:
    prefix, relayed = match.groups()
    return onnxruntime_envelope(prefix, relayed)


def _triton_envelope(match: re.Match[str]) -> Envelope:
    return triton_envelope(match.group())


# A level tag is "[V] ", its level the letter.
_LEVEL_LETTER = 1


def _unstamped_envelope(match: re.Match[str]) -> Envelope:
    python_prefix, level, library = match.groups()
    if python_prefix is not None:
        # "[TensorRT] VERBOSE: "
        python_level = python_prefix[len("[TensorRT] ") :].rstrip().rstrip(":")
        return Envelope("python-legacy", None, LEVELS[python_level], "trt")
    producer = "logger" if library is None else ("trtllm" if "LLM" in library else "trt")
    return Envelope("level", None, LEVELS[level[_LEVEL_LETTER]], producer)


def _envelope(match: re.Match[str]) -> Envelope:
    stamp, level, library, python_library, python_level = match.groups()
    timestamp: datetime | None = parse_timestamp(stamp.rstrip())
    if level is not None:
        producer = "trtexec" if library is None else ("trtllm" if "LLM" in library else "trt")
        return Envelope("trtexec", timestamp, LEVELS[level[_LEVEL_LETTER]], producer)
    producer = "trtllm" if "LLM" in python_library else "trt"
    level_name = None if python_level is None else LEVELS[python_level[_LEVEL_LETTER]]
    return Envelope("python-api", timestamp, level_name, producer)


__all__ = ["EnvelopeCache"]
