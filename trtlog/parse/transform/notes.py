"""Plugin registry, progress bars, Myelin trace, empty messages, fixed sentences."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from trtlog.events.notes import (
    BuilderNote,
    EmptyMessage,
    MyelinTrace,
    PluginRegistration,
    ProgressUpdate,
)
from trtlog.parse.transform.context import RecordTransformer, text


def plugin_fields(already: bool, namespace: str | None, name: str, version: str) -> dict[str, Any]:
    """A plugin registration's fields past the head, from its tokens' text: shared with the
    native core's records (``trtlog.parse.claimed``)."""
    return {"plugin": name, "version": version, "namespace": namespace or "", "already": already}


def progress_fields(bar: str, phase: str, done: int, total: int) -> dict[str, Any]:
    """A progress bar's fields past the head, from its tokens: shared with the native core's
    records (``trtlog.parse.claimed``). The bar's indent is its depth."""
    indent = len(bar) - len(bar.lstrip(" "))
    return {"phase": phase, "done": done, "total": total, "indent": indent}


@v_args(inline=True)
class NoteRules(RecordTransformer):
    def plugin_registration(
        self, verb: Token, namespace: Token | None, name: Token, version: Token
    ) -> PluginRegistration:
        already = verb.startswith("Plugin creator already")
        fields = plugin_fields(already, text(namespace), str(name), str(version))
        return PluginRegistration(**self.fields(), **fields)

    def progress_update(
        self, bar: Token, phase: Token, done: Token, total: Token
    ) -> ProgressUpdate:
        fields = progress_fields(str(bar), str(phase), int(done), int(total))
        return ProgressUpdate(**self.fields(), **fields)

    def myelin_trace(self, _prefix: Token, rest: Token | None) -> MyelinTrace:
        return MyelinTrace(**self.fields(), text=(text(rest) or "").strip())

    def empty_message(self, _blank: Token) -> EmptyMessage:
        return EmptyMessage(**self.fields())

    def builder_note(self, note: Token) -> BuilderNote:
        return BuilderNote(**self.fields(), text=str(note))
