"""Warnings and errors read from whole records: which rule claims them, in both parse modes.

Lines are quoted from public TensorRT logs (trtexec and Python API, 8.x-10.x).
"""

from __future__ import annotations

import pytest

from trtlog.events import Diagnostic, OptionLine, TacticDeviceRequest, TacticSkipped
from trtlog.events.base import TacticId
from trtlog.parse import parse_text

MODES = [pytest.param(True, id="fast"), pytest.param(False, id="grammar-alone")]


@pytest.mark.parametrize("fast", MODES)
def test_trtexec_errors_with_a_colon_are_diagnostics_not_option_echoes(fast: bool) -> None:
    log = parse_text(
        "[04/12/2022-11:30:51] [E] Error[10]: [optimizer.cpp::computeCosts::2011] Error Code 10:"
        " Internal Error (Could not find any implementation for node {ForeignNode[Unsqueeze_93"
        "...Softmax_2088]}.)\n"
        "[04/12/2022-11:30:51] [E] Error[2]: [builder.cpp::buildSerializedNetwork::609] Error Code"
        " 2: Internal Error (Assertion enginePtr != nullptr failed. )\n"
        "[07/07/2026-02:10:59] [W] Weakly-typed networks have been deprecated in TensorRT. You can"
        " use the AutoCast tool (https://nvidia.github.io/x.html) to convert the network.\n"
        "[07/07/2026-02:10:59] [I] Memory Pools: workspace: default, dlaSRAM: default\n",
        fast=fast,
    )
    first, second, third, option = log.events
    assert isinstance(first, Diagnostic) and isinstance(second, Diagnostic)
    assert (first.severity, first.error_code, first.category) == ("error", 10, "Internal Error")
    assert first.origin == "Error[10]: [optimizer.cpp::computeCosts::2011]"
    assert first.text.startswith("Error[10]: [optimizer.cpp::computeCosts::2011] Error Code 10: ")
    assert second.error_code == 2
    assert isinstance(third, Diagnostic) and third.severity == "warning"
    assert third.text.startswith("Weakly-typed networks have been deprecated")
    # trtexec's option echoes, at INFO, are still option lines.
    assert isinstance(option, OptionLine) and option.key == "Memory Pools"


def test_an_error_code_message_keeps_its_text_as_printed() -> None:
    line = (
        "[07/07/2026-06:14:05] [TRT] [E] IRefitter::setNamedWeightsWithLocation: Error Code 3: API"
        " Usage Error (conv1.weight: The weights cannot be refitted.)"
    )
    (event,) = parse_text(line + "\n").events
    assert isinstance(event, Diagnostic)
    assert event.text == line.split("[E] ", 1)[1]
    assert event.origin == "IRefitter::setNamedWeightsWithLocation"


@pytest.mark.parametrize("fast", MODES)
def test_tactics_skipped_for_memory_are_linked_to_their_layer(fast: bool) -> None:
    log = parse_text(
        "[10/18/2023-20:26:59] [V] [TRT] =============== Computing costs for Conv_12\n"
        "[10/18/2023-20:26:59] [V] [TRT] *************** Autotuning format combination:"
        " Float(1,2) -> Float(3,4) ***************\n"
        "[10/18/2023-20:26:59] [V] [TRT] --------------- Timing Runner: Conv_12 (CaskConvolution)\n"
        "[10/18/2023-20:27:00] [W] [TRT] Tactic Device request: 448MB Available: 425MB. Device"
        " memory is insufficient to use tactic.\n"
        "[10/18/2023-20:27:00] [W] [TRT] Skipping tactic 3 due to insuficient memory on requested"
        " size of 449 detected for tactic 4.\n"
        "Try decreasing the workspace size with IBuilderConfig::setMaxWorkspaceSize().\n"
        "[10/18/2023-20:27:01] [TRT] [W] UNSUPPORTED_STATESkipping tactic 4 due to insufficient"
        " memory on requested size of 66048 detected for tactic 0x000000000000001f.\n",
        fast=fast,
    )
    request, legacy, current = log.events[3:]
    assert isinstance(request, TacticDeviceRequest)
    assert (request.requested_bytes, request.available_bytes) == (448 << 20, 425 << 20)
    assert isinstance(legacy, TacticSkipped) and isinstance(current, TacticSkipped)
    # The bare line under the 8.x warning is its own, not another program's output.
    assert (legacy.line, legacy.end_line) == (5, 6)
    assert legacy.tactic == TacticId(4) and legacy.scratch_requested is None
    assert current.tactic == TacticId(0x1F) and current.scratch_requested == 66048
    assert legacy.reason == current.reason == "insufficient memory"
    for event in (request, legacy, current):
        assert (event.layer, event.runner) == ("Conv_12", "CaskConvolution")
    assert log.counts.foreign == log.counts.unrecognized == 0
