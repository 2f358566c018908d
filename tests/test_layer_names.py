"""Matching ``--layer`` patterns to layer names, the closest names when none matches, and the
parts of an engine layer's name."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from trtlog.analysis import queries
from trtlog.analysis.names import split_top_level
from trtlog.analysis.queries import NoMatch, closest_names, match_layers

# A large language model's layers: the same few dozen names in each of 80 decoder layers, and
# some more once per network (as TensorRT-LLM and ONNX exports name them).
PARTS = [
    "input_layernorm/Mul",
    "self_attn/q_proj/MatMul",
    "self_attn/k_proj/MatMul",
    "self_attn/v_proj/MatMul",
    "self_attn/o_proj/MatMul",
    "self_attn/rotary_emb/Cos",
    "self_attn/Softmax",
    "post_attention_layernorm/Mul",
    "mlp/gate_proj/MatMul",
    "mlp/up_proj/MatMul",
    "mlp/down_proj/MatMul",
    "mlp/act_fn/Sigmoid",
] + [f"extra_{letter}/Add" for letter in "abcdefghijklmnopqrstuvwxyz"]
LARGE = [f"/model/layers.{number}/{part}" for number in range(80) for part in PARTS]


def test_many_names_are_compared_by_shape_then_by_name() -> None:
    assert len(LARGE) > 2000
    closest = closest_names("/model/layers.17/mlp/down_prj/MatMul", LARGE)
    assert closest[0] == "/model/layers.17/mlp/down_proj/MatMul"
    assert all("down_proj" in name for name in closest)
    # A layer number the model does not have: the names of that shape.
    closest = closest_names("/model/layers.93/self_attn/Softmax", LARGE)
    assert len(closest) == 5
    assert all(name.endswith("/self_attn/Softmax") for name in closest)


def test_many_names_are_not_all_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[int] = []
    original = difflib.get_close_matches

    def close_matches(word: str, possibilities: list[str], n: int, cutoff: float) -> list[str]:
        compared.append(len(possibilities))
        return original(word, possibilities, n, cutoff)

    monkeypatch.setattr(queries.difflib, "get_close_matches", close_matches)
    closest_names("/model/layers.17/mlp/down_prj/MatMul", LARGE)
    # The 38 shapes, then the 80 names of each of the 5 closest shapes.
    assert compared == [len(PARTS), 5 * 80]


def test_a_few_names_are_compared_one_by_one() -> None:
    names = [f"/conv{number}/Conv + /relu{number}/Relu" for number in range(40)] + ["/pool/Max"]
    assert closest_names("/conv3/Conv", names) == difflib.get_close_matches(
        "/conv3/Conv", names, n=5, cutoff=0.3
    )


def test_no_match_names_the_closest_of_many() -> None:
    with pytest.raises(NoMatch) as raised:
        match_layers(LARGE, "layers.17/mlp/dwn_proj")
    assert "closest: /model/layers.17/mlp/down_proj/MatMul" in str(raised.value)


def test_nothing_alike_suggests_nothing() -> None:
    assert closest_names("%%%%", LARGE) == []


def _split_char_by_char(text: str, separator: str) -> list[str]:
    """The reading ``split_top_level`` gives, one character at a time."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        if text[index] in "([{":
            depth += 1
        elif text[index] in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            index += len(separator)
            start = index
            continue
        index += 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


@pytest.mark.parametrize(
    ("name", "separator", "parts"),
    [
        # 8.x fused layers; a generated point-wise kernel's inputs; merged layers.
        ("Conv_0 + Relu_1", " + ", ["Conv_0", "Relu_1"]),
        ("PWN(Mul_5, Add_6) + Conv_7", " + ", ["PWN(Mul_5, Add_6)", "Conv_7"]),
        ("Mul_5, PWN(Add_6, Sub_7)", ", ", ["Mul_5", "PWN(Add_6, Sub_7)"]),
        ("{ForeignNode[a + b...c]} || Conv_1", " || ", ["{ForeignNode[a + b...c]}", "Conv_1"]),
        # A closing bracket with none open, and a separator at the ends.
        (") + a + ", " + ", [")", "a"]),
        ("Conv_0", " + ", ["Conv_0"]),
        ("  ", " + ", []),
    ],
)
def test_names_split_only_where_no_bracket_is_open(
    name: str, separator: str, parts: list[str]
) -> None:
    assert split_top_level(name, separator) == parts


@settings(max_examples=examples(500), deadline=None)
@given(
    st.text(alphabet="ab ,+|()[]{}.", max_size=40),
    st.sampled_from([" + ", " || ", ", "]),
)
def test_splitting_names_reads_them_a_character_at_a_time(text: str, separator: str) -> None:
    assert split_top_level(text, separator) == _split_char_by_char(text, separator)
