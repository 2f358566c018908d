"""Forms of real logs from bug reports (lines quoted as printed): INT8 calibration's steps, a
run's version on its closing banner, and the engine's tactic of each layer in the layers view."""

from __future__ import annotations

import pytest

from tests.test_claims import same
from trtlog.analysis import BuildLog
from trtlog.analysis.queries import layers_view
from trtlog.events import BuilderNote, PhaseDuration, PhaseMarker, TimingCache
from trtlog.parse import parse_text
from trtlog.parse.summarize import summarize

# TensorRT 7's sample_int8 calibrating (the steps indented by two blanks, as printed).
CALIBRATION = """\
[I] [TRT] Starting Calibration with batch size 50.
[I] [TRT]   Calibrated batch 0 in 0.00211989 seconds.
[I] [TRT]   Calibrated batch 1 in 0.00203472 seconds.
[I] [TRT]   Post Processing Calibration data in 0.180447 seconds.
[I] [TRT] Calibration completed in 0.64 seconds.
[I] [TRT] Writing Calibration Cache for calibrator: TRT-7000-EntropyCalibration2
[04/20/2024-08:47:42] [TRT] [I] Timing cache disabled. Turning it on will improve builder speed.
"""


@pytest.mark.parametrize("fast", [True, False])
def test_int8_calibrations_steps_are_read(fast: bool) -> None:
    log = parse_text(CALIBRATION, fast=fast)
    assert [type(event) for event in log.events] == [
        PhaseMarker,
        BuilderNote,
        BuilderNote,
        BuilderNote,
        PhaseDuration,
        BuilderNote,
        TimingCache,
    ]
    assert (log.counts.recognized, log.counts.unrecognized) == (7, 0)
    cache = log.events[-1]
    assert isinstance(cache, TimingCache) and cache.action == "disabled"
    assert same(log.events, parse_text(CALIBRATION, fast=not fast).events)


def test_the_version_on_a_runs_closing_banner_is_the_logs() -> None:
    # The start of the log was not kept: only "&&&& PASSED" names the version.
    text = (
        "[06/10/2023-09:51:10] [I] Throughput: 1190.98 qps\n"
        "&&&& PASSED TensorRT.trtexec [TensorRT v8412] # trtexec --loadEngine=model.engine\n"
    )
    summary = summarize(parse_text(text))
    assert (summary.tensorrt_version, summary.tensorrt_version_source) == ("8.4.12", "stated")


# TensorRT 8.5 trtexec --int8 --verbose: the engine's layers, each with the tactic it runs, and
# no tuning kept in the log.
ENGINE_LAYERS = """\
[02/08/2023-15:25:37] [V] [TRT] Engine Layer Information:
Layer(CaskConvolution): Conv_0 + PWN(Clip_3), Tactic: 0x02d9f5211e4d2d82, Reformatted Input Tensor 0 to Conv_0 + PWN(Clip_3)[Int8(1,3,512,768)] -> 395[Int8(1,32,256,384)]
Layer(CudaDepthwiseConvolution): Conv_4 + PWN(Clip_7), Tactic: 0xfffffffffffffffd, 395[Int8(1,32,256,384)] -> 400[Int8(1,32,256,384)]
"""


def test_the_layers_view_names_the_tactic_each_engine_layer_runs() -> None:
    view = layers_view(BuildLog.from_parsed(parse_text(ENGINE_LAYERS)))
    assert list(view["name"]) == ["Conv_0 + PWN(Clip_3)", "Conv_4 + PWN(Clip_7)"]
    assert list(view["tactic"]) == ["0x02d9f5211e4d2d82", "0xfffffffffffffffd"]
