"""One case per grammar rule (and per version variant), with real TensorRT lines.

The cases live in ``tests/grammar_cases/<family>.toml``, one ``[[case]]`` table each: the rule
the line must match, the start symbol it is parsed with (``start``, default ``message``;
trtexec's own messages use ``trtexec_message``), the line, the event class built, field values
read off the line by hand (``[case.fields]``; a tactic id as ``{ tactic = "0x..." }``, a tensor
as ``{ tensor = { name = ..., dims = [...] } }``, arrays for tuples), the fields that must be
None (``none``) and where the line comes from (``note``). ``envelope.toml`` holds the envelope
grammar's cases: each line is split into its ``Envelope`` (the event) and the message ``body``
after it (start ``envelope_line``). A meta-test checks that every rule of both grammars has a
case.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Tree

from trtlog.events import Diagnostic, LayerCount
from trtlog.events.base import TacticId, Tensor
from trtlog.parse import parse_text
from trtlog.parse.envelope import NO_ENVELOPE
from trtlog.parse.envelope_grammar import ENVELOPE_GRAMMAR, ENVELOPE_START, split_envelope
from trtlog.parse.envelope_split import envelope_splitter
from trtlog.parse.grammar import (
    GRAMMAR_FOLDER,
    GRAMMAR_PACKAGE,
    MESSAGE_START_RULES,
    message_grammar,
    message_parser,
)

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

CASES_DIR = Path(__file__).resolve().parent / "grammar_cases"
M, T = "message", "trtexec_message"
CASE_KEYS = {"rule", "start", "line", "event", "note", "none", "fields", "body"}
# The case file of the envelope grammar; every other file is a family of the message grammar.
ENVELOPE = "envelope"


@dataclass(frozen=True)
class GrammarCase:
    """One line, the rule it must match and the event it must give."""

    family: str
    # The case's place in its family's file, from 1.
    number: int
    rule: str
    start: str
    line: str
    event_class: str
    fields: dict[str, Any]
    note: str
    # The message after the envelope (envelope cases only).
    body: str | None = None

    @property
    def id(self) -> str:
        return f"{self.family}-{self.number}-{self.rule}"

    @property
    def grammar(self) -> str:
        return ENVELOPE if self.family == ENVELOPE else "messages"


def expected_value(raw: Any) -> Any:
    """A field's expected value from its TOML form: arrays are tuples, ``{ tactic = ... }`` a
    ``TacticId`` (as the log prints it: hex, decimal or signed decimal), ``{ tensor = {...} }``
    a ``Tensor``."""
    if isinstance(raw, list):
        return tuple(expected_value(item) for item in raw)
    if isinstance(raw, dict):
        if raw.keys() == {"tactic"}:
            return TacticId.parse(raw["tactic"])
        if raw.keys() == {"tensor"}:
            return Tensor(**{key: expected_value(value) for key, value in raw["tensor"].items()})
        raise ValueError(f"a field's table must be {{ tactic = ... }} or {{ tensor = ... }}: {raw}")
    return raw


def load_cases(directory: Path = CASES_DIR) -> list[GrammarCase]:
    """Every case of every family file, in file order."""
    cases = []
    for path in sorted(directory.glob("*.toml")):
        for index, raw in enumerate(tomllib.loads(path.read_text(encoding="utf-8"))["case"]):
            unknown = raw.keys() - CASE_KEYS
            if unknown:
                raise ValueError(f"{path.name}, case {index + 1}: unknown keys {sorted(unknown)}")
            if ("body" in raw) != (path.stem == ENVELOPE):
                raise ValueError(f"{path.name}, case {index + 1}: a body is an envelope's alone")
            fields = {name: expected_value(value) for name, value in raw.get("fields", {}).items()}
            fields.update(dict.fromkeys(raw.get("none", [])))
            cases.append(
                GrammarCase(
                    family=path.stem,
                    number=index + 1,
                    rule=raw["rule"],
                    start=raw.get("start", ENVELOPE_START if path.stem == ENVELOPE else M),
                    line=raw["line"],
                    event_class=raw["event"],
                    fields=fields,
                    note=raw.get("note", ""),
                    body=raw.get("body"),
                )
            )
    return cases


CASES = load_cases()

# Rules that only build parts of a message (or of a line), not an event of their own.
HELPER_RULES = {
    "envelope_line",
    "envelope",
    "message",
    "trtexec_message",
    "trtexec_warning",
    "tensor",
    "tensor_list",
    "detailed_attribute",
    "detailed_tensor",
    "error_code_message",
}


# The start rules of each grammar's cases.
START_RULES = {"messages": MESSAGE_START_RULES, ENVELOPE: (ENVELOPE_START,)}
# The envelopes the envelope cache leaves to the grammar (it splits every other one itself).
GRAMMAR_ONLY_ENVELOPES = {
    "wrapped_envelope",
    "word_level_envelope",
    "python_logging_stamped_envelope",
    "python_logging_bracketed_envelope",
    "python_logging_leveled_envelope",
    "timestamp_only_envelope",
    "library_level_envelope",
    "jetson_envelope",
    "trtllm_runtime_envelope",
    "tensorflow_envelope",
    "pasted_level_envelope",
}


@cache
def tree_parser(grammar: str = "messages") -> Lark:
    """A parser that builds trees, of the message grammar or of the envelope grammar."""
    if grammar == ENVELOPE:
        return Lark.open_from_package(
            GRAMMAR_PACKAGE,
            ENVELOPE_GRAMMAR,
            (GRAMMAR_FOLDER,),
            start=ENVELOPE_START,
            parser="lalr",
            maybe_placeholders=True,
        )
    return Lark(
        message_grammar(), start=list(MESSAGE_START_RULES), parser="lalr", maybe_placeholders=True
    )


def matched_rule(line: str, start: str, grammar: str = "messages") -> str:
    tree = tree_parser(grammar).parse(line, start=start)
    # The rule under the start rule that only chooses (a line's envelope, a kind of message).
    if start in ("message", "trtexec_message", "trtexec_warning", "trtexec_report", ENVELOPE_START):
        node = tree.children[0]
        assert isinstance(node, Tree)
        return str(node.data)
    return str(tree.data)


def events_of(line: str, start: str) -> list[Any]:
    parser = message_parser()
    parser.options.transformer.begin(NO_ENVELOPE, 1, 1 + line.count("\n"), line)
    result = parser.parse(line, start=start)
    return result if isinstance(result, list) else [result]


def envelope_of(case: GrammarCase) -> object:
    """The envelope the grammar makes of the case's line; its body and the native core's split
    are checked on the way."""
    envelope, body = split_envelope(case.line)
    assert body == case.body
    split = envelope_splitter().split(case.line)
    if case.rule in GRAMMAR_ONLY_ENVELOPES:
        assert split in (None, (envelope, body))
    else:
        assert split == (envelope, body)
    return envelope


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_rule_matches_its_line(case: GrammarCase) -> None:
    assert matched_rule(case.line, case.start, case.grammar) == case.rule
    if case.grammar == ENVELOPE:
        event = envelope_of(case)
    else:
        event = events_of(case.line, case.start)[0]
    assert type(event).__name__ == case.event_class
    for name, expected in case.fields.items():
        assert getattr(event, name) == expected, name


def test_cases_name_known_rules_starts_and_event_classes() -> None:
    # A typo in a case file would otherwise only show as a failing case.
    from trtlog.events import EVENTS_BY_KIND

    classes = {cls.__name__ for cls in EVENTS_BY_KIND.values()}
    for case in CASES:
        rules = {str(rule.alias or rule.origin.name) for rule in tree_parser(case.grammar).rules}
        assert case.rule in rules, case
        assert case.start in START_RULES[case.grammar], case
        assert case.event_class in (("Envelope",) if case.grammar == ENVELOPE else classes), case


def test_a_case_file_with_an_unknown_key_is_refused(tmp_path: Path) -> None:
    (tmp_path / "run.toml").write_text(
        "[[case]]\nrule = 'run_footer'\nline = 'x'\nevent = 'RunFooter'\nfeilds = {}\n"
    )
    with pytest.raises(ValueError, match=r"run.toml, case 1: unknown keys \['feilds'\]"):
        load_cases(tmp_path)


def test_a_body_is_given_for_envelope_cases_alone(tmp_path: Path) -> None:
    (tmp_path / "run.toml").write_text(
        "[[case]]\nrule = 'run_footer'\nline = 'x'\nevent = 'RunFooter'\nbody = 'x'\n"
    )
    with pytest.raises(ValueError, match=r"run\.toml, case 1: a body is an envelope's alone"):
        load_cases(tmp_path)
    (tmp_path / "run.toml").unlink()
    (tmp_path / "envelope.toml").write_text(
        "[[case]]\nrule = 'level_envelope'\nline = '[V] x'\nevent = 'Envelope'\n"
    )
    with pytest.raises(ValueError, match=r"envelope\.toml, case 1: a body"):
        load_cases(tmp_path)


def test_field_values_in_case_files_become_the_events_types() -> None:
    assert expected_value([[99.0, 0.164795]]) == ((99.0, 0.164795),)
    tactic = expected_value({"tactic": "-3360065831133338131"})
    assert isinstance(tactic, TacticId) and tactic == 0xD15EA5EDD15EA5ED
    assert expected_value({"tensor": {"name": "x", "dims": [1, 40]}}) == Tensor("x", dims=(1, 40))
    with pytest.raises(ValueError, match="tactic"):
        expected_value({"tactics": "0x1"})


@pytest.mark.parametrize("grammar", ["messages", ENVELOPE])
def test_every_grammar_rule_has_a_case(grammar: str) -> None:
    parser = tree_parser(grammar)
    rules = {str(rule.alias or rule.origin.name) for rule in parser.rules}
    rules = {name for name in rules if not name.startswith("_")} - HELPER_RULES
    covered: set[str] = set()
    for case in CASES:
        if case.grammar == grammar:
            covered.update(
                str(node.data) for node in parser.parse(case.line, start=case.start).iter_subtrees()
            )
    assert rules and sorted(rules - covered) == []


def test_event_classes_are_named_after_rules() -> None:
    # The primary rule of every event class exists in the grammar under the class's own name.
    from trtlog.events import EVENTS_BY_KIND

    rules = {str(rule.alias or rule.origin.name) for rule in tree_parser().rules}
    # Records the parser builds without a rule (by their place: a list announced on the line
    # before), and iterations read from --exportTimes JSON.
    elsewhere = ("unrecognized", "foreign", "announced_nodes", "iteration_timing")
    built_by_parser = {kind for kind in EVENTS_BY_KIND if kind not in elsewhere}
    assert sorted(built_by_parser - rules) == []


def test_engine_layer_tensors_in_each_layout() -> None:
    layer = events_of(
        "Layer(CaskConvolution): Conv-1 + ReLU-2, Tactic: 0x98e92db98836b738, "
        "Reformatted Input Tensor 0 to Conv-1 + ReLU-2 (Half[-1,1:2,28,28]) -> tensor-2 (Half[-1,32:2,28,28])",
        M,
    )[0]
    (source,) = layer.inputs
    assert source.name == "Reformatted Input Tensor 0 to Conv-1 + ReLU-2"
    assert (source.dtype, source.dims, source.vectorized) == ("Half", (-1, 1, 28, 28), ((1, 2),))
    old = events_of(
        "Layer(LogSoftmaxTopK): y + z, Tactic: 1001, add_3:0[Float(-2,10)] -> "
        "(Unnamed Layer* 48) [TopK]_output_1[Float(-2,1)], (Unnamed Layer* 48) [TopK]_output_2[Int32(-2,1)]",
        M,
    )[0]
    assert [t.name for t in old.outputs] == [
        "(Unnamed Layer* 48) [TopK]_output_1",
        "(Unnamed Layer* 48) [TopK]_output_2",
    ]
    assert [t.dtype for t in old.outputs] == ["Float", "Int32"]
    scalar = events_of(
        "Layer(Constant): (Unnamed Layer* 714) [Constant], Tactic: 0x0000000000000000,  -> "
        "(Unnamed Layer* 714) [Constant]_output (Int32[])",
        M,
    )[0]
    assert scalar.inputs == () and scalar.outputs[0].dims == ()


def test_detailed_layer_keeps_tensor_formats_and_attributes() -> None:
    line = next(case.line for case in CASES if case.rule == "engine_layer_detailed")
    layer = events_of(line, M)[0]
    assert layer.inputs[0].format == "Row major linear FP32" and layer.inputs[0].dtype == "Float"
    assert layer.outputs[0].dims == (1, 64, 112, 112)
    assert dict(layer.attributes)["Weights"] == '{"Type": "Float", "Count": 9408}'
    assert dict(layer.attributes)["Kernel"] == "[7,7]"


def test_layer_listing_builds_layers_and_bindings() -> None:
    events = events_of("Layers:\nConv-1 + ReLU-2\nMaxPool-3\n\nBindings:\ntensor-0\ntensor-15", T)
    names = [
        (type(e).__name__, getattr(e, "name", getattr(e, "title", None)), e.line) for e in events
    ]
    assert names == [
        ("LayerInformation", "Layers", 1), ("EngineLayer", "Conv-1 + ReLU-2", 2), ("EngineLayer", "MaxPool-3", 3),
        ("LayerInformation", "Bindings", 5), ("EngineBinding", "tensor-0", 6), ("EngineBinding", "tensor-15", 7),
    ]  # fmt: skip


def test_a_7x_internal_error_keeps_the_source_and_abort_lines_under_it() -> None:
    # TensorRT's own Python logger writes "INTERNAL ERROR" (lines from a public 7.2 log).
    text = (
        "[TensorRT] INTERNAL ERROR: Assertion failed: cublasStatus == CUBLAS_STATUS_SUCCESS\n"
        "../rtSafe/cublas/cublasLtWrapper.cpp:279\n"
        "Aborting...\n"
        "[TensorRT] ERROR: ../rtSafe/cublas/cublasLtWrapper.cpp (279) - Assertion Error in "
        "getCublasLtHeuristic: 0 (cublasStatus == CUBLAS_STATUS_SUCCESS)\n"
    )
    for fast in (True, False):
        log = parse_text(text, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (4, 0, 0)
        first, second = log.of(Diagnostic)
        assert (first.severity, first.line, first.end_line) == ("internal_error", 1, 3)
        assert first.text == "Assertion failed: cublasStatus == CUBLAS_STATUS_SUCCESS"
        assert first.continuation == ("../rtSafe/cublas/cublasLtWrapper.cpp:279", "Aborting...")
        assert (second.severity, second.line) == ("error", 4)


def test_a_clock_stamp_and_level_without_a_source_are_not_an_envelope() -> None:
    # Many programs print "[HH:MM:SS.mmm] [INFO] " before their own lines; TensorRT-Edge-LLM
    # always names the source.
    line = "[13:48:27.826] [INFO] Some program's message"
    assert split_envelope(line) == (NO_ENVELOPE, line)
    assert envelope_splitter().split(line) in (None, (NO_ENVELOPE, line))


def test_deepstream_and_onnxruntime_logs_keep_their_own_lines_apart() -> None:
    # DeepStream's GStreamer lines and nvdsinfer's own messages, and ONNX Runtime's own
    # messages, are foreign; TensorRT's messages through either are parsed.
    deepstream = (
        "0:00:03.873130954    54      0x4445af0 INFO                 nvinfer gstnvinfer.cpp:682:"
        "gst_nvinfer_logger:<primary-inference> NvDsInferContext[UID 1]: Info from "
        "NvDsInferContextImpl::buildModel() <nvdsinfer_context_impl.cpp:2002> [UID = 1]: Trying "
        "to create engine from model files\n"
        "INFO: [TRT]: [MemUsageChange] Init CUDA: CPU +0, GPU +0, now: CPU 300, GPU 4080 (MiB)\n"
        "WARNING: Deserialize engine failed because file path: /m/model.engine open error\n"
        "INFO: [TRT]: Total Activation Memory: 27443712\n"
    )
    onnxruntime = (
        "2021-10-15 14:48:59.515349260 [W:onnxruntime:log, tensorrt_execution_provider.cc:1195 "
        "Compile] [TensorRT EP] ORT_TENSORRT_FP16_ENABLE is set\n"
        "2021-10-15 14:49:01.100000000 [W:onnxruntime:log, tensorrt_execution_provider.h:53 log] "
        "[2021-10-15 06:49:01 UNKNOWN] Original: 10 layers\n"
    )
    for fast in (True, False):
        log = parse_text(deepstream, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (2, 2, 0)
        assert [(type(e).__name__, e.line) for e in log.events if e.producer == "trt"] == [
            ("MemUsageChange", 2),
            ("MemoryTotal", 4),
        ]
        log = parse_text(onnxruntime, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (1, 1, 0)
        (count,) = log.of(LayerCount)
        assert (count.stage, count.count, count.severity, count.line) == (
            "Original",
            10,
            "verbose",
            2,
        )


def test_a_triton_log_keeps_tritons_own_lines_apart() -> None:
    text = (
        "I0323 05:12:18.382437 1 tensorrt.cc:1483] Zero copy optimization is disabled\n"
        "I0323 05:12:18.843337 1 logging.cc:49] [MemUsageChange] Init CUDA: CPU +313, GPU +0, "
        "now: CPU 378, GPU 310 (MiB)\n"
        "I0323 05:12:19.057787 1 logging.cc:49] Loaded engine size: 126 MiB\n"
    )
    for fast in (True, False):
        log = parse_text(text, fast=fast)
        assert (log.counts.recognized, log.counts.foreign, log.counts.unrecognized) == (2, 1, 0)
        assert [(type(e).__name__, e.producer, e.line) for e in log.events] == [
            ("Foreign", "glog", 1),
            ("MemUsageChange", "trt", 2),
            ("MemoryAllocation", "trt", 3),
        ]
