"""The tactics table a range of rows at a time (``trtlog.analysis.tactic_frames``): its frames
make the whole table, the choices made from the columns they read are those made from the whole
table, and the store writes a large log's tactics table frame by frame, never whole."""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import trtlog.store.parquet_tables
from tests.conftest import corpus_dir
from trtlog.analysis import TABLES, BuildLog
from trtlog.analysis.stream import TableStream
from trtlog.analysis.tactic_frames import TacticFrames, _distinct
from trtlog.store.parquet_tables import ParquetTables, index_path, write_frames, write_table
from trtlog.store.sources import read_sources, resolve
from trtlog.store.table_writing import write_tables

# Builds with thousands of timings, engine layer listings (in-engine marks) and, in 8.6, tactics
# stopped at the time limit; 8.5 with named kernels.
_LOGS = [
    "hackathon_trt10.16.1_trtexec_build_h100.log",
    "hackathon_trt8.6.0_trtexec_build_rtx3090.log",
    "lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log",
]


def _stream(name: str) -> tuple[TableStream, BuildLog]:
    path = corpus_dir() / "logs" / name
    if not path.is_file():
        pytest.skip(f"corpus log {name} not found in {corpus_dir()}")
    stream = TableStream()
    shell = read_sources(resolve(str(path)), stream.feed)
    return stream, BuildLog.from_stream(shell, stream)


def _joined(frames: list[pd.DataFrame]) -> pd.DataFrame:
    return pd.concat(frames, ignore_index=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", _LOGS)
def test_the_frames_of_any_size_make_the_whole_table(name: str) -> None:
    stream, _ = _stream(name)
    frames = stream.tactic_frames()
    whole = frames.whole()
    assert len(whole) == frames.rows > 1000
    # Frames that cut runner blocks, segments and format combinations anywhere.
    for rows in (1, 7, 500, frames.rows):
        pd.testing.assert_frame_equal(_joined(list(frames.frames(rows))), whole)
    assert whole["chosen"].any() and whole["fastest"].any()
    if "10.16" in name or "8.6" in name:
        assert whole["in_engine"].any()


@pytest.mark.slow
@pytest.mark.parametrize("name", _LOGS)
def test_marks_and_choices_worked_out_in_small_parts_are_those_of_one_part(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The corpus logs time fewer tactics than one part holds: one part, the whole table.
    stream, _ = _stream(name)
    whole = stream.tactics_table()
    choices = stream.choices_table(whole)
    assert len(choices) > 10
    # Parts of about 50 rows: cut at hundreds of combinations and runner blocks.
    monkeypatch.setattr("trtlog.analysis.tactic_frames.PART_ROWS", 50)
    small = TableStream.__new__(TableStream)
    small.__dict__.update(stream.__dict__)
    small._frames = None
    assert len(list(small.tactic_frames().parts())) > 10
    pd.testing.assert_frame_equal(small.tactics_table(), whole)
    pd.testing.assert_frame_equal(small.choices_table(), choices)


@pytest.mark.slow
def test_frames_written_one_by_one_read_back_as_the_whole_table_with_its_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, _ = _stream(_LOGS[1])
    frames = stream.tactic_frames()
    whole = frames.whole()
    group_rows = 300
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", group_rows)
    (tmp_path / "frames").mkdir()
    (tmp_path / "whole").mkdir()
    write_frames(frames.frames(group_rows), tmp_path / "frames" / "tactics.parquet")
    write_table(whole, tmp_path / "whole" / "tactics.parquet")
    for folder in ("frames", "whole"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / folder / "tactics.parquet"), whole)
    indexes = [
        json.loads(index_path(tmp_path / folder / "tactics.parquet").read_text())
        for folder in ("frames", "whole")
    ]
    assert indexes[0] == indexes[1] and len(indexes[0]["layers"]) > 10
    layer = str(whole["layer"].value_counts().index[0])
    expected = whole[whole["layer"] == layer].reset_index(drop=True)
    read = ParquetTables(tmp_path / "frames").read("tactics", where=("layer", [layer]))
    pd.testing.assert_frame_equal(read, expected)


def _layered(rows: int) -> pd.DataFrame:
    names = [f"layer_{number // 7}" for number in range(rows)]
    return pd.DataFrame(
        {"layer": pd.Categorical(names), "time_ms": [number / 8 for number in range(rows)]}
    )


def test_each_frame_is_let_go_before_the_next_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 16)
    table = _layered(100)
    made: list[weakref.ref[pd.DataFrame]] = []

    def frames() -> Iterator[pd.DataFrame]:
        for start in range(0, len(table), 16):
            assert all(frame() is None for frame in made), "a frame written is still held"
            frame = table.iloc[start : start + 16].reset_index(drop=True)
            made.append(weakref.ref(frame))
            yield frame
            del frame

    write_frames(frames(), tmp_path / "tactics.parquet")
    assert len(made) == 7
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "tactics.parquet"), table)
    assert index_path(tmp_path / "tactics.parquet").is_file()


def test_one_frame_made_is_written_as_a_small_table_without_an_index(tmp_path: Path) -> None:
    import pyarrow.parquet as parquet

    table = _layered(30)
    path = tmp_path / "tactics.parquet"
    # An index left by an earlier write of more groups would name groups the file lacks.
    index_path(path).write_text("{}")
    write_frames(iter([table]), path)
    pd.testing.assert_frame_equal(pd.read_parquet(path), table)
    assert parquet.ParquetFile(path).num_row_groups == 1
    assert not index_path(path).exists()


def test_distinct_tactic_ids_are_found_part_by_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("trtlog.analysis.tactic_frames.PART_ROWS", 3)
    # Ids are TensorRT's unsigned 64-bit values: those of 2**63 and above too.
    ids = [2**64 - 1, 5, 2**63, 5, 0, 2**63 - 1, 2**63, 7, 2**64 - 1, 0]
    found = _distinct(np.array(ids, dtype="uint64"))
    assert found.dtype == np.uint64
    assert found.tolist() == [0, 5, 7, 2**63 - 1, 2**63, 2**64 - 1]
    empty = _distinct(np.array([], dtype="uint64"))
    assert empty.dtype == np.uint64 and len(empty) == 0


def test_a_frame_larger_than_a_row_group_is_refused(tmp_path: Path) -> None:
    rows = trtlog.store.parquet_tables.ROW_GROUP_ROWS + 1
    layer = pd.Categorical(["a"] * rows)
    frames = [pd.DataFrame({"layer": layer}), pd.DataFrame({"layer": layer})]
    with pytest.raises(ValueError, match="at most"):
        write_frames(frames, tmp_path / "tactics.parquet")


@pytest.mark.slow
def test_the_store_writes_a_large_tactics_table_frame_by_frame_never_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, log = _stream(_LOGS[0])
    expected = _stream(_LOGS[0])[0].tactics_table()

    def refused(frames: TacticFrames) -> pd.DataFrame:
        raise AssertionError("the whole tactics table was made")

    monkeypatch.setattr(trtlog.store.parquet_tables, "ROW_GROUP_ROWS", 200)
    monkeypatch.setattr(TacticFrames, "whole", refused)
    write_tables(log, tmp_path, list(TABLES), split=False)
    stored = ParquetTables(tmp_path)
    pd.testing.assert_frame_equal(stored.read("tactics"), expected)
    assert len(expected) > 5 * 200
    assert not stored.read("choices").empty


def test_a_stream_read_on_after_its_tables_were_made_makes_them_anew() -> None:
    from tests.conftest import SAMPLES, parse_strict
    from trtlog.parse.items import events_of

    events = list(events_of(parse_strict(SAMPLES / "trtexec_8.x_build.log").events))
    half = len(events) // 2
    stream = TableStream().feed_all(events[:half])
    first = stream.tactics_table()
    assert len(first) > 0
    del first
    stream.feed_all(events[half:])
    whole = TableStream().feed_all(events).tactics_table()
    pd.testing.assert_frame_equal(stream.tactics_table(), whole)
