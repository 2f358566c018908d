"""The tactics table's ``chosen`` column: a timing is chosen where its combination's ``Chose
Runner Type`` line names its runner and tactic. Checked against that rule applied row by row."""

from __future__ import annotations

from array import array

import numpy as np
import pandas as pd
import pytest

from tests.conftest import CORPUS_LOGS, corpus_dir, needs_corpus, parse_strict
from trtlog.analysis.combinations import ChoiceRows, Combination
from trtlog.analysis.tactic_marks import chosen_marks
from trtlog.analysis.tactics import TacticCollector
from trtlog.events.autotuning import ChoseRunner
from trtlog.events.base import TacticId


def _choice(runner: str, tactic: int) -> ChoseRunner:
    return ChoseRunner(
        line=1,
        end_line=1,
        timestamp=None,
        severity=None,
        producer="trt",
        chosen_runner=runner,
        tactic=TacticId(tactic),
    )


def _columns(combinations: dict[int, Combination]) -> dict[str, list]:
    rows = ChoiceRows()
    for number, combination in combinations.items():
        rows.add(number, combination)
    return rows.columns()


def test_each_choice_marks_only_its_runners_timings_of_its_tactic() -> None:
    # Combination -1: timings before any combination (no choice); 0: chose A's tactic 5;
    # 1: two choices (A's 7, then B's 7); 2: chose a runner that timed nothing.
    combination = np.array([-1, 0, 0, 0, 1, 1, 1, 2], dtype="int64")
    runner = pd.Categorical(["A", "A", "B", "A", "A", "B", None, "A"], categories=["A", "B"])
    tactic = np.array([5, 5, 5, 6, 7, 7, 7, 9], dtype="uint64")
    combinations = {
        -1: Combination(),
        0: Combination(chosen=(_choice("A", 5),)),
        1: Combination(chosen=(_choice("A", 7), _choice("B", 7))),
        2: Combination(chosen=(_choice("C", 9),)),
    }
    chosen = chosen_marks(combination, runner, tactic, _columns(combinations))
    assert chosen.tolist() == [False, True, False, False, True, True, False, False]


def test_no_choices_no_chosen_timings() -> None:
    runner = pd.Categorical(["A"], categories=["A"])
    no_choices = _columns({0: Combination()})
    chosen = chosen_marks(np.array([0]), runner, np.array([1], dtype="uint64"), no_choices)
    assert chosen.tolist() == [False]


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", CORPUS_LOGS, ids=lambda path: path.name)
def test_the_chosen_column_follows_the_choices_row_by_row(path: object) -> None:
    collector = TacticCollector().feed_all(parse_strict(path).events)  # type: ignore[arg-type]
    table = collector.tactics_table()
    columns = collector.choice_columns()
    choices = set(zip(columns["combination"], columns["runner"], columns["tactic"], strict=True))
    expected = [
        (number, runner, int(tactic, 16)) in choices
        for number, runner, tactic in zip(
            table["combination"], table["runner"], table["tactic"], strict=True
        )
    ]
    assert table["chosen"].tolist() == expected


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", CORPUS_LOGS, ids=lambda path: path.name)
def test_every_chose_runner_line_makes_one_choice_row_in_order(path: object) -> None:
    # A combination's rows are added when the next one opens, the last one's when the table is
    # built: none is lost or repeated, however the log ends.
    events = parse_strict(path).events  # type: ignore[arg-type]
    collector = TacticCollector().feed_all(events)
    columns = collector.choice_columns()
    chose = [event for event in events if isinstance(event, ChoseRunner)]
    assert list(columns["line"]) == [event.line for event in chose]
    assert list(columns["runner"]) == [event.chosen_runner for event in chose]
    assert list(columns["tactic"]) == [int(event.tactic) for event in chose]
    # Asked again, the same (the last combination's rows are not added twice).
    assert pd.DataFrame(collector.choice_columns()).equals(pd.DataFrame(columns))


@needs_corpus
def test_choice_rows_keep_numbers_in_arrays_and_each_text_once() -> None:
    path = corpus_dir() / "logs" / "hackathon_trt8.6.0_trtexec_build_rtx3090.log"
    events = parse_strict(path).events  # type: ignore[arg-type]
    columns = TacticCollector().feed_all(events).choice_columns()
    chose = [event for event in events if isinstance(event, ChoseRunner)]
    assert len(columns["line"]) == len(chose) > 10
    for name, typecode in [
        ("combination", "q"),
        ("tactic", "Q"),
        ("fallback_ms", "d"),
        ("tactics_skipped", "q"),
        ("tuning_seconds", "d"),
        ("line", "q"),
    ]:
        assert isinstance(columns[name], array) and columns[name].typecode == typecode, name
    # A layer is tuned in several format combinations, often with the same runner: the texts
    # repeat, each held once.
    for name in ("layer", "formats", "runner"):
        texts = [text for text in columns[name] if text is not None]
        assert len({id(text) for text in texts}) == len(set(texts)), name
        assert name == "formats" or len(set(texts)) < len(texts), name
