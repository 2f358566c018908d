"""The events indexed by class (``trtlog.events.index``), through which the tables read the
events they need: each class's events, and several classes' together, in log order."""

from __future__ import annotations

from tests.conftest import SAMPLES
from trtlog.events import AutotuningEvent, Event, OptionLine, RunFooter, RunHeader, SectionHeader
from trtlog.events.index import EventIndex, indexed
from trtlog.parse import parse_file, parse_text

LOG = """\
&&&& RUNNING TensorRT.trtexec [TensorRT v8403] # trtexec --onnx=a.onnx
[06/14/2023-09:02:11] [I] === Build Options ===
[06/14/2023-09:02:11] [I] Precision: FP32+FP16
[06/14/2023-09:02:11] [I] === System Options ===
[06/14/2023-09:02:11] [I] Device: 0
&&&& PASSED TensorRT.trtexec [TensorRT v8403] # trtexec --onnx=a.onnx
"""


def lines(events: list[Event]) -> list[int]:
    return [event.line for event in events]


def test_each_class_and_several_classes_in_log_order() -> None:
    index = EventIndex(parse_text(LOG).events)
    assert lines(index.of(RunHeader)) == [1]
    assert lines(index.of(SectionHeader)) == [2, 4]
    assert lines(index.of(OptionLine)) == [3, 5]
    assert lines(index.of(OptionLine, SectionHeader)) == [2, 3, 4, 5]
    assert lines(index.of(RunFooter, RunHeader)) == [1, 6]
    assert lines(index.of(Event)) == [1, 2, 3, 4, 5, 6]
    assert index.of(AutotuningEvent) == []
    # Asked again, the same events.
    assert lines(index.of(OptionLine, SectionHeader)) == [2, 3, 4, 5]


def test_the_index_reads_as_the_events_and_is_not_made_twice() -> None:
    events = parse_text(LOG).events
    index = indexed(events)
    assert len(index) == 6 and list(index) == events and index[-1] is events[-1]
    assert indexed(index) is index


def test_a_base_class_finds_its_subclasses_as_isinstance_does() -> None:
    events = parse_file(SAMPLES / "trtexec_8.x_build.log").events
    index = EventIndex(events)
    tuning = [event for event in events if isinstance(event, AutotuningEvent)]
    assert len({type(event) for event in tuning}) > 1
    assert index.of(AutotuningEvent) == tuning
    both = [event for event in events if isinstance(event, (AutotuningEvent, OptionLine))]
    assert index.of(AutotuningEvent, OptionLine) == both


def test_a_parsed_log_indexes_its_events_again_when_they_grew() -> None:
    parsed = parse_text(LOG)
    assert lines(parsed.of(SectionHeader)) == [2, 4]
    header = parsed.events[1]
    parsed.events.append(header)
    assert lines(parsed.of(SectionHeader)) == [2, 4, 2]
