"""Output of ``trtlog parse``: a rich summary, a JSON document, or a JSON-lines event stream."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from trtlog.events import Event
from trtlog.parse import LineCounter, ParsedLog, iter_events
from trtlog.parse.capture_times import read_capture
from trtlog.parse.reader import LogSourceError, open_log
from trtlog.parse.records import RecordParser
from trtlog.parse.serialize import event_to_dict
from trtlog.parse.summary import summarize
from trtlog.sources import Sources, parse_sources


@contextmanager
def _output(out: Path | None) -> Iterator[TextIO]:
    if out is None:
        yield sys.stdout
        return
    with out.open("w", encoding="utf-8") as stream:
        yield stream


def write_parse_output(sources: Sources, output_format: str, out: Path | None, store: bool) -> None:
    if output_format == "jsonl":
        log = _write_jsonl(sources, out)
    else:
        log = parse_sources(sources)
        _write_document(log, output_format, out)
    if store:
        from trtlog.store import Store

        Store().add(sources, log)


def _write_document(log: ParsedLog, output_format: str, out: Path | None) -> None:
    summary = summarize(log)
    with _output(out) as stream:
        if output_format == "json":
            document = {
                "source": log.source,
                "summary": summary.as_dict(),
                "events": [event_to_dict(event) for event in log.events],
            }
            json.dump(document, stream, indent=1)
            stream.write("\n")
        else:
            from trtlog.cli.render_summary import render_summary

            render_summary(summary, stream)


def _write_jsonl(sources: Sources, out: Path | None) -> ParsedLog:
    # Writes each event of the log as soon as it is parsed, then the exports' events.
    parser = RecordParser()
    parsed = ParsedLog(source=sources.label)
    exports = parse_sources(replace(sources, log=None)).events
    with _output(out) as stream:
        if sources.log is not None:
            with open_log(sources.log) as log:
                counter = LineCounter(log)
                events = iter_events(counter, parser)
                if sources.capture is not None:
                    events = read_capture(sources.capture).stamp(events)
                try:
                    for event in events:
                        parsed.events.append(event)
                        _write_event(stream, event)
                except (OSError, EOFError) as error:
                    raise LogSourceError(f"{sources.log}: read failed ({error})") from error
            parsed.counts = parser.counts
            parsed.physical_lines = counter.count
        for event in exports:
            parsed.events.append(event)
            _write_event(stream, event)
    return parsed


def _write_event(stream: TextIO, event: Event) -> None:
    stream.write(json.dumps(event_to_dict(event)))
    stream.write("\n")
