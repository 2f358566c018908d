"""Plugin registry, progress bars, Myelin trace, empty messages, fixed sentences."""

from __future__ import annotations

from lark import v_args

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
    def plugin_registration(self, verb, namespace, name, version) -> PluginRegistration:
        return PluginRegistration(
            **self.fields(),
            plugin=str(name),
            version=str(version),
            namespace=text(namespace) or "",
            already=verb.startswith("Plugin creator already"),
        )

    def progress_update(self, bar, phase, done, total) -> ProgressUpdate:
        indent = len(bar) - len(bar.lstrip(" "))
        return ProgressUpdate(
            **self.fields(), phase=str(phase), done=int(done), total=int(total), indent=indent
        )

    def myelin_trace(self, _prefix, rest) -> MyelinTrace:
        return MyelinTrace(**self.fields(), text=(text(rest) or "").strip())

    def empty_message(self, _blank) -> EmptyMessage:
        return EmptyMessage(**self.fields())

    def builder_note(self, note) -> BuilderNote:
        return BuilderNote(**self.fields(), text=str(note))
