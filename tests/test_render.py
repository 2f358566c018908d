"""Tables as text: readable whether written to a terminal or to a file."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

import trtlog.render.frames
from trtlog.render.frames import render_markdown, render_table

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
