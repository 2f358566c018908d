"""The timeline: phases, builds and per-layer tuning time on real logs, checked by hand against
the lines quoted (line numbers are the log's own); and the clock under unset or jumping
timestamps."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import CORPUS_LOGS, SAMPLES, corpus_log, needs_corpus
from trtlog.analysis import BuildLog
from trtlog.analysis.clock import Clock
from trtlog.analysis.queries import tuning_share_view, tuning_view
from trtlog.analysis.timeline import placement
from trtlog.analysis.timeline.builder import TimelineBuilder
from trtlog.analysis.timeline.phases import phase_of
from trtlog.analysis.timeline.placement import _TUNING_EVENTS, read_block, read_item
from trtlog.analysis.timeline.spans import COLUMNS
from trtlog.events import Unrecognized
from trtlog.parse import StreamItems, parse_file, parse_text
from trtlog.parse.items import LineBlock

_logs: dict[str, BuildLog] = {}


def timeline_of(name: str) -> pd.DataFrame:
    if name not in _logs:
        _logs[name] = BuildLog.from_parsed(corpus_log(name))
    return _logs[name].timeline


def phase(timeline: pd.DataFrame, name: str, build: int | None = None, nth: int = 0) -> pd.Series:
    rows = timeline[(timeline["level"] == "phase") & (timeline["phase"] == name)]
    if build is not None:
        rows = rows[rows["build"] == build]
    return rows.iloc[nth]


def total(timeline: pd.DataFrame, name: str, build: int | None = None) -> pd.Series:
    rows = timeline[(timeline["level"] == "total") & (timeline["phase"] == name)]
    if build is not None:
        rows = rows[rows["build"] == build]
    (row,) = [row for _, row in rows.iterrows()]
    return row


@needs_corpus
def test_trtexec_8_6_reported_phases() -> None:
    timeline = timeline_of("hackathon_trt8.6.0_trtexec_build_rtx3090.log")
    # Line 328: "Finished parsing network model. Parse time: 0.0197354"
    parsing = phase(timeline, "model parsing")
    assert (parsing["seconds"], parsing["source"]) == (pytest.approx(0.0197354), "reported")
    # Line 331: "Graph construction completed in 0.000459213 seconds."
    assert phase(timeline, "network construction", 0)["seconds"] == pytest.approx(0.000459213)
    # Line 377: "Graph optimization time: 0.013082 seconds."
    graph = timeline[
        (timeline["phase"] == "graph optimisation") & (timeline["source"] == "reported")
    ]
    assert list(graph["seconds"]) == [pytest.approx(0.013082)]
    # Line 3376: "Formats and tactics selection completed in 5.71367 seconds."; 1934 tactics timed
    # (2191 "Tactic: 0x... Time:" lines between 379 and 3370, less 257 "Fastest Tactic" lines).
    tuning = phase(timeline, "autotuning", 0)
    assert tuning["seconds"] == pytest.approx(5.71367)
    assert tuning["reported_as"] == "Formats and tactics selection"
    assert tuning["tactics"] == 1934
    # Line 3408: "Engine generation completed in 5.7269 seconds."; line 3433: "Engine built in 9.55249 sec."
    assert total(timeline, "build", 0)["seconds"] == pytest.approx(5.7269)
    assert total(timeline, "Engine built")["seconds"] == pytest.approx(9.55249)


@needs_corpus
def test_trtexec_8_6_initialisation_from_timestamps() -> None:
    timeline = timeline_of("hackathon_trt8.6.0_trtexec_build_rtx3090.log")
    # Line 2 is stamped 07:13:13; "[MemUsageChange] Init builder kernel library" (line 143) and
    # "Start parsing network model." (line 145) are stamped 07:13:17.
    start = phase(timeline, "initialisation")
    assert start["source"] == "timestamps (1 s, interpolated)"
    assert (start["first_line"], start["start_s"]) == (2, 0.0)
    assert 4.0 <= start["seconds"] < 5.0
    assert phase(timeline, "model parsing")["start_s"] == start["end_s"]


@needs_corpus
def test_trtexec_8_6_layer_that_took_longest_to_tune() -> None:
    log = BuildLog.from_parsed(corpus_log("hackathon_trt8.6.0_trtexec_build_rtx3090.log"))
    top = tuning_view(log, 2)
    # The "MatMul-9 + ReLU-11 (<runner>) profiling completed in" lines add up to 1.58683153 s.
    assert top.iloc[0]["layer"] == "MatMul-9 + ReLU-11"
    assert top.iloc[0]["seconds"] == pytest.approx(1.58683153)
    assert top.iloc[0]["source"] == "reported"
    assert top.iloc[1]["layer"] == "MatMul-12"


@needs_corpus
def test_trtexec_10_16_one_timeline_per_backend_strategy() -> None:
    name = "hackathon_trt10.16.1_trtexec_build_h100.log"
    timeline = timeline_of(name)
    # "Engine generation completed in" 15.4838 (line 3024), 7.75278 (4452), 0.43392 (4679);
    # "Formats and tactics selection completed in" 14.8108 (2984), 7.70415 (4424), 0.395312 (4648).
    builds = {0: (15.4838, 14.8108), 1: (7.75278, 7.70415), 2: (0.43392, 0.395312)}
    for build, (generation, tuning) in builds.items():
        assert total(timeline, "build", build)["seconds"] == pytest.approx(generation)
        tuned = timeline[(timeline["phase"] == "autotuning") & (timeline["build"] == build)]
        assert tuned["seconds"].max() == pytest.approx(tuning)
    share = tuning_share_view(BuildLog.from_parsed(corpus_log(name)))
    assert share.iloc[0]["autotuning_percent"] == pytest.approx(100 * 14.8108 / 15.4838)
    # Line 4698: "Engine built in 24.4854 sec."
    assert total(timeline, "Engine built")["seconds"] == pytest.approx(24.4854)
    # {ForeignNode[node_linear]} profiled in 5.73603 s (Float) and 1.24104 s (Half).
    layers = timeline[timeline["level"] == "layer"].sort_values("seconds", ascending=False)
    assert layers.iloc[0]["layer"] == "{ForeignNode[node_linear]}"
    assert layers.iloc[0]["seconds"] == pytest.approx(6.97707)


@needs_corpus
def test_trtexec_8_5_library_set_up_inside_the_build() -> None:
    timeline = timeline_of("lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log")
    # Line 2 at 19:31:00; "Init builder kernel library" (line 122) at 19:31:28.
    first = phase(timeline, "initialisation")
    assert 28.0 <= first["seconds"] < 29.0
    # After graph optimisation (line 2824, 19:31:30) cuBLAS and cuDNN load until the "Init cuDNN"
    # line 2836 at 19:31:48: 18 s that belong to no optimisation phase.
    again = phase(timeline, "initialisation", 0)
    assert again["first_line"] == 2825
    assert 17.0 <= again["seconds"] <= 19.0
    # Line 6404: "Formats and tactics selection completed in 6.146 seconds."
    assert phase(timeline, "autotuning", 0)["seconds"] == pytest.approx(6.146)
    assert total(timeline, "Engine built")["seconds"] == pytest.approx(53.4699)


@needs_corpus
def test_python_api_without_timestamps() -> None:
    timeline = timeline_of("hackathon_trt8.6_pyapi_nodate_timingcache.log")
    assert timeline["start_s"].isna().all()
    # Graph construction and optimization 0.0050736 s, Formats and tactics selection 1.28264 s,
    # Engine generation 1.65493 s: the rest of the build took 1.65493 - 1.28264 - 0.0050736.
    derived = timeline[timeline["source"] == "derived"]
    assert len(derived) == 1
    assert derived.iloc[0]["seconds"] == pytest.approx(1.65493 - 1.28264 - 0.0050736)
    assert "memory planning" in derived.iloc[0]["phase"]
    order = list(timeline[timeline["level"] == "phase"]["phase"])
    assert order.index("graph optimisation") < order.index("autotuning")


# trtexec 10.9 at INFO level: the log says the build began (its timing cache) and then nothing
# for nine seconds, until the engine's memory is planned.
INFO_LEVEL_10_9 = """\
[04/07/2025-23:59:35] [I] Start parsing network model.
[04/07/2025-23:59:36] [I] [TRT] Input filename:   resnet50/model.onnx
[04/07/2025-23:59:36] [I] Finished parsing network model. Parse time: 0.141199
[04/07/2025-23:59:36] [I] [TRT] Local timing cache in use. Profiling results in this builder pass will not be stored.
[04/07/2025-23:59:45] [I] [TRT] Compiler backend is used during engine build.
[04/07/2025-23:59:46] [I] [TRT] Detected 1 inputs and 1 output network tensors.
[04/07/2025-23:59:46] [I] [TRT] Total Activation Memory: 8228864 bytes
[04/07/2025-23:59:46] [I] [TRT] Engine generation completed in 10.6392 seconds.
"""


def test_an_info_level_build_is_not_taken_for_parsing() -> None:
    timeline = BuildLog.from_parsed(parse_text(INFO_LEVEL_10_9)).timeline
    phases = timeline[timeline["level"] == "phase"]
    assert list(phases["phase"]) == ["model parsing", "build steps not logged", "memory planning"]
    parsing, unlogged = phase(timeline, "model parsing"), phase(timeline, "build steps not logged")
    assert (parsing["first_line"], parsing["last_line"]) == (1, 3)
    assert parsing["seconds"] == pytest.approx(0.141199)
    # From the timing cache (23:59:36) to the memory report (23:59:46).
    assert (unlogged["first_line"], unlogged["last_line"], unlogged["build"]) == (4, 6, 0)
    assert 9.0 <= unlogged["seconds"] <= 10.0
    assert total(timeline, "build", 0)["first_line"] == 4


def test_an_applications_own_lines_do_not_unmake_the_builds_timestamps() -> None:
    # An application (vLLM, TensorRT-LLM) prints more lines of its own than TensorRT does.
    app = "".join(
        f"INFO 08-20 14:04:{second:02d} [engine.py:{second}] step\n" for second in range(30)
    )
    timeline = BuildLog.from_parsed(parse_text(app + INFO_LEVEL_10_9)).timeline
    unlogged = phase(timeline, "build steps not logged")
    assert unlogged["source"] == "timestamps (1 s, interpolated)"
    assert 9.0 <= unlogged["seconds"] <= 10.0


def test_a_step_reported_once_done_spans_the_seconds_before_its_report() -> None:
    # TensorRT-LLM 0.8 writes the engine, then reports the time it took.
    text = """\
[05/21/2024-14:02:26] [TRT] [I] Total Activation Memory: 1577062400
[05/21/2024-14:02:26] [TRT] [I] Engine generation completed in 111.412 seconds.
[05/21/2024-14:02:33] [TRT-LLM] [I] Serializing engine to ./rank0.engine...
[05/21/2024-14:02:42] [TRT-LLM] [I] Engine serialized. Total time: 00:00:09
"""
    timeline = BuildLog.from_parsed(parse_text(text)).timeline
    serialisation = phase(timeline, "engine generation and serialisation")
    # 14:02:42 less nine seconds: from 14:02:33, where the memory report's phase ends.
    assert (serialisation["start_s"], serialisation["end_s"]) == (7.0, 16.0)
    assert phase(timeline, "memory planning")["end_s"] == 7.0


# TensorRT 10.2's Python sample building two engines at INFO level, one after the other.
TWO_INFO_BUILDS = """\
[07/30/2024-23:51:47] [TRT] [I] Local timing cache in use. Profiling results in this builder pass will not be stored.
[07/30/2024-23:54:05] [TRT] [I] Total Activation Memory: 282196480
[07/30/2024-23:54:05] [TRT] [I] Engine generation completed in 137.912 seconds.
[07/30/2024-23:54:05] [TRT] [I] [MemUsageStats] Peak memory usage of TRT CPU/GPU memory allocators: CPU 24 MiB, GPU 444 MiB
INFO:EngineBuilder:Serializing engine to file: /mnt/d/park/detectron2/engine_fp16.trt
[07/31/2024-01:19:08] [TRT] [I] Local timing cache in use. Profiling results in this builder pass will not be stored.
[07/31/2024-01:23:08] [TRT] [I] Total Activation Memory: 241871872
[07/31/2024-01:23:09] [TRT] [I] Engine generation completed in 240.851 seconds.
"""


# trtexec 10.16 at INFO level: one build, three backend strategies, each opening with the timing
# cache's note and ending with "Engine generation completed" (the corpus's H100 build).
INFO_LEVEL_STRATEGIES = """\
[07/07/2026-02:11:00] [I] [TRT] Global timing cache in use. Profiling results in this builder pass will be stored.
[07/07/2026-02:11:15] [I] [TRT] Engine generation completed in 15.4838 seconds.
[07/07/2026-02:11:15] [I] [TRT] Global timing cache in use. Profiling results in this builder pass will be stored.
[07/07/2026-02:11:23] [I] [TRT] Engine generation completed in 7.75278 seconds.
[07/07/2026-02:11:23] [I] [TRT] Global timing cache in use. Profiling results in this builder pass will be stored.
[07/07/2026-02:11:24] [I] [TRT] Engine generation completed in 0.43392 seconds.
[07/07/2026-02:11:24] [I] [TRT] [MemUsageStats] Peak memory usage of TRT CPU/GPU memory allocators: CPU 6 MiB, GPU 37 MiB
[07/07/2026-02:11:24] [I] Engine built in 24.4854 sec.
"""


def test_the_backend_strategies_of_an_info_level_build_are_one_build() -> None:
    log = BuildLog.from_parsed(parse_text(INFO_LEVEL_STRATEGIES))
    assert log.summary.builds == 1
    assert {event.build for event in log.events} == {0}


def test_each_info_level_build_is_its_own() -> None:
    log = BuildLog.from_parsed(parse_text(TWO_INFO_BUILDS))
    assert log.summary.builds == 2
    assert total(log.timeline, "build", 0)["seconds"] == pytest.approx(137.912)
    assert total(log.timeline, "build", 1)["seconds"] == pytest.approx(240.851)
    assert (total(log.timeline, "build", 1)["first_line"]) == 6
    totals = log.memory_totals
    assert list(totals[totals["item"] == "activation"]["build"]) == [0, 1]


def test_a_layers_tuning_ends_with_its_builds_autotuning() -> None:
    # Three builds a minute apart: build 0 tunes its one layer at 10:01:01 (lines 25-31) and
    # selects reformats on line 32; build 1 tunes the same layer at 10:02:01.
    log = BuildLog.from_parsed(parse_file(SAMPLES / "python_api_8.6_three_builds.log"))
    timeline = log.timeline
    layers = timeline[timeline["level"] == "layer"].set_index("build")
    assert 1.0 <= layers.loc[0, "start_s"] < layers.loc[0, "end_s"] < 2.0
    assert 61.0 <= layers.loc[1, "start_s"] < layers.loc[1, "end_s"] < 62.0


def test_calibration_takes_the_time_it_reports() -> None:
    # An INT8 build calibrating (Python API, 8.6): TensorRT reports more time than the stamps span.
    text = """\
[08/07/2024-07:04:40] [TRT] [I] Starting Calibration.
[08/07/2024-07:04:41] [TRT] [I]   Calibrated batch 0 in 0.222241 seconds.
[08/07/2024-07:04:41] [TRT] [I]   Post Processing Calibration data in 0.00342259 seconds.
[08/07/2024-07:04:41] [TRT] [I] Calibration completed in 6.2236 seconds.
"""
    calibration = phase(BuildLog.from_parsed(parse_text(text)).timeline, "calibration")
    assert (calibration["seconds"], calibration["reported_as"]) == (6.2236, "Calibration")


def test_another_programs_stamps_do_not_time_tensorrts_lines() -> None:
    # Made up for the test: an application's stamped lines around TensorRT's unstamped ones.
    text = (
        "2024-01-01 10:00:00,000 - app - INFO - building\n"
        "[I] [TRT] Local timing cache in use. Profiling results in this builder pass will not be"
        " stored.\n"
        "[I] [TRT] Total Activation Memory: 1000\n"
        "[I] [TRT] Total Weights Memory: 2000\n"
        "[I] [TRT] Engine generation completed in 3.5 seconds.\n"
        "2024-01-01 10:05:00,000 - app - INFO - done\n"
    )
    timeline = BuildLog.from_parsed(parse_text(text)).timeline
    assert timeline["start_s"].isna().all()


@needs_corpus
def test_seven_runs_of_an_info_level_log() -> None:
    timeline = timeline_of("jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log")
    # Seven "&&&& RUNNING TensorRT.trtexec" runs, each building an engine at INFO level.
    assert sorted(set(timeline["run"])) == list(range(7))
    build = total(timeline[timeline["run"] == 0], "build", 0)
    # "Layers running on GPU" (line 53) at 22:46:08; "Starting inference threads" (59) 22:49:49.
    assert (build["first_line"], build["source"]) == (53, "timestamps (1 s, interpolated)")
    assert 220.0 <= build["seconds"] <= 222.0


@needs_corpus
def test_unset_clock_gives_no_negative_or_absurd_figures() -> None:
    # This Orin board's clock says 2022-01-01.
    timeline = timeline_of("lix_trt8.5.10_trtexec_orin_mnist_best_dumpProfile.log")
    assert (timeline["seconds"].dropna() >= 0).all()
    assert (timeline["seconds"].dropna() < 60).all()
    phases = timeline[timeline["level"] == "phase"]
    assert (phases["start_s"].diff().dropna() >= 0).all()


def test_clock_ignores_jumps_backwards_and_beyond_a_day() -> None:
    clock = Clock()
    base = datetime(2022, 1, 1, 10, 0, 0)
    stamps = [base, base + timedelta(seconds=5), base - timedelta(hours=1),
              base - timedelta(hours=1) + timedelta(seconds=2), base + timedelta(days=3)]  # fmt: skip
    assert [clock.offset(stamp) for stamp in stamps] == [0.0, 5.0, 5.0, 7.0, 7.0]
    assert clock.jumps == 2
    assert clock.timestamped


def test_clock_reads_a_repeated_stamp_object_as_an_equal_copy() -> None:
    # Lines of one second share their envelope's stamp object; the clock takes a shortcut for
    # it, which must count and measure as a fresh copy of the stamp does.
    base = datetime(2022, 1, 1, 10, 0, 0, 500)
    later = base + timedelta(seconds=2)
    shared = [base, base, later, later, later, base]
    copies = [stamp.replace() for stamp in shared]
    assert all(a is not b for a, b in zip(shared, copies, strict=True))
    owns = [True, False, True, True, False, True]
    clocks = Clock(), Clock()
    offsets = [
        [clock.offset(stamp, own) for stamp, own in zip(stamps, owns, strict=True)]
        for clock, stamps in zip(clocks, (shared, copies), strict=True)
    ]
    assert offsets[0] == offsets[1] == [0.0, 0.0, 2.0, 2.0, 2.0, 2.0]
    counters = [
        (clock.lines, clock.stamped, clock.jumps, clock.sub_second, clock.timestamped)
        for clock in clocks
    ]
    assert counters[0] == counters[1] == (6, 4, 1, True, True)


def test_clock_counts_only_own_stamps() -> None:
    clock = Clock()
    stamp = datetime(2026, 7, 7, 6, 12, 50)
    clock.offset(stamp)
    for _ in range(5):
        clock.offset(stamp, own=False)
    # One stamped line among six cannot measure anything.
    assert not clock.timestamped


def test_lines_of_one_second_are_spread_across_it() -> None:
    # Four lines stamped 00:00:01: the second one starts graph optimisation a quarter of a
    # second after parsing started, not at the same instant.
    text = "[01/01/2024-00:00:01] [I] Start parsing network model.\n" + "".join(
        f"[01/01/2024-00:00:0{second}] [V] [TRT] After dead-layer removal: 3 layers\n"
        for second in (1, 1, 1, 2)
    )
    timeline = BuildLog.from_parsed(parse_text(text)).timeline
    phases = timeline[timeline["level"] == "phase"].set_index("phase")
    assert phases.loc["model parsing", "seconds"] == 0.25
    assert phases.loc["graph optimisation", "start_s"] == 0.25
    assert phases.loc["graph optimisation", "end_s"] == 1.0


def test_timestamped_log_written_here() -> None:
    text = (
        "[01/01/2024-00:00:00] [I] Start parsing network model.\n"
        "[01/01/2024-00:00:01] [I] Finished parsing network model. Parse time: 0.25\n"
        "[01/01/2024-00:00:01] [V] [TRT] Original: 3 layers\n"
        "[01/01/2024-00:00:03] [V] [TRT] =============== Computing costs for conv\n"
        "[01/01/2024-00:00:03] [V] [TRT] *************** Autotuning format combination: Float(1,1) -> Float(1,1) ***************\n"
        "[01/01/2024-00:00:03] [V] [TRT] --------------- Timing Runner: conv (CaskConvolution)\n"
        "[01/01/2024-00:00:04] [V] [TRT] Tactic: 0x0000000000000001 Time: 0.5\n"
        "[01/01/2024-00:00:07] [V] [TRT] Fastest Tactic: 0x0000000000000001 Time: 0.5\n"
        "[01/01/2024-00:00:07] [V] [TRT] Formats and tactics selection completed in 4.5 seconds.\n"
        "[01/01/2024-00:00:07] [V] [TRT] Engine generation completed in 6 seconds.\n"
    )
    timeline = BuildLog.from_parsed(parse_text(text)).timeline
    phases = timeline[timeline["level"] == "phase"]
    assert list(phases["phase"]) == ["model parsing", "graph optimisation", "autotuning"]
    # Graph optimisation: from the second of two lines stamped 00:00:01 (1.5 s) to 00:00:03.
    assert list(phases["seconds"]) == [0.25, pytest.approx(1.5), 4.5]
    conv = timeline[timeline["level"] == "layer"].iloc[0]
    assert (conv["layer"], conv["tactics"]) == ("conv", 1)
    assert total(timeline, "build", 0)["seconds"] == 6


@pytest.mark.parametrize("builds", [True, False])
def test_the_events_placed_on_the_tuning_path_are_all_autotuning(builds: bool) -> None:
    # ``_place_tuning_event`` places these without asking ``phase_of``: it must agree.
    for cls in _TUNING_EVENTS:
        values = {field.name: None for field in fields(cls)} | {"line": 1, "end_line": 1}
        assert phase_of(cls(**values), builds) == "autotuning", cls.__name__


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS, ids=lambda path: path.name
)
def test_the_table_is_what_pandas_makes_of_its_rows(path: object) -> None:
    # The table is made column by column, each column typed beforehand: the same as pandas
    # makes of the rows, numbers that may be missing as nullable integers. (A column no row
    # fills, as the seconds of a log without timestamps, stays one of None.)
    builder = TimelineBuilder().feed_all(parse_file(path).events)  # type: ignore[arg-type]
    rows = [tuple(getattr(row, name) for name in COLUMNS) for row in builder.rows()]
    made_by_pandas = pd.DataFrame(rows, columns=COLUMNS).astype(
        dict.fromkeys(["build", "tactics", "first_line", "last_line"], "Int64")
    )
    pd.testing.assert_frame_equal(builder.table(), made_by_pandas)


class _ItemByItem(TimelineBuilder):
    """The timeline with every item of a second placed on its own (``read_item``,
    ``read_block``), as the runs of tuning items read together must place them."""

    def _end_second(self) -> None:
        second, self._second = self._second, []
        count, self._second_lines = self._second_lines, 0
        if not second or self._run is None:
            return
        stamp, run = self._second_stamp, self._run
        spread = count if stamp is not None and not stamp.microsecond else 0
        position = 0
        for item in second:
            if isinstance(item, LineBlock):
                read_block(run, item, position, spread)
                position += len(item)
            else:
                read_item(run, item, position / spread if spread else 0.0)
                position += 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    [*sorted(SAMPLES.glob("*.log")), *CORPUS_LOGS],
    ids=lambda path: path.name,
)
def test_tuning_read_in_runs_gives_the_timeline_of_item_by_item(path: Path) -> None:
    if not path.is_file():
        pytest.skip("no corpus")
    with path.open("rb") as stream:
        items = list(StreamItems().folded(stream))
    together = TimelineBuilder().feed_all(items).table()
    one_by_one = _ItemByItem().feed_all(items).table()
    pd.testing.assert_frame_equal(together, one_by_one, check_exact=True)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    [*sorted(SAMPLES.glob("*.log")), *CORPUS_LOGS],
    ids=lambda path: path.name,
)
def test_events_of_classes_that_show_no_phase_extend_it_as_placing_them_would(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The classes whose events show no phase (notes, trace averages, other programs' lines)
    # only extend the phase under way, without ``_place_event``: the same timeline.
    with path.open("rb") as stream:
        items = list(StreamItems().folded(stream))
    directly = TimelineBuilder().feed_all(items).table()
    monkeypatch.setattr(placement, "_SILENT_CLASSES", {})
    monkeypatch.setattr(placement, "_silent_class", lambda event, run: False)
    placed = TimelineBuilder().feed_all(items).table()
    pd.testing.assert_frame_equal(directly, placed, check_exact=True)


def test_a_line_of_no_phase_extends_the_phase_under_way_without_being_placed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = "\n".join(
        [
            "[07/07/2026-02:11:00] [I] [TRT] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: "
            "CPU 20, GPU 500 (MiB)",
            "[07/07/2026-02:11:02] [V] [TRT] Original: 3 layers",
            "[07/07/2026-02:11:05] [I] [TRT] A line no rule knows",
        ]
    )
    monkeypatch.setattr(placement, "_SILENT_CLASSES", {})
    placed: list[object] = []
    place_event = placement._place_event
    monkeypatch.setattr(
        placement, "_place_event", lambda *args: placed.append(args[1]) or place_event(*args)
    )
    timeline = BuildLog.from_parsed(parse_text(log)).timeline
    phases = timeline[timeline["level"] == "phase"]
    # The unknown line ends graph optimisation at its line and second, and was not placed.
    last = phases.iloc[-1]
    assert (last["phase"], last["last_line"], last["end_s"]) == ("graph optimisation", 3, 5.0)
    assert placement._SILENT_CLASSES[(Unrecognized, True)] is True
    assert Unrecognized not in {type(event) for event in placed}


def test_a_progress_monitors_bars_mark_the_steps_they_start() -> None:
    # TensorRT 10's Python progress monitor (the Cookbook's), its bars redrawn in place.
    up = "\x1b[2A\x1b[0G\x1b[2K"
    log = "\n".join(
        [
            "[07/07/2026-06:12:50] [TRT] [W] ModelImporter.cpp:994: Make sure output z has "
            "Int64 binding.",
            "\x1b[0G\x1b[2K[----------] Building engine 0/6",
            up + "[----------] Building engine 0/6",
            "\x1b[2K [----------] Cloning network graph 0/30",
            up + "[----------] Building engine 0/6",
            "\x1b[2K [==========] Cloning network graph 30/30",
            up + "[==--------] Building engine 1/6",
            "\x1b[2K [----------] Optimizing graph 0/4",
            up + "[==--------] Building engine 1/6",
            "\x1b[2K [=====-----] Optimizing graph 2/4",
            up + "[====------] Building engine 2/6",
            "\x1b[2K [----------] Timing graph nodes 0/12",
            up + "[====------] Building engine 2/6",
            # A bar first seen part-way (its start not in the log) starts nothing.
            "\x1b[2K [===-------] Timing tensor reformats 3/10",
        ]
    )
    timeline = BuildLog.from_parsed(parse_text(log)).timeline
    phases = timeline[timeline["level"] == "phase"]
    # Each bar that starts (0 done) opens its step; redraws and bars that move open none.
    assert list(phases["phase"]) == ["network construction", "graph optimisation", "autotuning"]
    assert list(phases["first_line"]) == [4, 8, 12]


# An exporter building at INFO level (TensorRT 8.6.1's Python API), then loading the engine to
# validate it, then building again a quarter of an hour later in another process (lines of a
# public ultralytics log).
EXPORT_VALIDATE_EXPORT = """\
[02/06/2024-13:53:47] [TRT] [I] [MemUsageChange] Init CUDA: CPU +202, GPU +0, now: CPU 3454, GPU 1793 (MiB)
[02/06/2024-13:53:51] [TRT] [I] Graph optimization time: 0.0138035 seconds.
[02/06/2024-13:53:51] [TRT] [I] Local timing cache in use. Profiling results in this builder pass will not be stored.
[02/06/2024-13:55:10] [TRT] [I] Detected 1 inputs and 3 output network tensors.
[02/06/2024-13:55:10] [TRT] [I] Total Activation Memory: 35635200
[02/06/2024-13:55:10] [TRT] [I] [MemUsageChange] TensorRT-managed allocation in building engine: CPU +6, GPU +58, now: CPU 6, GPU 58 (MiB)
TensorRT: export success 83.7s, saved as 'yolov8s.engine' (61.5 MB)
[02/06/2024-13:56:08] [TRT] [I] Loaded engine size: 61 MiB
[02/06/2024-13:56:08] [TRT] [I] [MemUsageChange] TensorRT-managed allocation in engine deserialization: CPU +0, GPU +57, now: CPU 0, GPU 57 (MiB)
[02/06/2024-14:10:45] [TRT] [I] [MemUsageChange] Init CUDA: CPU +202, GPU +0, now: CPU 3454, GPU 1793 (MiB)
[02/06/2024-14:10:49] [TRT] [I] Graph optimization time: 0.0201429 seconds.
[02/06/2024-14:10:49] [TRT] [I] Local timing cache in use. Profiling results in this builder pass will not be stored.
[02/06/2024-14:14:00] [TRT] [I] Total Activation Memory: 17817600
[02/06/2024-14:14:00] [TRT] [I] [MemUsageChange] TensorRT-managed allocation in building engine: CPU +21, GPU +22, now: CPU 21, GPU 22 (MiB)
"""


def test_a_build_ends_where_it_says_it_did() -> None:
    timeline = BuildLog.from_parsed(parse_text(EXPORT_VALIDATE_EXPORT)).timeline
    # 13:53:51 to 13:55:10 and 14:10:49 to 14:14:00; the engine's load and the wait for the
    # next command are not the first build's.
    assert total(timeline, "build", 0)["seconds"] == pytest.approx(79, abs=1)
    assert total(timeline, "build", 1)["seconds"] == pytest.approx(191, abs=1)
    # The exporter's line after the build's end is the build's last (trtexec's "Engine built in"
    # and its saving the engine come there too); the engine's load is not.
    assert total(timeline, "build", 0)["last_line"] == 7
    load = phase(timeline, "engine load")
    assert pd.isna(load["build"]) and load["first_line"] == 8
    second_process = phase(timeline, "initialisation", nth=1)
    assert pd.isna(second_process["build"]) and second_process["first_line"] == 10
    # The builder's unlogged steps after its reported graph optimisation: nearly all of it.
    unlogged = phase(timeline, "build steps not logged", build=0)
    assert unlogged["first_line"] == 3 and unlogged["seconds"] == pytest.approx(79, abs=1)


@needs_corpus
def test_the_runtimes_library_set_up_is_part_of_loading_the_engine() -> None:
    # trtexec 8.5 --loadEngine: "Engine loaded in" (line 118), cuDNN loaded while deserializing
    # (lines 120-124) and again for the execution context (128-132), "Engine deserialized in
    # 0.707977 sec." (127); inference starts at line 139.
    timeline = timeline_of("kalfazed_trt8.5.1_trtexec_resnet50_loadengine_dumpProfile.log")
    phases = timeline[timeline["level"] == "phase"]
    assert "initialisation" not in set(phases.loc[phases["first_line"].between(118, 138), "phase"])
    load = phase(timeline, "engine load")
    assert (load["first_line"], load["last_line"]) == (118, 138)
    assert load["seconds"] == pytest.approx(0.707977)
