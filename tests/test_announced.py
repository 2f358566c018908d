"""Lists printed on the line after the message that announces them: 7.1's layers running on
DLA or GPU, 10.x's layernorm nodes in FP16."""

from __future__ import annotations

from tests.conftest import CORPUS_LOGS, needs_corpus
from trtlog.events import AnnouncedNodes, Diagnostic, Unrecognized
from trtlog.parse import parse_file, parse_text

STAMP = "[03/28/2024-08:27:29] "
LAYERNORM = (
    STAMP + "[TRT] [W] Detected layernorm nodes in FP16.\n"
    + STAMP + "[TRT] [V] /encoder/norm/ReduceMean, /encoder/norm/Sub, /encoder/norm/Pow\n"
    + STAMP + "[TRT] [W] Running layernorm after self-attention in FP16 may cause overflow.\n"
)  # fmt: skip


def test_the_nodes_a_warning_announces_are_read_from_the_next_line() -> None:
    for fast in (True, False):
        log = parse_text(LAYERNORM, fast=fast)
        assert log.counts.unrecognized == 0
        (nodes,) = log.of(AnnouncedNodes)
        assert nodes.nodes == ("/encoder/norm/ReduceMean", "/encoder/norm/Sub", "/encoder/norm/Pow")
        assert (nodes.line, nodes.severity) == (2, "verbose")
        assert nodes.announcement == "Detected layernorm nodes in FP16."
        assert [d.line for d in log.of(Diagnostic)] == [1, 3]


def test_only_the_next_line_is_read_as_the_list() -> None:
    # A line the grammar does not know two lines after the announcement stays unrecognised.
    text = (
        STAMP + "[TRT] [W] Detected layernorm nodes in FP16.\n"
        + STAMP + "[TRT] [V] Original: 18 layers\n"
        + STAMP + "[TRT] [V] /encoder/norm/ReduceMean, /encoder/norm/Sub\n"
    )  # fmt: skip
    log = parse_text(text)
    assert log.of(AnnouncedNodes) == []
    assert [u.line for u in log.of(Unrecognized)] == [3]


def test_the_layers_after_a_7_1_header_are_one_event() -> None:
    stamp = "[02/21/2021-22:46:08] [I] [TRT] "
    text = (
        stamp + "--------------- Layers running on DLA: \n"
        + stamp + "\n"
        + stamp + "--------------- Layers running on GPU: \n"
        + stamp + "conv1 + relu1, pool1, fc, prob, \n"
    )  # fmt: skip
    log = parse_text(text)
    assert log.counts.unrecognized == 0
    (layers,) = log.of(AnnouncedNodes)
    assert layers.announcement == "--------------- Layers running on GPU:"
    assert (layers.line, layers.nodes) == (4, ("conv1 + relu1", "pool1", "fc", "prob"))


@needs_corpus
def test_the_jetson_7_1_log_lists_its_gpu_layers() -> None:
    path = next(path for path in CORPUS_LOGS if "jetson_trt7.1" in path.name)
    log = parse_file(path)
    assert log.counts.unrecognized == 0
    lists = log.of(AnnouncedNodes)
    # Seven runs, each listing the same 65 GPU layers on one line (line 56 in the first run),
    # from "conv1/7x7_s2 + conv1/relu_7x7 + pool1/3x3_s2" to "prob".
    assert [layers.line for layers in lists][:3] == [56, 618, 922] and len(lists) == 7
    first = lists[0]
    assert first.announcement.endswith("Layers running on GPU:") and len(first.nodes) == 65
    assert (first.nodes[0], first.nodes[-1]) == (
        "conv1/7x7_s2 + conv1/relu_7x7 + pool1/3x3_s2",
        "prob",
    )
