"""The ``choices`` table on hand-written 8.6-style autotuning sections, where each expected
value follows from the lines by reading them: ties, a runner-up of another runner, a chosen
tactic that is not the fastest, untimed tactics and a combination with one tactic only."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from trtlog.analysis import BuildLog
from trtlog.analysis.choices import _among, choices_frame
from trtlog.analysis.tactics import TacticCollector
from trtlog.parse import parse_text

_V = "[03/25/2023-07:13:17] [V] [TRT] "


def _log(*bodies: str) -> BuildLog:
    return BuildLog.from_parsed(parse_text("\n".join(_V + body for body in bodies) + "\n"))


def _combination(formats: str) -> str:
    return f"*************** Autotuning format combination: {formats} ***************"


def _runner(layer: str, runner: str) -> str:
    return f"--------------- Timing Runner: {layer} ({runner})"


def _tactic(kernel: str, tactic: int, time: str) -> str:
    return f"Tactic Name: {kernel} Tactic: 0x{tactic:016x} Time: {time}"


def _chose(runner: str, tactic: int) -> str:
    return f">>>>>>>>>>>>>>> Chose Runner Type: {runner} Tactic: 0x{tactic:016x}"


CASK = "CaskConvolution[0x80000009]"
CUDNN = "CudnnConvolution[0x80000000]"


SECTIONS = (
    # Combination 0: tactics 0x1 and 0x2 tie at 0.01; 0x1 is logged first and chosen, so
    # the runner-up is 0x2 (same time, gap 0). 0x3 is not timed (FLT_MAX).
    _combination("Float(1,1,1,1) -> Float(1,1,1,1)"),
    _runner("conv", CASK),
    _tactic("k_one", 0x1, "0.01"),
    _tactic("k_two", 0x2, "0.01"),
    _tactic("k_three", 0x3, "3.40282e+38"),
    _chose("CaskConvolution", 0x1),
    # Combination 1: the fastest timing is the chosen tactic's, twice over two runners'
    # lists; the runner-up is the fastest other (runner, tactic): CudnnConvolution's 0x1.
    _combination("Half(1,1,1,1) -> Half(1,1,1,1)"),
    _runner("conv", CASK),
    _tactic("k_one", 0x1, "0.02"),
    _tactic("k_four", 0x4, "0.05"),
    _runner("conv", CUDNN),
    _tactic("k_cudnn", 0x1, "0.03"),
    _tactic("k_cudnn_b", 0x5, "0.04"),
    _chose("CaskConvolution", 0x1),
    # Combination 2: the chosen tactic (0x7) is not the fastest (0x6): the runner-up is
    # the fastest, and the gap is negative.
    _combination("Int8(1,1,1,1) -> Int8(1,1,1,1)"),
    _runner("conv", CASK),
    _tactic("k_six", 0x6, "0.008"),
    _tactic("k_seven", 0x7, "0.010"),
    _chose("CaskConvolution", 0x7),
    # Combination 3: one tactic only: no runner-up.
    _combination("Float(2,1,1,1) -> Float(2,1,1,1)"),
    _runner("fc", CASK),
    _tactic("k_eight", 0x8, "0.5"),
    _chose("CaskConvolution", 0x8),
)


@pytest.fixture(scope="module")
def log() -> BuildLog:
    return _log(*SECTIONS)


@pytest.fixture(scope="module")
def choices(log: BuildLog) -> list[dict[str, object]]:
    return log.choices.to_dict("records")  # type: ignore[return-value]


def test_the_chosen_timings_are_those_of_the_chosen_runner(log: BuildLog) -> None:
    # Combination 1 timed tactic 0x1 under both runners: only CaskConvolution's was chosen.
    chosen = log.tactics[log.tactics["chosen"]]
    assert chosen[["combination", "runner", "kernel"]].values.tolist() == [
        [0, "CaskConvolution", "k_one"],
        [1, "CaskConvolution", "k_one"],
        [2, "CaskConvolution", "k_seven"],
        [3, "CaskConvolution", "k_eight"],
    ]


def test_a_tie_goes_to_the_tactic_logged_first(choices: list[dict[str, object]]) -> None:
    first = choices[0]
    assert (first["tactic"], first["kernel"], first["best_ms"]) == (
        "0x" + "0" * 15 + "1",
        "k_one",
        0.01,
    )
    assert first["runner_up_tactic"] == "0x" + "0" * 15 + "2"
    assert first["runner_up_ms"] == 0.01
    assert first["gap_percent"] == 0
    # The untimed tactic is not counted as tried.
    assert (first["tactics_tried"], first["runners_tried"]) == (2, 1)


def test_the_runner_up_may_be_another_runners_timing_of_the_same_tactic(
    choices: list[dict[str, object]],
) -> None:
    second = choices[1]
    assert (second["best_ms"], second["runner_up_ms"]) == (0.02, 0.03)
    assert second["runner_up_runner"] == "CudnnConvolution"
    assert second["runner_up_tactic"] == "0x" + "0" * 15 + "1"
    assert second["gap_percent"] == pytest.approx(50.0)
    assert (second["tactics_tried"], second["runners_tried"]) == (4, 2)


def test_a_chosen_tactic_slower_than_the_fastest(choices: list[dict[str, object]]) -> None:
    third = choices[2]
    assert (third["kernel"], third["best_ms"], third["runner_up_ms"]) == ("k_seven", 0.010, 0.008)
    assert third["runner_up_tactic"] == "0x" + "0" * 15 + "6"
    assert third["gap_percent"] == pytest.approx(-20.0)


def test_one_tactic_has_no_runner_up(choices: list[dict[str, object]]) -> None:
    last = choices[3]
    assert last["best_ms"] == 0.5
    assert pd.isna(last["runner_up_runner"]) and pd.isna(last["runner_up_tactic"])
    assert math.isnan(last["runner_up_ms"])  # type: ignore[arg-type]
    assert math.isnan(last["gap_percent"])  # type: ignore[arg-type]
    assert (last["tactics_tried"], last["runners_tried"]) == (1, 1)


def test_a_table_in_another_row_order_gives_the_same_choices() -> None:
    # No ties within a combination: the order of its rows does not matter.
    lines = [
        _combination("Float(1,1,1,1) -> Float(1,1,1,1)"),
        _runner("a", CASK),
        _tactic("k_one", 0x1, "0.02"),
        _tactic("k_two", 0x2, "0.01"),
        _chose("CaskConvolution", 0x1),
        _combination("Float(2,1,1,1) -> Float(2,1,1,1)"),
        _runner("b", CASK),
        _tactic("k_three", 0x3, "0.03"),
        _tactic("k_four", 0x4, "0.04"),
        _tactic("k_five", 0x5, "0.05"),
        _chose("CaskConvolution", 0x3),
    ]
    parsed = parse_text("\n".join(_V + line for line in lines) + "\n")
    collector = TacticCollector().feed_all(parsed.events)
    tactics, choices = collector.tables()
    # Rows of the two combinations interleaved: 0x4, 0x1, 0x5, 0x2, 0x3.
    shuffled = tactics.iloc[[3, 0, 4, 1, 2]]
    assert list(shuffled["combination"]) == [1, 0, 1, 0, 1]
    pd.testing.assert_frame_equal(choices_frame(shuffled, collector.choice_columns()), choices)
    assert list(choices["runner_up_ms"]) == [0.01, 0.04]
    assert list(choices["tactics_tried"]) == [2, 3]


def test_tactic_ids_past_two_to_the_63_and_a_choice_never_timed() -> None:
    # The choices' tactic ids are matched to the timings as numbers: 0xd15ea5edd15ea5ed does
    # not fit a signed 64-bit integer. The second combination chose a tactic it never timed
    # (as after a timing cache hit): no kernel, no best time (no fastest was reported), and
    # the runner-up is the fastest timing there is.
    big, untimed = 0xD15EA5EDD15EA5ED, 0xFEEDFACEFEEDFACE
    log = _log(
        _combination("Float(1,1,1,1) -> Float(1,1,1,1)"),
        _runner("conv", CASK),
        _tactic("k_big", big, "0.02"),
        _tactic("k_nine", 0x9, "0.03"),
        _chose("CaskConvolution", big),
        _combination("Half(1,1,1,1) -> Half(1,1,1,1)"),
        _runner("conv", CASK),
        _tactic("k_one", 0x1, "0.04"),
        _chose("CaskConvolution", untimed),
    )
    first, second = log.choices.to_dict("records")
    assert (first["tactic"], first["kernel"], first["best_ms"]) == (
        "0xd15ea5edd15ea5ed",
        "k_big",
        0.02,
    )
    assert (first["runner_up_tactic"], first["runner_up_ms"]) == ("0x" + "0" * 15 + "9", 0.03)
    assert first["gap_percent"] == pytest.approx(50.0)
    assert second["tactic"] == "0xfeedfacefeedface" and pd.isna(second["kernel"])
    assert math.isnan(second["best_ms"]) and math.isnan(second["gap_percent"])
    assert (second["runner_up_tactic"], second["runner_up_ms"]) == ("0x" + "0" * 15 + "1", 0.04)
    assert (second["tactics_tried"], second["runners_tried"]) == (1, 1)


@given(
    values=st.lists(st.integers(-1, 40), max_size=60),
    wanted=st.lists(st.integers(0, 50), max_size=20),
)
def test_combinations_among_the_chosen_ones_as_numpy_isin(
    values: list[int], wanted: list[int]
) -> None:
    values_array, wanted_array = np.array(values, dtype="int64"), np.array(wanted, dtype="int64")
    assert (
        _among(values_array, wanted_array).tolist() == np.isin(values_array, wanted_array).tolist()
    )
