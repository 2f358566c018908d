"""Streaming: tables built in one pass over a log, without keeping its bulk, are the tables
built from all its events."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS_LOGS, SAMPLES, corpus_dir, needs_corpus
from trtlog.analysis import TABLES, BuildLog
from trtlog.analysis.stream import KeptEvents, TableStream
from trtlog.analysis.tactics import TacticCollector
from trtlog.analysis.timeline.builder import TimelineBuilder
from trtlog.cli.app import app
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


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.log")), ids=lambda path: path.name)
def test_the_events_kept_alone_give_the_summary_and_events_of_the_table_stream(
    path: Path,
) -> None:
    tables, kept = TableStream(), KeptEvents()
    shell = read_sources(resolve(path), tables.feed)
    read_sources(resolve(path), kept.feed)
    assert kept.events == tables.events and kept.families == tables.families
    with_tables = BuildLog.from_stream(shell, tables)
    alone = BuildLog.from_stream(shell, kept, reread=lambda: parse_file(path).events)
    assert asdict(alone.summary) == asdict(with_tables.summary)
    # Tables not built as the log was read are made from its events read again.
    for name in ("tactics", "choices", "timeline"):
        pd.testing.assert_frame_equal(alone.table(name), with_tables.table(name), obj=name)


def test_jsonl_without_the_store_builds_no_tables_and_writes_what_it_does_with_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    monkeypatch.setenv("TRTLOG_STORE", str(tmp_path / "store"))
    runner = CliRunner()
    stored = runner.invoke(app, ["parse", str(path), "--format", "jsonl", "--store"])
    assert stored.exit_code == 0, stored.output

    def refused(self: object, item: object) -> None:
        raise AssertionError("a table was built")

    monkeypatch.setattr(TacticCollector, "feed", refused)
    monkeypatch.setattr(TimelineBuilder, "feed", refused)
    alone = runner.invoke(app, ["parse", str(path), "--format", "jsonl", "--no-store"])
    assert alone.exit_code == 0, alone.output
    assert alone.output == stored.output
    assert len(alone.output.splitlines()) == len(parse_file(path).events)


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", CORPUS_LOGS, ids=lambda path: path.name)
def test_the_events_kept_alone_give_the_summary_of_a_real_log(path: Path) -> None:
    tables, kept = TableStream(), KeptEvents()
    shell = read_sources(resolve(path), tables.feed)
    read_sources(resolve(path), kept.feed)
    assert kept.events == tables.events and kept.families == tables.families
    alone = BuildLog.from_stream(shell, kept)
    assert asdict(alone.summary) == asdict(BuildLog.from_stream(shell, tables).summary)
