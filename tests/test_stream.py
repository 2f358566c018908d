"""Streaming: tables built in one pass over a log, without keeping its bulk, are the tables
built from all its events."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import CORPUS_LOGS, SAMPLES, corpus_dir, needs_corpus
from trtlog.analysis import TABLES, BuildLog
from trtlog.analysis.stream import TableStream
from trtlog.events import MyelinTrace, SetTacticName, TacticTiming
from trtlog.parse import parse_file
from trtlog.store.sources import read_sources, resolve, stream_build_log

ALL_LOGS = sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda path: path.name)
def test_streamed_tables_are_the_in_memory_tables(path: Path) -> None:
    streamed = stream_build_log(resolve(path))
    in_memory = BuildLog.from_parsed(parse_file(path))
    assert asdict(streamed.summary) == asdict(in_memory.summary)
    for name in TABLES:
        pd.testing.assert_frame_equal(streamed.table(name), in_memory.table(name), obj=name)


@pytest.mark.slow
@needs_corpus
def test_stream_keeps_no_bulk_rows() -> None:
    path = corpus_dir() / "logs" / "hackathon_trt10.16.1_trtexec_build_h100.log"
    stream = TableStream()
    read_sources(resolve(path), stream.feed)
    kept = {type(event) for event in stream.events}
    assert not kept & {TacticTiming, MyelinTrace, SetTacticName}
    # They were read all the same: counted, and in the tactics table.
    all_events = parse_file(path).events
    timings = sum(isinstance(event, TacticTiming) for event in all_events)
    assert timings > 1000
    assert len(stream.tactics.tables()[0]) == timings
    assert len(stream.events) < len(all_events) - timings
