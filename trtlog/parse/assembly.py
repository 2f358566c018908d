"""Group a log's segments into records: an enveloped line and the bare lines under it.

TensorRT writes a multi-line message (Engine Layer Information, trtexec's layer listing, an ONNX
node dump) with one envelope; the bare lines under it travel with it to the record parser
(``trtlog.parse.records``), which decides how many of them the message spans.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trtlog.parse.envelope import NO_ENVELOPE, Envelope
from trtlog.parse.envelope_grammar import split_envelope
from trtlog.parse.envelope_split import envelope_splitter
from trtlog.parse.items import LineBlock
from trtlog.parse.scanner import BareLines, ClaimedRecords

if TYPE_CHECKING:
    from trtlog.parse.scanner import Scanned

# What the scanner hands on already parsed: each closes the record above it.
_SCANNED_RECORDS = (LineBlock, ClaimedRecords)


@dataclass(slots=True)
class Record:
    """One enveloped line (or one bare line) and the bare lines under it."""

    line: int
    raw: str
    envelope: Envelope
    body: str
    # (line number, text) of each bare line under it; most records have none.
    continuation: list[tuple[int, str]] = field(default_factory=list)
    # By line number, the rule and tokens the native core read of a bare line of the record
    # (``BareLines``): its item where the line is parsed on its own.
    read: dict[int, tuple[Any, ...]] | None = None


def assemble_records(
    segments: Iterable[Scanned], fast: bool = True
) -> Iterator[Record | ClaimedRecords | LineBlock]:
    """Attach each bare segment to the enveloped record above it; blocks and claimed records
    (``trtlog.parse.scanner``) pass as they are. ``fast`` splits the common envelopes with the
    native core instead of the grammar (the same result)."""
    pending: Record | None = None
    splitter = envelope_splitter() if fast else None
    for segment in segments:
        if type(segment) is BareLines:
            # Each goes where the bare line of its text would go, its record beside it.
            for number, text, read in segment.lines():
                if pending is not None and pending.envelope is not NO_ENVELOPE:
                    pending.continuation.append((number, text))
                else:
                    if pending is not None:
                        yield pending
                    pending = Record(number, text, NO_ENVELOPE, text)
                if pending.read is None:
                    pending.read = {}
                pending.read[number] = read
            continue
        if type(segment) in _SCANNED_RECORDS:
            # A block's lines (claimed records) have envelopes of their own: it closes the
            # record above.
            if pending is not None:
                yield pending
                pending = None
            yield segment  # type: ignore[misc]
            continue
        number, text = segment  # type: ignore[misc]
        split = splitter.split(text) if splitter is not None else None
        envelope, body = split if split is not None else split_envelope(text)
        if envelope is NO_ENVELOPE and pending is not None and pending.envelope is not NO_ENVELOPE:
            # The body: a bare line after a wrapper's prefix (a CI runner's stamp) is the same
            # bare line without it.
            pending.continuation.append((number, body))
            continue
        if pending is not None:
            yield pending
        pending = Record(number, text, envelope, body)
    if pending is not None:
        yield pending


__all__ = ["Record", "assemble_records"]
