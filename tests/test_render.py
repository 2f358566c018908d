"""Tables as text: readable whether written to a terminal or to a file."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

import trtlog.render.frames
from tests.conftest import corpus_log, examples
from trtlog.analysis.buildlog import TABLES, BuildLog
from trtlog.render.drawn_rows import drawn_table
from trtlog.render.frames import (
    TABLE_ROWS_SHOWN,
    Layout,
    _render_table,
    render_markdown,
    render_table,
)

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
    # Missing values empty, booleans as a mark, times to four significant digits with the
    # unit in the header; text with a bar escaped.
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
    assert stream.getvalue().splitlines()[0] == "| layer | chosen | time (ms) | runner id |"
    assert stream.getvalue().splitlines()[2:] == [
        "| a\\|b | ✓ | 0.002949 | 7 |",
        "|  |  |  |  |",
    ]


# Cells of log text: names with brackets and blanks (plain text, whose rows are drawn), wide and
# zero-width characters, tabs and control characters (which rich drops), and now and then a
# line break.
_CELL_TEXT = st.one_of(
    st.none(),
    st.text(alphabet=st.sampled_from("ab_/ []()x:,.-|✓"), max_size=30),
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


def _layouts(frame: pd.DataFrame, title: str | None) -> dict[Layout, str]:
    texts = {}
    for layout in Layout:
        stream = io.StringIO()
        _render_table(frame, stream, title, layout=layout)
        texts[layout] = stream.getvalue()
    return texts


@settings(max_examples=examples(300), deadline=None)
@given(frame=_frames(), title=st.none() | st.text(max_size=40))
def test_rows_drawn_or_joined_lay_out_as_rows_one_by_one(
    frame: pd.DataFrame, title: str | None
) -> None:
    texts = _layouts(frame, title)
    assert texts[Layout.DRAWN] == texts[Layout.ROW_BY_ROW]
    assert texts[Layout.JOINED] == texts[Layout.ROW_BY_ROW]


@settings(max_examples=examples(100), deadline=None)
@given(frame=_frames(), width=st.sampled_from(["60", "80", "200"]))
def test_rows_drawn_or_joined_lay_out_as_rows_one_by_one_on_a_terminal(
    frame: pd.DataFrame, width: str
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FORCE_COLOR", "1")
        patch.setenv("COLUMNS", width)
        texts = _layouts(frame, "choices")
    assert "\x1b[" in texts[Layout.ROW_BY_ROW]
    assert texts[Layout.DRAWN] == texts[Layout.ROW_BY_ROW]
    assert texts[Layout.JOINED] == texts[Layout.ROW_BY_ROW]


def _rows_handed_to_rich(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    added: list[tuple[str, ...]] = []
    original = Table.add_row

    def add_row(table: Table, *cells: object, **options: object) -> None:
        added.append(tuple(str(cell) for cell in cells))
        original(table, *cells, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Table, "add_row", add_row)
    return added


def test_a_table_of_plain_text_that_fits_has_its_rows_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    added = _rows_handed_to_rich(monkeypatch)
    frame = pd.concat([_choices_like()] * 200, ignore_index=True)
    frame["chosen"] = [True, False, False] * 200
    stream = io.StringIO()
    render_table(frame, stream, "choices")
    # Rich lays out one row, of each column's widest cell; the 600 rows are drawn like it.
    assert added == [
        (
            LAYERS[0],
            "Half(3136,1:8,112,4) -> Half(784,1:8,56,4)",
            "CaskConvolution",
            "0xf9ae51e35ff7f5db",
            frame["kernel"][0],
            "0.002949",
            "0x0090bbea764abf95",
            "0.003",
            "0.68",
            "18",
            "✓",
        )
    ]
    lines = _lines_naming_a_layer(stream.getvalue())
    assert len(lines) == 600
    assert lines[1].startswith("│ /backbone/stage1/conv_1 │ Half(3136")
    # "tactics_tried" (13 wide) right-justified, "chosen" (6 wide) empty.
    assert lines[1].endswith("│ " + "5".rjust(13) + " │ " + " " * 6 + " │")
    # A cell that is not plain text (a wide character): the rows go to rich, joined.
    added.clear()
    frame.loc[7, "layer"] = "层"
    render_table(frame, io.StringIO(), "choices")
    assert len(added) == 1
    assert added[0][0].count("\n") == 599


def test_rows_are_not_drawn_where_rich_would_lay_them_out_otherwise() -> None:
    # A style on the rows: the row drawn here is not the one rich laid out.
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    table = Table(row_styles=["bold"])
    table.add_column("layer")
    table.add_column("time_ms", justify="right")
    rows = [["conv_1", "0.5"], ["a longer name", "12.25"]]
    assert drawn_table(console, table, rows, [False, True]) is None
    table = Table()
    table.add_column("layer")
    table.add_column("time_ms", justify="right")
    expected = Table()
    expected.add_column("layer")
    expected.add_column("time_ms", justify="right")
    for row in rows:
        expected.add_row(*row)
    with console.capture() as capture:
        console.print(expected)
    assert drawn_table(console, table, rows, [False, True]) == capture.get()


def test_a_table_too_wide_to_fit_goes_to_rich_row_by_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    added = _rows_handed_to_rich(monkeypatch)
    # Too wide for a file (kernel names of 1,000 characters): row by row, names folding.
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


@pytest.mark.slow
@pytest.mark.parametrize("name", _RENDERED_LOGS)
def test_every_table_of_a_corpus_log_lays_out_the_same_drawn_or_joined(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = BuildLog.from_parsed(corpus_log(name))
    added = _rows_handed_to_rich(monkeypatch)
    taken = {Layout.DRAWN: 0, Layout.JOINED: 0}
    for table_name in TABLES:
        frame = log.table(table_name).head(TABLE_ROWS_SHOWN)
        texts = {}
        for layout in Layout:
            added.clear()
            stream = io.StringIO()
            _render_table(frame, stream, table_name, layout=layout)
            texts[layout] = stream.getvalue()
            # One row handed to rich for several: its cells hold every row's lines where they
            # were joined, the widest cells where the rows were drawn.
            if layout in taken and len(frame) > 1 and len(added) == 1:
                joined = any("\n" in cell for cell in added[0])
                taken[layout] += joined == (layout is Layout.JOINED)
        assert texts[Layout.DRAWN] == texts[Layout.ROW_BY_ROW], table_name
        assert texts[Layout.JOINED] == texts[Layout.ROW_BY_ROW], table_name
    # The comparisons mean something only where the faster layouts were taken.
    assert taken[Layout.DRAWN] >= 2
    assert taken[Layout.JOINED] >= 2
