"""Matching ``--layer`` patterns to layer names, and the closest names when none matches."""

from __future__ import annotations

import difflib

import pytest

from trtlog.analysis import queries
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
