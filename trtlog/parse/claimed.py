"""The items of the one-line records the native core claims.

The core (``core/src/records.rs``, ``core/src/tuning.rs``, ``core/src/trtexec.rs``, ...) hands
each record on as its grammar rule and the rule's tokens, numbers already read (or as printed,
where the transformer's field function reads them). Here each becomes the event the grammar's
transformer makes of the rule (``trtlog.parse.transform``), its fields made by the
transformer's own functions where it has them (the rarer tuning records' in
``trtlog.parse.claimed_tuning``). ``tests/test_core.py`` compares every claimed line with the
grammar's event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trtlog.events.autotuning import (
    ChoseRunner,
    ComputingCosts,
    FastestTactic,
    FormatCombination,
    ReformatLayerAdded,
    RunnerSkipped,
    TimingRunner,
)
from trtlog.events.base import KeywordMakers, TacticId, timed_ms
from trtlog.events.graph import (
    ForeignNodeMetadata,
    FusionPassRunning,
    LayerCount,
    LayerRemoved,
    QuantizationParams,
    SymbolicShape,
)
from trtlog.events.memory import LayerMemory
from trtlog.events.notes import BuilderNote, PluginRegistration, ProgressUpdate
from trtlog.events.onnx import OnnxImporterTrace
from trtlog.events.options import OptionLine
from trtlog.events.performance import ProfileRow, TraceAverage
from trtlog.events.phases import PhaseDuration
from trtlog.parse.claimed_tuning import TUNING_BUILDERS
from trtlog.parse.envelope import Envelope
from trtlog.parse.items import Item
from trtlog.parse.transform.autotuning import reformat_layer_fields
from trtlog.parse.transform.context import split_formats
from trtlog.parse.transform.graph import (
    foreign_node_fields,
    fusion_pass_fields,
    layer_count_fields,
    layer_removed_fields,
    quantization_fields,
    symbolic_dimension_fields,
    symbolic_shape_fields,
    symbolic_tensor_fields,
)
from trtlog.parse.transform.memory import layer_memory_fields
from trtlog.parse.transform.notes import plugin_fields, progress_fields
from trtlog.parse.transform.onnx import importer_trace_fields, node_io_fields
from trtlog.parse.transform.options import option_fields
from trtlog.parse.transform.performance import profile_row_fields
from trtlog.parse.transform.phases import phase_duration_fields

# (line, end_line, timestamp, severity, producer): the fields every event has, in order.
Head = tuple[Any, ...]
_make = KeywordMakers()


def _fastest_tactic(head: Head, tactic: int, time: float) -> Item:
    return _make[FastestTactic](*head, tactic=TacticId(tactic), time_ms=timed_ms(time))


def _runner_profiled(
    head: Head, layer: str, runner: str, runner_id: int | None, seconds: float, tactic: int,
    time: float,
) -> Item:  # fmt: skip
    return _make[FastestTactic](*head, layer=layer, runner=runner, runner_id=runner_id,
                                tactic=TacticId(tactic), time_ms=timed_ms(time),
                                profiling_seconds=seconds)  # fmt: skip


def _timing_runner(head: Head, layer: str | None, runner: str, runner_id: int | None) -> Item:
    return _make[TimingRunner](*head, layer=layer, runner=runner, runner_id=runner_id)


def _format_combination(head: Head, inputs: str | None, outputs: str | None) -> Item:
    return _make[FormatCombination](*head, inputs=split_formats(inputs),
                                    outputs=split_formats(outputs))  # fmt: skip


def _reformat_combination(head: Head, inputs: str | None, outputs: str | None) -> Item:
    return _make[FormatCombination](*head, inputs=split_formats(inputs),
                                    outputs=split_formats(outputs), reformat=True)  # fmt: skip


def _computing_costs(head: Head, subject: str | None) -> Item:
    # 8.0-8.5 print the line with an empty layer name.
    return _make[ComputingCosts](*head, layer=(subject or "").strip() or None)


def _computing_reformatting_costs(head: Head, _subject: str | None) -> Item:
    return _make[ComputingCosts](*head, reformatting=True)


def _chose_runner(head: Head, runner: str, tactic: int) -> Item:
    return _make[ChoseRunner](*head, chosen_runner=runner, tactic=TacticId(tactic))


def _runner_skipped(head: Head, runner: str, _layer: None) -> Item:
    return _make[RunnerSkipped](*head, skipped_runner=runner)


def _runner_skipped_for_layer(head: Head, runner: str, layer: str) -> Item:
    return _make[RunnerSkipped](*head, skipped_runner=runner, layer=layer.strip())


def _onnx_importer_trace(head: Head, step: str, rest: str | None) -> Item:
    return _make[OnnxImporterTrace](*head, **importer_trace_fields(step, rest))


def _onnx_node_io(head: Head, node: str, op: str, direction: str, rest: str | None) -> Item:
    return _make[OnnxImporterTrace](*head, **node_io_fields(node, op, direction, rest))


def _quantization_params(head: Head, step: str, rest: str | None) -> Item:
    return _make[QuantizationParams](*head, **quantization_fields(step, rest))


def _layer_removed(head: Head, _step: str, layer: str) -> Item:
    return _make[LayerRemoved](*head, **layer_removed_fields(layer))


def _fusion_pass_running(head: Head, name: str, target: str | None) -> Item:
    return _make[FusionPassRunning](*head, **fusion_pass_fields(name, target))


def _plugin_registration(
    head: Head, already: bool, namespace: str | None, name: str, version: str
) -> Item:
    return _make[PluginRegistration](*head, **plugin_fields(already, namespace, name, version))


def _layer_count(head: Head, stage: str, count: str) -> Item:
    return _make[LayerCount](*head, **layer_count_fields(stage, count))


def _symbolic_shape(head: Head, kind: str, name: str) -> Item:
    return _make[SymbolicShape](*head, **symbolic_shape_fields(kind, name))


def _symbolic_shape_tensor(head: Head, role: str, index: str) -> Item:
    return _make[SymbolicShape](*head, **symbolic_tensor_fields(role, index))


def _symbolic_shape_dimension(head: Head, value: str, symbol: str) -> Item:
    return _make[SymbolicShape](*head, **symbolic_dimension_fields(value, symbol))


def _layer_memory(head: Head, layer: str, host: str, device: str, scratch: str | None) -> Item:
    return _make[LayerMemory](*head, **layer_memory_fields(layer, host, device, scratch))


def _reformat_layer_added(
    head: Head, tensor: str, source: str, from_format: str, to_format: str
) -> Item:
    fields = reformat_layer_fields(tensor, source, from_format, to_format)
    return _make[ReformatLayerAdded](*head, **fields)


def _foreign_node_metadata(
    head: Head, node: str, profile: str | None, metadata: str | None
) -> Item:
    return _make[ForeignNodeMetadata](*head, **foreign_node_fields(node, profile, metadata))


def _builder_note(head: Head, text: str) -> Item:
    return _make[BuilderNote](*head, text=text)


def _phase_duration(head: Head, phase: str, seconds: str) -> Item:
    return _make[PhaseDuration](*head, **phase_duration_fields(phase, seconds))


def _trace_average(
    head: Head, runs: int, gpu: float, host: float, end_to_end: float | None, enqueue: float
) -> Item:
    return _make[TraceAverage](
        *head, runs=runs, gpu_latency_ms=gpu, host_latency_ms=host, end_to_end_ms=end_to_end,
        enqueue_ms=enqueue,
    )  # fmt: skip


def _profile_row(head: Head, name: str, numbers: str) -> Item:
    return _make[ProfileRow](*head, **profile_row_fields(name, numbers))


def _profile_row_numbers_first(head: Head, numbers: str, name: str) -> Item:
    return _make[ProfileRow](*head, **profile_row_fields(name, numbers))


def _option_line(head: Head, key: str, value: str | None) -> Item:
    return _make[OptionLine](*head, **option_fields(key, value))


def _progress_update(head: Head, bar: str, phase: str, done: int, total: int, _text: str) -> Item:
    return _make[ProgressUpdate](*head, **progress_fields(bar, phase, done, total))


# Per grammar rule (the core names each record by its rule), how its item is made.
BUILDERS: dict[str, Callable[..., Item]] = {
    "fastest_tactic": _fastest_tactic,
    "runner_profiled": _runner_profiled,
    "timing_runner": _timing_runner,
    "format_combination": _format_combination,
    "reformat_combination": _reformat_combination,
    "computing_costs": _computing_costs,
    "computing_reformatting_costs": _computing_reformatting_costs,
    "chose_runner": _chose_runner,
    "runner_skipped": _runner_skipped,
    "runner_skipped_for_layer": _runner_skipped_for_layer,
    "onnx_importer_trace": _onnx_importer_trace,
    "onnx_node_io": _onnx_node_io,
    "quantization_params": _quantization_params,
    "layer_removed": _layer_removed,
    "fusion_pass_running": _fusion_pass_running,
    "plugin_registration": _plugin_registration,
    "layer_count": _layer_count,
    "symbolic_shape": _symbolic_shape,
    "symbolic_shape_tensor": _symbolic_shape_tensor,
    "symbolic_shape_dimension": _symbolic_shape_dimension,
    "layer_memory": _layer_memory,
    "reformat_layer_added": _reformat_layer_added,
    "foreign_node_metadata": _foreign_node_metadata,
    "builder_note": _builder_note,
    "phase_duration": _phase_duration,
    **TUNING_BUILDERS,
    "trace_average": _trace_average,
    "profile_row": _profile_row,
    "profile_row_numbers_first": _profile_row_numbers_first,
    "option_line": _option_line,
    "progress_update": _progress_update,
}


def claimed_item(record: tuple[Any, ...], head: Head) -> Item:
    """The item of a record the core claimed: ``(rule, token, ...)``."""
    rule, *tokens = record
    return BUILDERS[rule](head, *tokens)


def read_item(
    read: dict[int, tuple[Any, ...]] | None, line: int, envelope: Envelope
) -> Item | None:
    """The item of bare line ``line`` in ``envelope``, where the core read it (``read``, by line
    number: ``trtlog.parse.assembly``); else None."""
    found = None if read is None else read.get(line)
    if found is None:
        return None
    head = (line, line, envelope.timestamp, envelope.severity, envelope.producer)
    return claimed_item(found, head)


__all__ = ["BUILDERS", "claimed_item", "read_item"]
