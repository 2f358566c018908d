"""Output of ``trtlog parse``: a rich summary, a JSON document, or a JSON-lines event stream."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from trtlog.parse import iter_events, parse_file
from trtlog.parse.reader import LogSourceError, open_log
from trtlog.parse.serialize import event_to_dict
from trtlog.parse.summary import summarize


@contextmanager
def _output(out: Path | None) -> Iterator[TextIO]:
    if out is None:
        yield sys.stdout
        return
    with out.open("w", encoding="utf-8") as stream:
        yield stream


def write_parse_output(source: str, output_format: str, out: Path | None) -> None:
    if output_format == "jsonl":
        _write_jsonl(source, out)
        return
    log = parse_file(source)
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


def _write_jsonl(source: str, out: Path | None) -> None:
    # Streams as it reads: one event per line, nothing kept in memory.
    with open_log(source) as log, _output(out) as stream:
        try:
            for event in iter_events(log):
                stream.write(json.dumps(event_to_dict(event)))
                stream.write("\n")
        except (OSError, EOFError) as error:
            raise LogSourceError(f"{source}: read failed ({error})") from error
