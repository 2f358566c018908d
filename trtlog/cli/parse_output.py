"""Output of ``trtlog parse``: a rich summary, a JSON document, or a JSON-lines event stream."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from trtlog.analysis import BuildLog
from trtlog.analysis.stream import KeptEvents, TableStream
from trtlog.cli.progress import bytes_bar
from trtlog.parse import ParsedLog
from trtlog.parse.items import Item, LineBlock
from trtlog.parse.reader import open_log
from trtlog.parse.serialize import block_json, event_json, event_to_dict, to_plain
from trtlog.parse.summary import require_tensorrt_lines
from trtlog.store import Store, file_stats, sources_key, store_dir
from trtlog.store.cache import size_limit
from trtlog.store.sources import (
    Sources,
    parse_sources,
    read_sources,
    spooled,
    stream_build_log,
    streamed,
)


@contextmanager
def _output(out: Path | None) -> Iterator[TextIO]:
    if out is None:
        yield sys.stdout
        return
    with out.open("w", encoding="utf-8") as stream:
        yield stream


def write_parse_output(
    sources: Sources,
    output_format: str,
    out: Path | None,
    store: bool,
    jobs: int = 1,
    quiet: bool = False,
) -> None:
    """The summary and the JSON-lines stream read the log in one pass without keeping its
    bulk (any size of log); the JSON document holds every event. ``jobs``: the processes that
    build a large log's tables for the store. A large log's parse shows a progress bar on a
    terminal unless ``quiet``."""
    if store:
        # A bad setting is said before a long parse, not after it.
        size_limit()
    if sources.log is not None and not streamed(sources.log):
        # Refused from its first bytes (a binary file) before it is hashed whole (a stream
        # is refused as it is copied, ``spooled``).
        open_log(sources.log).close()
    with spooled(sources, store_dir()) as readable, ThreadPoolExecutor(1) as hashing:
        # What the files were before they were read: one that changes meanwhile (a build still
        # writing its log) is parsed again next time.
        before = _stats_if_readable(sources) if store and not streamed(sources.log) else None
        # The store's key (a hash of the whole file) is worked out on another core meanwhile.
        key = hashing.submit(sources_key, readable) if store else None
        # Events streamed to a terminal would run through the bar.
        quiet = quiet or (output_format == "jsonl" and out is None and sys.stdout.isatty())
        bar = bytes_bar(f"parsing {Path(sources.label).name}", _log_bytes(readable), quiet)
        if output_format == "jsonl":
            with bar:
                log = _write_jsonl(readable, out, bar.callback, tables=store)
            require_tensorrt_lines(sources.log, log.summary)
        elif output_format == "json":
            with bar:
                parsed = parse_sources(readable, bar.callback)
            log = BuildLog.from_parsed(parsed)
            require_tensorrt_lines(sources.log, log.summary)
            _write_document(parsed, log, out)
        else:
            with bar:
                log = stream_build_log(readable, bar.callback)
            # Not a log (a README, an empty file): said so, and neither kept nor current.
            require_tensorrt_lines(sources.log, log.summary)
            try:
                with _output(out) as stream:
                    from trtlog.cli.render_summary import render_summary

                    render_summary(log.summary, stream)
            finally:
                # The log is parsed: it is kept even when the summary's reader stops early
                # (``trtlog parse LOG | head``, a broken pipe).
                if key is not None:
                    Store(jobs=jobs).add(sources, log, readable, key=key.result(), before=before)
            return
        if key is not None:
            Store(jobs=jobs).add(sources, log, readable, key=key.result(), before=before)


def _stats_if_readable(sources: Sources) -> dict[str, dict[str, int]] | None:
    """``file_stats`` of ``sources``; None where a file is missing (the parse says so)."""
    try:
        return file_stats(sources)
    except OSError:
        return None


def _write_document(parsed: ParsedLog, log: BuildLog, out: Path | None) -> None:
    document = {
        "source": parsed.source,
        "summary": to_plain(log.summary.as_dict()),
        "events": [event_to_dict(event) for event in parsed.events],
    }
    with _output(out) as stream:
        json.dump(document, stream, indent=1, allow_nan=False)
        stream.write("\n")


def _log_bytes(sources: Sources) -> int:
    """The size of the log file that is parsed (0 where there is none to measure)."""
    if sources.log is None or streamed(sources.log):
        return 0
    try:
        return Path(sources.log).stat().st_size
    except OSError:
        return 0


# Lines of JSON written to the output at a time.
_JSONL_BATCH = 1024


def _write_jsonl(
    sources: Sources,
    out: Path | None,
    on_progress: Callable[[int], None] | None,
    tables: bool,
) -> BuildLog:
    # Events are written as they are parsed, then the exports' events; the tables to be stored
    # are built along the way (``tables``), else only what the summary reads is kept, which
    # does not grow with the log. Lines are written a batch at a time: an unbuffered standard
    # output (PYTHONUNBUFFERED) would otherwise make a system call of every line.
    kept = TableStream() if tables else KeptEvents()
    with _output(out) as stream:
        batch: list[str] = []

        def flush() -> None:
            if batch:
                batch.append("")
                stream.write("\n".join(batch))
                batch.clear()

        def write(item: Item) -> None:
            kept.feed(item)
            if isinstance(item, LineBlock):
                batch.extend(block_json(item))
            else:
                batch.append(event_json(item))
            if len(batch) >= _JSONL_BATCH:
                flush()

        try:
            shell = read_sources(sources, write, on_progress=on_progress)
        except BrokenPipeError:
            raise
        except BaseException:
            # The events read before a failure (a truncated file) are written before it is said.
            flush()
            raise
        flush()
    return BuildLog.from_stream(shell, kept, reread=lambda: parse_sources(sources).events)
