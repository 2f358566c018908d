"""Bytes to segments: line ends, redraws, ANSI codes, invalid UTF-8, gzip, unusable sources."""

from __future__ import annotations

import gzip
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import SAMPLES, examples
from trtlog.events import EngineLayer, LayerCount, ProgressUpdate, Unrecognized
from trtlog.parse import LogSourceError, parse_file, parse_text
from trtlog.parse.reader import clean_line, numbered_segments, open_log

TRT_LINE = "[03/19/2022-12:29:29] [V] [TRT] Original: 26 layers"


def test_crlf_line_ends_are_removed() -> None:
    assert list(numbered_segments([b"a\r\n", b"b\r\n"])) == [(1, "a"), (2, "b")]


def test_lone_carriage_returns_split_redraws() -> None:
    assert clean_line("[===-------] Timing 3/10\r[=====-----] Timing 5/10") == [
        "[===-------] Timing 3/10",
        "[=====-----] Timing 5/10",
    ]


def test_ansi_codes_are_stripped() -> None:
    # IProgressMonitor redraws from the 10.x cookbook: cursor up, column 0, erase line.
    assert clean_line("\x1b[1A\x1b[0G\x1b[2K[----------] Building engine 0/6") == [
        "[----------] Building engine 0/6"
    ]
    assert clean_line("\x1b[1;35mDEBUG: \x1b[0m[Torch-TensorRT - Debug Build] - Runtime:") == [
        "DEBUG: [Torch-TensorRT - Debug Build] - Runtime:"
    ]


def test_invalid_utf8_is_replaced() -> None:
    log = parse_text(b"[03/19/2022-12:29:29] [V] [TRT] Removing conv\xff\xfe_1\n")
    (event,) = log.events
    assert event.layer == "conv\ufffd\ufffd_1"


def test_overwritten_line_splits_at_embedded_timestamps() -> None:
    # An 8.6.1 log whose progress line was overwritten mid-message.
    line = (
        "[08/30/2026-03:51:53] [I] [TRT] Local timing cache in use. Profiling results in this builder pas"
        "[08/30/2026-04:08:32] [08/30/2026-04:08:52] [I] [TRT] Detected 1 inputs and 3 output network tensors."
    )
    assert clean_line(line) == [
        "[08/30/2026-03:51:53] [I] [TRT] Local timing cache in use. Profiling results in this builder pas",
        "[08/30/2026-04:08:32] ",
        "[08/30/2026-04:08:52] [I] [TRT] Detected 1 inputs and 3 output network tensors.",
    ]
    log = parse_text(line)
    assert log.counts.segments == 3 and log.counts.unrecognized == 1
    assert isinstance(log.events[0], Unrecognized)


STAMP = "[08/30/2026-04:08:32]"


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([STAMP, " [I] ", "/a/b", "[", "x", "/", "]"]), max_size=8))
def test_a_line_is_split_wherever_a_stamp_starts_after_its_first_character(
    parts: list[str],
) -> None:
    text = "".join(parts)
    starts = [index for index in range(1, len(text)) if text.startswith(STAMP, index)]
    cuts = [0, *starts, len(text)]
    expected = [text[a:b] for a, b in pairwise(cuts) if b > a] or [text]
    assert clean_line(text) == expected


def test_progress_bars_after_ansi_become_events() -> None:
    log = parse_text("\x1b[2K    [=---------] Timing graph nodes 23/229\n")
    (event,) = log.events
    assert isinstance(event, ProgressUpdate) and (event.done, event.total) == (23, 229)


def test_gzip_logs_are_read(tmp_path: Path) -> None:
    path = tmp_path / "build.log.gz"
    path.write_bytes(gzip.compress((TRT_LINE + "\n").encode()))
    log = parse_file(path)
    assert [type(event) for event in log.events] == [LayerCount]


def test_a_stray_nul_byte_does_not_make_a_log_binary(tmp_path: Path) -> None:
    text = (SAMPLES / "trtexec_8.x_build.log").read_bytes()
    line_end = text.index(b"\n", 2000)
    log = tmp_path / "stray.log"
    log.write_bytes(text[:line_end] + b"\x00" + text[line_end:])
    with open_log(log) as stream:
        assert stream.read() == text[:line_end] + b"\x00" + text[line_end:]
    zeros = tmp_path / "zeros.log"
    zeros.write_bytes(bytes(9000))
    with pytest.raises(LogSourceError, match="binary"):
        open_log(zeros)


def test_missing_file_directory_and_binary_are_refused(tmp_path: Path) -> None:
    with pytest.raises(LogSourceError, match="no such file"):
        open_log(tmp_path / "absent.log")
    with pytest.raises(LogSourceError, match="is a directory"):
        open_log(tmp_path)
    binary = tmp_path / "model.engine"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(LogSourceError, match="binary"):
        open_log(binary)


def test_truncated_gzip_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.log.gz"
    path.write_bytes(gzip.compress((TRT_LINE + "\n").encode() * 20000)[:2000])
    with pytest.raises(LogSourceError):
        parse_file(path)


def test_continuation_lines_belong_to_the_record_above() -> None:
    log = parse_text(
        "[07/07/2026-02:11:24] [V] [TRT] Engine Layer Information:\n"
        "Layer(CaskPooling): node_max_pool2d, Tactic: 0xdd39499496c9cc38, relu (Float[-1,32,28,28]) -> max_pool2d (Float[-1,32,14,14])\n"
        "[07/07/2026-02:11:24] [I] [TRT] [MemUsageStats] Peak memory usage of TRT CPU/GPU memory allocators: CPU 6 MiB, GPU 37 MiB\n"
    )
    layer = log.of(EngineLayer)[0]
    # The bare layer line carries the envelope of the record it belongs to.
    assert (layer.line, layer.severity, layer.producer) == (2, "verbose", "trt")
    assert layer.timestamp is not None and layer.timestamp.hour == 2
