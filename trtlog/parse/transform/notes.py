"""Plugin registry, progress bars, Myelin trace, empty messages, fixed sentences."""

from __future__ import annotations

from lark import Token, v_args

from trtlog.events.notes import (
    BuilderNote,
    EmptyMessage,
    MyelinTrace,
    PluginRegistration,
    ProgressUpdate,
)
from trtlog.parse.transform.context import RecordTransformer, text


@v_args(inline=True)
class NoteRules(RecordTransformer):
    def plugin_registration(
        self, verb: Token, namespace: Token | None, name: Token, version: Token
    ) -> PluginRegistration:
        return PluginRegistration(
            **self.fields(),
            plugin=str(name),
            version=str(version),
            namespace=text(namespace) or "",
            already=verb.startswith("Plugin creator already"),
        )

    def progress_update(
        self, bar: Token, phase: Token, done: Token, total: Token
    ) -> ProgressUpdate:
        indent = len(bar) - len(bar.lstrip(" "))
        return ProgressUpdate(
            **self.fields(), phase=str(phase), done=int(done), total=int(total), indent=indent
        )

    def myelin_trace(self, _prefix: Token, rest: Token | None) -> MyelinTrace:
        return MyelinTrace(**self.fields(), text=(text(rest) or "").strip())

    def empty_message(self, _blank: Token) -> EmptyMessage:
        return EmptyMessage(**self.fields())

    def builder_note(self, note: Token) -> BuilderNote:
        return BuilderNote(**self.fields(), text=str(note))
