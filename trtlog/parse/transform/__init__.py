"""The Lark transformer that turns message trees into events, assembled from one mixin per
event family (the rules of ``grammars/<family>.lark`` are handled in ``transform/<family>.py``)."""

from __future__ import annotations

from typing import Any

from trtlog.events.base import Event
from trtlog.events.records import Foreign
from trtlog.parse.transform.autotuning import AutotuningRules
from trtlog.parse.transform.context import RecordTransformer
from trtlog.parse.transform.diagnostics import DiagnosticRules
from trtlog.parse.transform.engine import EngineRules
from trtlog.parse.transform.graph import GraphRules
from trtlog.parse.transform.memory import MemoryRules
from trtlog.parse.transform.notes import NoteRules
from trtlog.parse.transform.onnx import OnnxRules
from trtlog.parse.transform.options import OptionRules
from trtlog.parse.transform.performance import PerformanceRules
from trtlog.parse.transform.phases import PhaseRules
from trtlog.parse.transform.run import RunRules


def _as_events(children: list[Any]) -> list[Event]:
    (result,) = children
    return result if isinstance(result, list) else [result]


class MessageTransformer(
    RunRules,
    OptionRules,
    OnnxRules,
    GraphRules,
    AutotuningRules,
    MemoryRules,
    EngineRules,
    PhaseRules,
    PerformanceRules,
    NoteRules,
    DiagnosticRules,
    RecordTransformer,
):
    """Builds the events of one record; call ``begin`` before each parse."""

    def message(self, children: list[Any]) -> list[Event]:
        return _as_events(children)

    def trtexec_message(self, children: list[Any]) -> list[Event]:
        return _as_events(children)

    def trtexec_warning(self, children: list[Any]) -> list[Event]:
        return _as_events(children)

    def trtexec_report(self, children: list[Any]) -> list[Event]:
        return _as_events(children)

    def foreign_message(self, children: list[Any]) -> list[Event]:
        return [Foreign(**{**self.fields(), "producer": "polygraphy"}, text=self.raw_text)]

    def jetson_inference_message(self, children: list[Any]) -> list[Event]:
        return [Foreign(**{**self.fields(), "producer": "jetson-inference"}, text=self.raw_text)]

    def sample_message(self, children: list[Any]) -> list[Event]:
        return [Foreign(**{**self.fields(), "producer": "sample"}, text=self.raw_text)]

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        # "_rule"s are spliced into their parent by Lark; every other rule must build something.
        if data.startswith("_"):
            return super().__default__(data, children, meta)
        raise NotImplementedError(f"no event is built for grammar rule {data!r}")


__all__ = ["MessageTransformer"]
