"""Tables as text: readable whether written to a terminal or to a file."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.table import Table

import trtlog.render.frames
from tests.conftest import corpus_log
from trtlog.analysis.buildlog import TABLES, BuildLog
from trtlog.render.frames import TABLE_ROWS_SHOWN, _render_table, render_markdown, render_table

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
LAYERS = [f"/backbone/stage{index}/conv_{index}" for index in range(3)]


def _choices_like(kernel_length: int = 80) -> pd.DataFrame:
    """A layer_choices-shaped frame: long names and formats, tactic ids, several numbers."""
    return pd.DataFrame(
        {
            "layer": LAYERS,
            "formats": ["Half(3136,1:8,112,4) -> Half(784,1:8,56,4)"] * 3,
            "runner": ["CaskConvolution"] * 3,
            "tactic": ["0xf9ae51e35ff7f5db"] * 3,
            "kernel": ["sm80_xmma_fprop_implicit_gemm_" + "x" * (kernel_length - 30)] * 3,
            "best_ms": [0.00294885, 0.1, 2.5],
            "runner_up_tactic": ["0x0090bbea764abf95"] * 3,
            "runner_up_ms": [0.003, 0.2, 2.6],
            "gap_percent": [0.68, 1.2, 1.5],
            "tactics_tried": [18, 5, 2],
        }
    )


def _lines_naming_a_layer(text: str) -> list[str]:
    return [line for line in _ANSI.sub("", text).splitlines() if "/backbone/" in line]


def test_a_table_written_to_a_file_keeps_each_row_on_one_line() -> None:
    stream = io.StringIO()
    render_table(_choices_like(), stream, "choices")
    lines = _lines_naming_a_layer(stream.getvalue())
    assert [next(name for name in LAYERS if name in line) for line in lines] == LAYERS
    assert all("sm80_xmma_fprop_implicit_gemm_" + "x" * 50 in line for line in lines)


def test_a_table_too_wide_even_for_a_file_keeps_names_readable() -> None:
    stream = io.StringIO()
    render_table(_choices_like(kernel_length=1000), stream, None)
    # The kernel column folds; the layer column still holds each name whole on its first line.
    lines = _lines_naming_a_layer(stream.getvalue())
    assert [next(name for name in LAYERS if name in line) for line in lines] == LAYERS


def test_a_narrow_terminal_keeps_names_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    stream = io.StringIO()
    render_table(_choices_like(), stream, None)
    text = _ANSI.sub("", stream.getvalue())
    assert "\x1b[" in stream.getvalue()  # rendered as for a terminal
    # Names fold at 20 characters at the narrowest, never a letter or two a line.
    assert "/backbone/stage0/con" in text and "/backbone/stage2/con" in text


def test_a_long_table_shows_its_first_rows_and_says_how_many_it_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every layer's choices of a large build are tens of thousands of rows, which rich takes
    # minutes to lay out; the other formats give them all.
    monkeypatch.setattr(trtlog.render.frames, "TABLE_ROWS_SHOWN", 2)
    stream = io.StringIO()
    render_table(_choices_like(), stream, "choices")
    text = _ANSI.sub("", stream.getvalue())
    assert [line.split("│")[1].strip() for line in _lines_naming_a_layer(text)] == LAYERS[:2]
    assert text.rstrip().endswith(
        "1 more row not shown: --format csv, json or markdown gives every row."
    )
    markdown = io.StringIO()
    render_markdown(_choices_like(), markdown, "choices")
    assert len(_lines_naming_a_layer(markdown.getvalue())) == 3


def test_markdown_rows_hold_the_cells_as_tables_show_them() -> None:
    # Missing values empty, booleans as a mark, floats compact; text with a bar escaped.
    frame = pd.DataFrame(
        {
            "layer": pd.array(["a|b", None], dtype="str"),
            "chosen": [True, False],
            "time_ms": [0.00294885, float("nan")],
            "runner_id": pd.array([7, None], dtype="Int64"),
        }
    )
    stream = io.StringIO()
    render_markdown(frame, stream, None)
    assert stream.getvalue().splitlines()[2:] == [
        "| a\\|b | ✓ | 0.00294885 | 7 |",
        "|  |  |  |  |",
    ]


# Cells of log text: names with brackets and blanks, wide and zero-width characters, tabs and
# control characters (which rich drops), and now and then a line break.
_CELL_TEXT = st.one_of(
    st.none(),
    st.text(alphabet=st.sampled_from("ab_/ []()x:,.-\t\r\x07é中🙂\u0301|"), max_size=30),
    st.text(alphabet=st.sampled_from("ab \n"), max_size=6),
)


@st.composite
def _frames(draw: st.DrawFn) -> pd.DataFrame:
    rows = draw(st.integers(min_value=1, max_value=8))
    columns: dict[str, object] = {}
    for position in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.sampled_from(["text", "tactic", "float", "count", "flag"]))
        name = f"{kind}_{position}" if kind != "tactic" else f"tactic_{position}"
        if kind in ("text", "tactic"):
            values = draw(st.lists(_CELL_TEXT, min_size=rows, max_size=rows))
            columns[name] = pd.array(values, dtype="str")
        elif kind == "float":
            numbers = st.floats(allow_infinity=False) | st.sampled_from([0.00294885, 2e7])
            columns[name] = draw(st.lists(numbers, min_size=rows, max_size=rows))
        elif kind == "count":
            counts = st.none() | st.integers(min_value=-(10**12), max_value=10**12)
            columns[name] = pd.array(
                draw(st.lists(counts, min_size=rows, max_size=rows)), dtype="Int64"
            )
        else:
            columns[name] = draw(st.lists(st.booleans(), min_size=rows, max_size=rows))
    return pd.DataFrame(columns)


def _both_layouts(frame: pd.DataFrame, title: str | None) -> tuple[str, str]:
    joined, row_by_row = io.StringIO(), io.StringIO()
    _render_table(frame, joined, title, join_rows=True)
    _render_table(frame, row_by_row, title, join_rows=False)
    return joined.getvalue(), row_by_row.getvalue()


@settings(max_examples=300, deadline=None)
@given(frame=_frames(), title=st.none() | st.text(max_size=40))
def test_rows_joined_into_one_lay_out_as_rows_one_by_one(
    frame: pd.DataFrame, title: str | None
) -> None:
    joined, row_by_row = _both_layouts(frame, title)
    assert joined == row_by_row


@settings(max_examples=100, deadline=None)
@given(frame=_frames(), width=st.sampled_from(["60", "80", "200"]))
def test_rows_joined_into_one_lay_out_as_rows_one_by_one_on_a_terminal(
    frame: pd.DataFrame, width: str
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FORCE_COLOR", "1")
        patch.setenv("COLUMNS", width)
        joined, row_by_row = _both_layouts(frame, "choices")
    assert "\x1b[" in joined
    assert joined == row_by_row


def test_a_table_that_fits_is_handed_to_rich_as_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    # The layout that takes milliseconds instead of seconds for hundreds of rows.
    added: list[int] = []
    original = Table.add_row

    def add_row(table: Table, *cells: object, **options: object) -> None:
        added.append(len(cells))
        original(table, *cells, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Table, "add_row", add_row)
    frame = pd.concat([_choices_like()] * 200, ignore_index=True)
    stream = io.StringIO()
    render_table(frame, stream, "choices")
    assert added == [len(frame.columns)]
    assert len(_lines_naming_a_layer(stream.getvalue())) == 600
    # Too wide for a file (kernel names of 1,000 characters): row by row, names folding.
    added.clear()
    render_table(_choices_like(kernel_length=1000), io.StringIO(), None)
    assert len(added) == 3


# Builds of several versions and front ends: tactic timings with and without kernel names,
# Myelin layers, engine layer listings, per-layer profiles.
_RENDERED_LOGS = (
    "hackathon_trt10.16.1_trtexec_build_h100.log",
    "hackathon_trt8.6.0_trtexec_build_rtx3090.log",
    "lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log",
    "hackathon_trt8.4.1_trtexec_build_fp16_gtx1070.log",
    "jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log",
)


@pytest.mark.parametrize("name", _RENDERED_LOGS)
def test_every_table_of_a_corpus_log_lays_out_the_same_joined(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = BuildLog.from_parsed(corpus_log(name))
    added: list[int] = []
    original = Table.add_row

    def add_row(table: Table, *cells: object, **options: object) -> None:
        added.append(1)
        original(table, *cells, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Table, "add_row", add_row)
    joined_tables = 0
    for table_name in TABLES:
        frame = log.table(table_name).head(TABLE_ROWS_SHOWN)
        added.clear()
        joined = io.StringIO()
        render_table(frame, joined, table_name)
        joined_tables += len(frame) > 1 and len(added) == 1
        row_by_row = io.StringIO()
        _render_table(frame, row_by_row, table_name, join_rows=False)
        assert joined.getvalue() == row_by_row.getvalue(), table_name
    # The comparison means something only where the joined layout was taken.
    assert joined_tables >= 2
