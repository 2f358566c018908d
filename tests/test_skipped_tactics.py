"""8.6's "Fast skip Tactic" lines: a tactic whose pre-run exceeded the time limit is timed no
further, and the tactics table says so.

The lines are those of a TensorRT 8.6 build logged through jetson-inference's "[TRT]" prefix,
quoted from dusty-nv/jetson-inference issue 1855 (the layer's name and the timing runner line
added, as every timing block of that build has them)."""

from __future__ import annotations

import pytest

from trtlog.analysis.buildlog import BuildLog
from trtlog.events import TacticSkipped, TacticTiming
from trtlog.parse import parse_text

LOG = """\
[TRT]    =============== Computing costs for conv1
[TRT]    *************** Autotuning format combination: Float(150528,50176,224,1) -> Float(802816,12544,112,1) ***************
[TRT]    --------------- Timing Runner: conv1 (CaskConvolution[0x80000009])
[TRT]    Tactic Name: sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x64x32_stage5_warpsize2x2x1_g1_tensor16x8x8_t1r3s3_alignc4 Tactic: 0x2bf0858f240ff918 Time: 0.578758
[TRT]    Fast skip Tactic:0x58d98689a7f663f8 which exceed time limit during pre-run
[TRT]    Tactic Name: sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x256x32_stage3_warpsize2x4x1_g1_tensor16x8x8_t1r3s3_alignc4 Tactic: 0x58d98689a7f663f8 Time: 1.29069
[TRT]    Fast skip Tactic:0xabbf7eb3b5b99502 which exceed time limit during pre-run
[TRT]    Tactic Name: sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x128x32_stage5_warpsize2x2x1_g1_tensor16x8x8 Tactic: 0xabbf7eb3b5b99502 Time: 1.00845
[TRT]    Tactic Name: sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw_tilesize256x64x32_stage3_warpsize4x2x1_g1_tensor16x8x8_t1r3s3_alignc4 Tactic: 0xe827e2035205730f Time: 0.483476
[TRT]    conv1 (CaskConvolution[0x80000009]) profiling completed in 0.0388582 seconds. Fastest Tactic: 0xe827e2035205730f Time: 0.483476
[TRT]    >>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 0xe827e2035205730f
"""


@pytest.mark.parametrize("fast", [True, False])
def test_fast_skip_lines_are_skipped_tactics(fast: bool) -> None:
    log = parse_text(LOG, fast=fast)
    skipped = log.of(TacticSkipped)
    assert [(str(event.tactic), event.reason, event.layer) for event in skipped] == [
        ("0x58d98689a7f663f8", "time limit", "conv1"),
        ("0xabbf7eb3b5b99502", "time limit", "conv1"),
    ]
    assert len(log.of(TacticTiming)) == 4
    assert log.counts.unrecognized == 0


def test_the_tactics_table_marks_the_tactics_timed_only_in_pre_run() -> None:
    log = BuildLog.from_parsed(parse_text(LOG))
    tactics = log.tactics.set_index("line")
    assert tactics["skip_reason"].isna().tolist() == [True, False, False, True]
    assert tactics.loc[6, "skip_reason"] == "time limit"
    assert tactics.loc[6, "time_ms"] == pytest.approx(1.29069)
    (choice,) = log.choices.itertuples()
    # Timed (in pre-run), so tried and not skipped.
    assert (choice.tactics_tried, choice.tactics_skipped) == (4, 0)
