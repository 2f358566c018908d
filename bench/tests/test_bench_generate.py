"""The benchmark's log generator (``bench/generate.py``): every copy of the autotuning section
tunes layers of its own, named and unnamed alike, so that a large generated log is like the
log of a large model rather than one layer tuned again and again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import bench_module

from tests.conftest import corpus_dir

_RUNNER = re.compile(r"Timing Runner: (.+) \(\w+\)$", re.M)


generate = bench_module("generate")

# An 8.5-style build log, cut down: a named and an API-built (unnamed) layer tuned.
_HEAD = """\
[10/31/2023-17:53:36] [I] [TRT] [GpuLayer] POINTWISE: PWN((Unnamed Layer* 112) [ElementWise])
[10/31/2023-17:53:36] [I] [TRT] [GpuLayer] CONVOLUTION: conv_1 + relu_1
"""
_SECTION = """\
[10/31/2023-17:53:42] [V] [TRT] =============== Computing costs for conv_1 + relu_1
[10/31/2023-17:53:42] [V] [TRT] *************** Autotuning format combination: Float(1,1,1,1) -> Float(1,1,1,1) ***************
[10/31/2023-17:53:42] [V] [TRT] --------------- Timing Runner: conv_1 + relu_1 (CaskConvolution)
[10/31/2023-17:53:42] [V] [TRT] Tactic: 0x0000000000000000 Time: 0.0123
[10/31/2023-17:53:42] [V] [TRT] Fastest Tactic: 0x0000000000000000 Time: 0.0123
[10/31/2023-17:53:42] [V] [TRT] =============== Computing costs for PWN((Unnamed Layer* 12) [ElementWise])
[10/31/2023-17:53:42] [V] [TRT] *************** Autotuning format combination: Float(1,1,1,1) -> Float(1,1,1,1) ***************
[10/31/2023-17:53:42] [V] [TRT] --------------- Timing Runner: PWN((Unnamed Layer* 12) [ElementWise]) (PointWiseV2)
[10/31/2023-17:53:42] [V] [TRT] Tactic: 0x0000000000000001 Time: 0.004
[10/31/2023-17:53:42] [V] [TRT] Fastest Tactic: 0x0000000000000001 Time: 0.004
"""
_TAIL = """\
[10/31/2023-17:53:43] [V] [TRT] Formats and tactics selection completed in 1.2 seconds.
"""


def test_unnamed_layers_are_renumbered_by_the_offset() -> None:
    line = b"Fusing (Unnamed Layer* 112) [ElementWise] with (Unnamed Layer* 9) [Unary]"
    assert generate.renumber_unnamed(line, 1000) == (
        b"Fusing (Unnamed Layer* 1112) [ElementWise] with (Unnamed Layer* 1009) [Unary]"
    )


def test_each_copy_tunes_layers_of_its_own(tmp_path: Path) -> None:
    source, target = tmp_path / "source.log", tmp_path / "big.log"
    source.write_text(_HEAD + _SECTION + _TAIL)
    copies = generate.generate(source, target, size=3 * len(_SECTION))
    assert copies >= 3
    runners = _RUNNER.findall(target.read_text())
    # The highest number the log uses is 112: each copy's unnamed layers are 113 further on.
    expected = []
    for copy in range(copies):
        expected += [
            f"conv_1_r{copy} + relu_1_r{copy}",
            f"PWN((Unnamed Layer* {12 + 113 * (copy + 1)}) [ElementWise])",
        ]
    assert runners == expected


def test_copies_of_a_real_section_share_no_layer(tmp_path: Path) -> None:
    name = "nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log"
    source = corpus_dir() / "logs" / name
    if not source.exists():
        pytest.skip(f"corpus log {name} not found in {corpus_dir()}")
    _, section, _ = generate.split_log(source.read_bytes().splitlines(keepends=True))
    section_text = b"".join(section).decode()
    target = tmp_path / "big.log"
    copies = generate.generate(source, target, size=len(section_text) * 3)
    # Reformat runners are named after the tensors around them, renamed with their layers.
    original = set(_RUNNER.findall(section_text))
    assert len(set(_RUNNER.findall(target.read_text()))) == copies * len(original)
