"""Messages that announce a list printed on the line after them.

Two messages put their list on a line of its own, with an envelope of its own: 7.1 on DLA
platforms prints ``--------------- Layers running on GPU: `` and then every layer on one
comma-separated line; 10.x warns ``Detected layernorm nodes in FP16.`` and lists the nodes on
the next (VERBOSE) line. On its own such a line says nothing the grammar could tell from any
other text with commas, so the record parser keeps the announcement for the next record only,
and makes that record an ``AnnouncedNodes`` event when the grammar took nothing of it
(``announces``).

Names are split at ", ": a name holding ", " itself cannot be told apart from two names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trtlog.events import AnnouncedNodes, Event, LayersRunningOn, Unrecognized
from trtlog.events.makers import HEAD_FIELDS, keyword_maker
from trtlog.parse.items import Item

# 7.1's header, as the grammar's layers_running_on takes it (8.x's form lists one layer a line).
_PLACEMENT_HEADER = "--------------- Layers running on "
_LAYERNORM_WARNING = "Detected layernorm nodes in FP16."


@dataclass(frozen=True, slots=True)
class Announcement:
    """The message that announced a list on the next line."""

    text: str


def announces(body: str) -> bool:
    """Whether a message of this text may announce a list on its next line."""
    return body.startswith(_PLACEMENT_HEADER) or body.rstrip() == _LAYERNORM_WARNING


def announcement(body: str, items: Sequence[Item]) -> Announcement | None:
    """What the line after a one-line record of ``body`` lists, given the record's events."""
    if not announces(body) or len(items) != 1:
        return None
    (item,) = items
    if type(item) is LayersRunningOn or (isinstance(item, Event) and item.family == "diagnostics"):
        return Announcement(body.strip())
    return None


def listed(announced: Announcement, line: Unrecognized, body: str) -> list[Event]:
    """The event of an unrecognised one-line record that follows ``announced``: one for the
    line, so that the timeline still counts it as one line."""
    names = tuple(name.strip() for name in body.split(", ") if name.strip())
    head = (getattr(line, name) for name in HEAD_FIELDS)
    return [keyword_maker(AnnouncedNodes)(*head, announcement=announced.text, nodes=names)]


__all__ = ["Announcement", "announcement", "announces", "listed"]
