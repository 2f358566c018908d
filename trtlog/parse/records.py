"""Parse each record (``trtlog.parse.assembly``) into events, and count how each line was read.

A record is a line with an envelope plus the envelope-less lines under it. The grammar decides
how many of those lines the message really spans; the lines it does not claim are parsed on
their own, and what still matches nothing is kept as ``Foreign`` (another program's output) or
``Unrecognized`` (TensorRT's, but unknown).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any, cast

from lark import Lark
from lark.exceptions import UnexpectedInput

from trtlog.events.base import Event
from trtlog.events.engine import EngineLayerInformation, LayerInformation
from trtlog.events.notes import EmptyMessage
from trtlog.events.performance import REPORT_EVENTS
from trtlog.events.records import Foreign, Unrecognized
from trtlog.parse.announced import Announcement, announcement, announces, listed
from trtlog.parse.assembly import Record
from trtlog.parse.bounds import bounded
from trtlog.parse.claimed import read_item
from trtlog.parse.envelope import (
    FOREIGN_PRODUCERS,
    NO_ENVELOPE,
    RELAYING_PRODUCERS,
    Envelope,
    diagnostic_rule,
    own_messages_rule,
    start_rule,
    torch_tensorrt_only,
)
from trtlog.parse.foreign_runs import foreign_block, foreign_runs, unstartable_line
from trtlog.parse.grammar import first_bad_line, message_parser, message_transformer
from trtlog.parse.items import Item, LineBlock
from trtlog.parse.lexer_starts import LexerStarts, shared_lexer_starts
from trtlog.parse.line_counts import CLASS_RANK, LineCounts
from trtlog.parse.scanner import ClaimedRecords, MessageClaims

# A date and time at the start of a line: another program's logger (glog, absl, Python's).
_OWN_STAMP = re.compile(r"\s*\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}")

# Records whose message lists layers on the bare lines under it.
_LISTING_HEADERS = (EngineLayerInformation, LayerInformation)

# Set TRTLOG_STRICT=1 to let errors inside event builders propagate (the test suite does).
STRICT = os.environ.get("TRTLOG_STRICT", "") not in ("", "0")


# The start rules whose messages the core claims: a library's, and trtexec's own at INFO and
# below (its warnings start another rule, as Torch-TensorRT's messages do).
_CLAIMED_STARTS = frozenset({"message", "trtexec_message"})


class RecordParser:
    """Parses records with the message grammar and keeps the line counts; with ``fast``, a
    one-line record whose message the native core claims is made from what the core read of it
    (``MessageClaims``), which gives the same events."""

    def __init__(self, fast: bool = True) -> None:
        self._lark: Lark = message_parser()
        self._transformer = message_transformer()
        self.counts = LineCounts()
        # Lines that hold several segments (filled by ``numbered_segments`` before their
        # segments arrive here), and the classes their segments have been given so far.
        self.split_lines: set[int] = set()
        self._split_classes: dict[int, list[str]] = {}
        self.seen_envelope = False
        self.fast = fast
        self._claims = MessageClaims(self._lark) if fast else None
        # The grammar alone (``fast=False``) is the reference the core's results are tested
        # against: it tries every text with Lark.
        self._starts: LexerStarts | None = shared_lexer_starts(self._lark) if fast else None
        self._announced: Announcement | None = None
        # Whether the last item read is a line of one of trtexec's reports: after one, a bare
        # "[I] " line is tried as trtexec's own.
        self._in_report = False

    @property
    def lark(self) -> Lark:
        """The message grammar's parser."""
        return self._lark

    def parse(self, record: Record | ClaimedRecords | LineBlock) -> list[Item]:
        items = self._parse(record)
        if items and type(items[-1]) is not EmptyMessage:
            self._in_report = type(items[-1]) in REPORT_EVENTS
        return items

    def _parse(self, record: Record | ClaimedRecords | LineBlock) -> list[Item]:
        if type(record) is LineBlock:
            self._announced = None
            return [self._count_block(record)]
        if type(record) is ClaimedRecords:
            self._announced = None
            return self._count_claimed(record)
        assert isinstance(record, Record)
        items = bounded(self.counts, self._parse_record(record))
        # A list announced by the record before (``trtlog.parse.announced``).
        announced, self._announced = self._announced, None
        if record.continuation:
            return items
        if announced is not None and len(items) == 1 and type(items[0]) is Unrecognized:
            items = listed(announced, items[0], record.body)  # type: ignore[assignment]
            self._reclassify(record.line, "unrecognized", "recognized")
        elif announces(record.body):
            self._announced = announcement(record.body, items)
        return items

    def _parse_record(self, record: Record) -> list[Item]:
        counts = self.counts
        if self._claims is not None and not record.continuation:
            event = read_item(record.read, record.line, record.envelope)
            if event is None:
                event = self.claim(record.envelope, record.body, record.line)
            if event is not None:
                counts.segments += 1
                if self.split_lines and record.line in self.split_lines:
                    self._tally("recognized", record.line)
                else:
                    counts.recognized += 1
                counts.note_style(record.envelope, record.line, record.line)
                if record.envelope is not NO_ENVELOPE:
                    self.seen_envelope = True
                return [event]
        lines = [record.body] + [text for _, text in record.continuation]
        numbers = [record.line] + [number for number, _ in record.continuation]
        counts.segments += len(lines)
        # Trailing blank continuation lines (a message that ended in "\n") are just blank.
        while len(lines) > 1 and not lines[-1].strip():
            lines.pop()
            self._tally("blank", numbers.pop())
        counts.note_style(record.envelope, record.line, record.line)
        if record.envelope is not NO_ENVELOPE:
            self.seen_envelope = True
        events: list[Item]
        events, used = self._parse_head(record, lines, numbers)  # type: ignore[assignment]
        # The first line a listing block did not take is most likely a layer line of a form the
        # grammar does not know yet, not another program's output: keep it as unrecognised. A
        # line that opens with a date and time of its own ("2024-06-22 20:52:41.045771: T
        # identity.cpp:270] destroy", a plugin's logger) is another program's all the same.
        suspect = (
            used < len(lines)
            and any(isinstance(event, _LISTING_HEADERS) for event in events)
            and _OWN_STAMP.match(lines[used]) is None
        )
        if used < len(lines):
            # The lines under a record have no envelope of their own; they keep its time.
            inherited = Envelope("none", record.envelope.timestamp, None, "none")
        bare = zip(numbers[used:], lines[used:], strict=True)
        if suspect:
            number, text = next(bare)
            events.extend(self._parse_bare(inherited, number, text, True, record.read))
        unstartable = unstartable_line(self._starts, record.read, self.split_lines)
        for line in foreign_runs(bare, unstartable):
            if isinstance(line, list):
                self.counts.foreign += len(line)
                events.append(foreign_block(inherited, line))
            else:
                events.extend(self._parse_bare(inherited, *line, False, record.read))
        return events

    def _count_claimed(self, claimed: ClaimedRecords) -> list[Item]:
        """Count the records the core claimed as ``_parse_record`` counts a claimed one-line
        record (their numbers fit in 64 bits: the core declines the others)."""
        counts, lines = self.counts, len(claimed.items)
        counts.segments += lines
        # Clean one-line records: never split.
        counts.recognized += lines
        last = claimed.first_line + lines - 1
        counts.note_style(claimed.envelope, claimed.first_line, last, lines)
        self.seen_envelope = True
        return claimed.items

    def _count_block(self, block: LineBlock) -> LineBlock:
        """Count a block's lines as ``_parse_record`` counts a claimed one-line record, each."""
        counts, lines = self.counts, len(block)
        counts.segments += lines
        # A block's lines are clean segments: never split.
        counts.recognized += lines
        counts.note_style(block.envelope, block.first_line, block.first_line + lines - 1, lines)
        self.seen_envelope = True
        return block

    def _parse_head(
        self, record: Record, lines: list[str], numbers: list[int]
    ) -> tuple[list[Event], int]:
        """Parse the record's first line with as many continuation lines as its message takes."""
        envelope = record.envelope
        if envelope.producer in FOREIGN_PRODUCERS or (
            torch_tensorrt_only(envelope) and not record.body.strip()
        ):
            self._tally("foreign", record.line)
            return [
                Foreign(
                    line=record.line,
                    end_line=record.line,
                    text=record.raw,
                    **_envelope_fields(envelope),
                )
            ], 1
        if not record.body.strip():
            if envelope is NO_ENVELOPE:
                self._tally("blank", record.line)
                return [], 1
            self._tally("recognized", record.line)
            return [
                EmptyMessage(line=record.line, end_line=record.line, **_envelope_fields(envelope))
            ], 1
        starts = [start_rule(envelope)]
        if envelope.producer == "logger":
            # trtexec's own lines keep a bare "[I] " where its log was pasted without dates: the
            # titles of its reports first ("=== Profile (N iterations ) ===" is no section),
            # inside one all its own forms (which hold the library's).
            if self._in_report:
                starts[0] = "trtexec_message"
            else:
                starts.insert(0, "trtexec_report")
        if diagnostic := diagnostic_rule(envelope):
            starts.append(diagnostic)
        for start in starts:
            for candidate in printed_then_trimmed(lines):
                used = len(candidate)
                while used >= 1:
                    events, error_line = self._try(
                        start, envelope, numbers[0], numbers[used - 1], candidate[:used]
                    )
                    if events is not None:
                        if self.split_lines:
                            for number in numbers[:used]:
                                self._tally("recognized", number)
                        else:
                            self.counts.recognized += used
                        return events, used
                    # Retry with the lines before the one the grammar stumbled on; if it
                    # stumbled on the first line, or gave no position, the first line alone is
                    # the last try.
                    if error_line is None:
                        used = 1 if used > 1 else 0
                    elif error_line <= 1:
                        used = 0
                    else:
                        used = min(used - 1, error_line - 1)
        own_rule = own_messages_rule(envelope)
        if own_rule is not None:
            events, _ = self._try(
                own_rule, envelope, record.line, record.line, [record.body], record.raw
            )
            if events is not None:
                self._tally("foreign", record.line)
                return events, 1
        return [self._unclaimed(envelope, record.line, record.raw)], 1

    def claim(self, envelope: Envelope, body: str, line: int) -> Item | None:
        """The item of a one-line record whose message the core claims, else None."""
        if not body or envelope.producer in FOREIGN_PRODUCERS or torch_tensorrt_only(envelope):
            return None
        start = start_rule(envelope)
        if start not in _CLAIMED_STARTS or self._claims is None:
            return None
        return self._claims.claim(envelope, body, line, trtexec=start == "trtexec_message")

    def _parse_bare(
        self,
        inherited: Envelope,
        number: int,
        text: str,
        suspect: bool,
        read: dict[int, tuple[Any, ...]] | None = None,
    ) -> list[Item]:
        """A continuation line the record's message did not take, parsed on its own
        (``inherited``: the envelope it takes from the record; ``read``: what the native core
        read of such lines, ``trtlog.parse.assembly``)."""
        if not text.strip():
            self._tally("blank", number)
            return []
        if self._claims is not None:
            # A progress monitor's bars come without an envelope, each under the record above.
            item = read_item(read, number, inherited)
            if item is None:
                item = self.claim(inherited, text, number)
            if item is not None:
                self._tally("recognized", number)
                return [item]
        for candidate in printed_then_trimmed([text]):
            events, _ = self._try("message", inherited, number, number, candidate)
            if events is not None:
                break
        if events is not None:
            self._tally("recognized", number)
            return list(events)
        if suspect:
            self._tally("unrecognized", number)
            return [
                Unrecognized(line=number, end_line=number, text=text, **_envelope_fields(inherited))
            ]
        self._tally("foreign", number)
        return [Foreign(line=number, end_line=number, text=text, **_envelope_fields(inherited))]

    def _try(
        self,
        start: str,
        envelope: Envelope,
        line: int,
        end_line: int,
        lines: list[str],
        raw: str = "",
    ) -> tuple[list[Event] | None, int | None]:
        text = "\n".join(lines)
        if self._starts is not None and not self._starts.can_start(start, text):
            # Lark would fail on the first character, as ``first_bad_line`` reads its error.
            return None, 2 if text.startswith("\n") else 1
        self._transformer.begin(envelope, line, end_line, raw)
        try:
            result = cast("list[Event] | Event", self._lark.parse(text, start=start))
        except UnexpectedInput as error:
            return None, first_bad_line(error)
        except Exception:
            # A transformer that cannot build its event (a value out of range, a malformed
            # number) leaves the record unclaimed rather than stopping the parse.
            if STRICT:
                raise
            return None, None
        return (result if isinstance(result, list) else [result]), None

    def _tally(self, kind: str, line: int) -> None:
        """Count one segment of ``line`` as ``kind``; the segments of a split line count once."""
        counts = self.counts
        if not self.split_lines or line not in self.split_lines:
            setattr(counts, kind, getattr(counts, kind) + 1)
            return
        classes = self._split_classes.setdefault(line, [])
        before = max(classes, key=CLASS_RANK.__getitem__) if classes else None
        classes.append(kind)
        self._recount(before, classes)

    def _reclassify(self, line: int, old: str, new: str) -> None:
        """A segment of ``line`` counted as ``old`` turned out to be ``new``."""
        counts = self.counts
        classes = self._split_classes.get(line) if self.split_lines else None
        if classes is None or old not in classes:
            setattr(counts, old, getattr(counts, old) - 1)
            setattr(counts, new, getattr(counts, new) + 1)
            return
        before = max(classes, key=CLASS_RANK.__getitem__)
        classes[classes.index(old)] = new
        self._recount(before, classes)

    def _recount(self, before: str | None, classes: list[str]) -> None:
        after = max(classes, key=CLASS_RANK.__getitem__)
        if after == before:
            return
        counts = self.counts
        if before is not None:
            setattr(counts, before, getattr(counts, before) - 1)
        setattr(counts, after, getattr(counts, after) + 1)

    def reclassify_as_foreign(self, events: list[Item]) -> list[Item]:
        """Bare lines read before the log's first envelope turned out to be foreign."""
        result: list[Item] = []
        for event in events:
            if isinstance(event, Unrecognized) and event.producer == "none":
                self._reclassify(event.line, "unrecognized", "foreign")
                kept = ("line", "end_line", "timestamp", "severity", "producer", "text")
                event = Foreign(**{name: getattr(event, name) for name in kept})
            result.append(event)
        return result

    def _unclaimed(self, envelope: Envelope, line: int, raw: str) -> Event:
        fields = _envelope_fields(envelope)
        if envelope.producer in RELAYING_PRODUCERS or (
            envelope is NO_ENVELOPE and self.seen_envelope
        ):
            self._tally("foreign", line)
            return Foreign(line=line, end_line=line, text=raw, **fields)
        self._tally("unrecognized", line)
        return Unrecognized(line=line, end_line=line, text=raw, **fields)


def printed_then_trimmed(lines: list[str]) -> Iterator[list[str]]:
    """A message's lines as printed, then, where any ends in blanks (a log pasted from a
    terminal), without them: tried only once they cannot be read as printed, since some
    messages end in a blank (a layer without a name)."""
    yield lines
    trimmed = [line.rstrip() for line in lines]
    if trimmed != lines:
        yield trimmed


def _envelope_fields(envelope: Envelope) -> dict[str, Any]:
    return {
        "timestamp": envelope.timestamp,
        "severity": envelope.severity,
        "producer": envelope.producer,
    }
