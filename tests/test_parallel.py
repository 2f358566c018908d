"""Parsing in pieces, in worker processes, gives exactly the events, counts and tables of one
pass, for any number of jobs and any piece size."""

from __future__ import annotations

import gzip
import itertools
import json
import multiprocessing
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import asdict
from pathlib import Path
from typing import BinaryIO

import pandas as pd
import pytest
from typer.testing import CliRunner

from tests.conftest import CORPUS_LOGS, SAMPLES, needs_corpus
from trtlog.analysis import TABLES
from trtlog.cli.app import app
from trtlog.parse import LogSourceError, parse_file
from trtlog.parse import parallel as parallel_module
from trtlog.parse import pieces as pieces_module
from trtlog.parse import scanner as scanner_module
from trtlog.parse.envelope import NO_ENVELOPE
from trtlog.parse.parallel import ParallelParse, PieceResult
from trtlog.parse.pieces import Piece, cut
from trtlog.parse.pipeline import StreamItems
from trtlog.parse.records import RecordParser
from trtlog.parse.rows import events_of
from trtlog.store.sources import resolve, stream_build_log

ALL_LOGS = sorted(SAMPLES.glob("*.log")) + CORPUS_LOGS
# Small pieces, so that even the short logs are cut many times, at every kind of place.
SMALL_PIECE = 4096


def parallel_events(path: Path, jobs: int, piece_bytes: int) -> tuple[list, ParallelParse]:
    parse = ParallelParse(str(path), jobs, piece_bytes)
    events = list(events_of(parse.items()))
    return events, parse


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda path: path.name)
def test_pieces_parse_to_the_events_of_one_pass(path: Path) -> None:
    whole = parse_file(path)
    for jobs, piece_bytes in ((2, SMALL_PIECE), (3, 3 * SMALL_PIECE + 7)):
        events, parse = parallel_events(path, jobs, piece_bytes)
        assert events == whole.events
        assert parse.counts == whole.counts
        assert parse.physical_lines == whole.physical_lines


@needs_corpus
def test_most_logs_are_really_cut() -> None:
    # The equality above proves nothing for a log that is never cut: most must be.
    big = [path for path in ALL_LOGS if path.stat().st_size > 8 * SMALL_PIECE]
    cut_logs = [path for path in big if (cut(str(path), SMALL_PIECE) or [None])[1:]]
    assert len(big) >= 20
    assert len(cut_logs) >= 0.75 * len(big)


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize(
    "name",
    [
        "hackathon_trt10.16.1_trtexec_build_h100.log",
        "lix_trt8.5.10_trtexec_rtx2000ada_qat_resnet18_detailed.log",
        "jetson_trt7.1_trtexec_caffe_googlenet_int8_multirun.log",
    ],
)
def test_pieces_give_the_tables_of_one_pass(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = next(path for path in CORPUS_LOGS if path.name == name)
    one = stream_build_log(resolve(path), jobs=1)
    monkeypatch.setattr(pieces_module, "PIECE_BYTES", SMALL_PIECE)
    assert len(cut(str(path)) or []) > 5
    two = stream_build_log(resolve(path), jobs=2)
    assert asdict(two.summary) == asdict(one.summary)
    for table in TABLES:
        pd.testing.assert_frame_equal(two.table(table), one.table(table), obj=table)


def _numbered_lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")


@needs_corpus
def test_cut_points_open_records_and_number_lines() -> None:
    path = next(path for path in CORPUS_LOGS if "trt8.6.0_trtexec_build" in path.name)
    pieces = cut(str(path), 1024)
    assert pieces is not None and len(pieces) > 10
    data = path.read_bytes()
    assert pieces[0].start == 0 and pieces[-1].end == len(data)
    for before, after in itertools.pairwise(pieces):
        assert before.end == after.start
        # Each piece starts a line, with an envelope (a record of its own).
        assert data[after.start - 1 : after.start] == b"\n"
        assert data[after.start : after.start + 1] == b"["
        assert after.first_line == data[: after.start].count(b"\n") + 1


def test_the_first_piece_is_small_and_the_others_full_size(tmp_path: Path) -> None:
    # The first piece is parsed before the workers start, on one core: it only warms the
    # parser. Every line opens a record here, so each piece ends at the first line past its
    # size.
    line = b"[11/22/2026-10:00:00] [V] [TRT] Tactic: 0x0000000000000001 Time: 0.0123\n"
    path = tmp_path / "timings.log"
    path.write_bytes(line * (3 * (4 << 20) // len(line)))
    pieces = cut(str(path), 4 << 20)
    assert pieces is not None
    sizes = [piece.end - piece.start for piece in pieces]
    assert pieces_module.FIRST_PIECE_BYTES <= sizes[0] < pieces_module.FIRST_PIECE_BYTES + len(line)
    assert all(4 << 20 <= size < (4 << 20) + len(line) for size in sizes[1:-1])
    assert len(pieces) == 4


def test_a_parse_uses_the_cores_up_to_the_most_useful_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for cores, expected in ((1, 1), (2, 2), (8, 8), (64, 8)):
        monkeypatch.setattr(parallel_module, "default_jobs", lambda cores=cores: cores)
        assert parallel_module.default_parse_jobs() == expected


def test_newlines_are_counted_across_buffer_refills(tmp_path: Path) -> None:
    # A buffer of 7 bytes: every stretch takes several reads, some ending just before or just
    # after a newline; CRs and invalid UTF-8 are not newlines.
    data = b"a\nbb\r\n\n\xff\xfe\ncccccccccccc\nd" * 5 + b"\n\n"
    path = tmp_path / "lines.log"
    path.write_bytes(data)
    counter = pieces_module._NewlineCounter(size=7)
    with path.open("rb") as stream:
        for start, end in ((0, len(data)), (0, 0), (3, 4), (5, 40), (len(data) - 2, len(data))):
            assert counter.count(stream, start, end) == data[start:end].count(b"\n")


def test_pieces_are_numbered_only_as_far_as_they_are_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A parse in pieces hands the first pieces to workers without counting the newlines of
    # the whole log first; whatever the order pieces are asked for in, each is numbered as
    # when all are counted at once.
    path = str(SAMPLES / "trtexec_10.x_build_inference_profile.log")
    expected = cut(path, 1024)
    assert expected is not None and len(expected) > 10
    counted: list[int] = []
    count = pieces_module._NewlineCounter.count

    def recording_count(self: object, stream: BinaryIO, start: int, end: int) -> int:
        counted.append(start)
        return count(self, stream, start, end)  # type: ignore[arg-type]

    monkeypatch.setattr(pieces_module._NewlineCounter, "count", recording_count)
    pieces = pieces_module.numbered_pieces(path, 1024)
    assert pieces is not None and len(pieces) == len(expected)
    assert pieces[0] == expected[0] and not counted
    assert pieces[3] == expected[3]
    assert counted == [piece.start for piece in expected[:3]]
    assert pieces[1] == expected[1] and len(counted) == 3
    assert pieces[-1] == expected[-1]
    assert list(pieces) == expected and pieces[2:5] == expected[2:5]
    assert counted == [piece.start for piece in expected[:-1]]


@pytest.mark.slow
def test_bare_lines_stay_with_their_record(tmp_path: Path) -> None:
    # A multi-line message (bare lines under one envelope) must never be cut apart; CRLF line
    # ends and lines without an envelope before the first one are cut as one pass reads them.
    stamp = "[11/22/2026-10:00:{:02d}] [V] [TRT] "
    lines = ["banner line of another program", "......"]
    for second in range(40):
        lines.append(stamp.format(second) + "Engine Layer Information:")
        lines.extend(
            f"Layer(CaskConvolution): conv_{second}_{n}, Tactic: 0x{n:016x}" for n in range(30)
        )
        lines.append(stamp.format(second) + "Tactic: 0x0000000000000001 Time: 0.0123")
    text = "\r\n".join(lines) + "\r\n"
    path = tmp_path / "multi.log"
    path.write_bytes(text.encode())
    pieces = cut(str(path), 1024)
    assert pieces is not None and len(pieces) > 5
    whole = parse_file(path)
    events, parse = parallel_events(path, 2, 1024)
    assert events == whole.events
    assert parse.counts == whole.counts


@pytest.mark.slow
def test_a_list_is_never_cut_from_the_line_that_announces_it(tmp_path: Path) -> None:
    # 7.1 prints "Layers running on GPU:" and then the layers on one line of their own; with
    # pieces of 200 bytes every line opens a possible cut, the list lines must not be one.
    stamp = "[02/21/2021-22:46:{:02d}] [I] [TRT] "
    lines = []
    for second in range(30):
        lines.append(stamp.format(second) + "--------------- Layers running on GPU: ")
        lines.append(stamp.format(second) + f"conv_{second} + relu_{second}, pool_{second}")
    path = tmp_path / "placement.log"
    path.write_text("\n".join(lines) + "\n")
    pieces = cut(str(path), 200)
    assert pieces is not None and len(pieces) > 5
    data = path.read_bytes()
    for piece in pieces[1:]:
        assert data[piece.start :].startswith(b"[02/21/2021-22:46:"), piece
        assert b"Layers running on GPU" in data[piece.start : piece.start + 80], piece
    whole = parse_file(path)
    assert whole.counts.unrecognized == 0
    events, parse = parallel_events(path, 2, 200)
    assert events == whole.events
    assert parse.counts == whole.counts


def test_what_cannot_be_cut_is_parsed_in_one_pass(tmp_path: Path) -> None:
    sample = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    zipped = tmp_path / "build.log.gz"
    zipped.write_bytes(gzip.compress(sample.read_bytes()))
    assert cut(str(zipped), 512) is None
    assert cut(str(sample), 10 * sample.stat().st_size) is None  # too small to be worth it
    events, _parse = parallel_events(zipped, 2, 512)
    assert events == parse_file(sample).events
    with pytest.raises(LogSourceError, match="no such file"):
        list(ParallelParse(str(tmp_path / "missing.log"), 2).items())


@pytest.mark.slow
def test_cli_jobs_give_the_same_jsonl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pieces_module, "PIECE_BYTES", 1024)
    sample = SAMPLES / "trtexec_8.x_build.log"
    runner = CliRunner()
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.jsonl"
        result = runner.invoke(
            app, ["parse", str(sample), "--format", "jsonl", "--jobs", jobs, "--out", str(out)]
        )
        assert result.exit_code == 0, result.output
        outputs.append([json.loads(line) for line in out.read_text().splitlines()])
    assert len(cut(str(sample)) or []) > 3
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 100


class _UnfinishedFuture(Future):  # type: ignore[type-arg]
    """A worker's result that is never ready before it is asked for (then it is computed); a
    worker has started it, so it cannot be cancelled."""

    def __init__(self, job: Callable[[], object]) -> None:
        super().__init__()
        self._job = job
        self.set_running_or_notify_cancel()

    def done(self) -> bool:
        return False

    def result(self, timeout: float | None = None) -> object:
        return self._job()


class _Pool:
    """Runs each submitted job when its result is asked for; counts the jobs."""

    def __init__(self, ready: bool) -> None:
        self.ready = ready
        self.jobs = 0

    def submit(self, function: Callable[..., object], *arguments: object) -> Future:  # type: ignore[type-arg]
        self.jobs += 1
        if not self.ready:
            return _UnfinishedFuture(lambda: function(*arguments))
        future: Future = Future()  # type: ignore[type-arg]
        future.set_result(function(*arguments))
        return future


class _NeverStartedFuture(Future):  # type: ignore[type-arg]
    """A piece no worker has started (all of them busy): waiting for it would never end."""

    def result(self, timeout: float | None = None) -> object:
        raise AssertionError("waited for a piece that no worker had started")


class _BusyPool:
    """A pool whose workers never start what is submitted."""

    def __init__(self) -> None:
        self.futures: list[Future] = []  # type: ignore[type-arg]

    def submit(self, function: Callable[..., object], *arguments: object) -> Future:  # type: ignore[type-arg]
        self.futures.append(_NeverStartedFuture())
        return self.futures[-1]


def _taken_in_order(tmp_path: Path, pool: object) -> int:
    """Takes every piece of the sample (1 KB pieces) in order through ``pool``, checks that each
    comes back as one pass parses it, and returns the number of pieces."""
    path = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    pieces = cut(str(path), 1024)
    assert pieces is not None and len(pieces) > 10
    first = parallel_module.parse_piece(str(path), pieces[0])
    ahead = parallel_module._PiecesAhead(str(path), pieces, pool, 2, str(tmp_path), first)  # type: ignore[arg-type]
    results = [ahead.take(index) for index in range(len(pieces))]
    expected = [parallel_module.parse_piece(str(path), piece) for piece in pieces]
    # (Blocks compare by identity: compared as the events they stand for.)
    assert [list(events_of(result.items)) for result in results] == [
        list(events_of(result.items)) for result in expected
    ]
    assert [result.lines for result in results] == [result.lines for result in expected]
    return len(pieces)


@pytest.mark.slow
def test_pieces_no_worker_has_started_are_taken_back_and_parsed_here(tmp_path: Path) -> None:
    # Once this process has no piece of its own left, it takes back the last pieces handed
    # out that no worker has started, instead of waiting for them.
    pool = _BusyPool()
    _taken_in_order(tmp_path, pool)
    assert pool.futures and all(future.cancelled() for future in pool.futures)


@pytest.mark.slow
@pytest.mark.parametrize("ready", [True, False], ids=["workers-ahead", "workers-behind"])
def test_pieces_come_back_in_order_whoever_parses_them(tmp_path: Path, ready: bool) -> None:
    pool = _Pool(ready)
    pieces = _taken_in_order(tmp_path, pool)
    # Workers that are always ahead get every piece they can take; workers that never are
    # leave this process parsing the pieces after theirs, a bounded number at a time.
    if ready:
        assert pool.jobs == pieces - 1
    else:
        assert 0 < pool.jobs < pieces
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_workers_start_after_the_first_piece_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Forked once the first piece has warmed the parser, they need not warm it again.
    path = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    parsed: list[int] = []
    parse_piece = parallel_module.parse_piece

    def recording_parse_piece(log: str, piece: Piece) -> PieceResult:
        parsed.append(piece.start)
        return parse_piece(log, piece)

    parsed_when_started: list[list[int]] = []

    class RecordingPool(_Pool):
        def __init__(self, **options: object) -> None:
            super().__init__(ready=True)
            parsed_when_started.append(list(parsed))

        def __enter__(self) -> RecordingPool:
            return self

        def __exit__(self, *exception: object) -> None:
            return None

    monkeypatch.setattr(parallel_module, "parse_piece", recording_parse_piece)
    monkeypatch.setattr(parallel_module, "ProcessPoolExecutor", RecordingPool)
    parallel = ParallelParse(str(path), jobs=2, piece_bytes=1024)
    assert list(events_of(parallel.items())) == parse_file(path).events
    assert parsed_when_started == [[0]]


def test_each_piece_reuses_the_guards_compiled_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # The core's guards (the terminals Lark's lexer tries first) are made once per process,
    # not again for the parser of every piece.
    made: list[object] = []
    real = scanner_module._core.Guards

    def counted(guards: list[tuple[str, list[str]]]) -> object:
        made.append(guards)
        return real(guards)

    monkeypatch.setattr(scanner_module._core, "Guards", counted)
    scanner_module.shared_guards.cache_clear()
    try:
        for first_line in (1, 100):
            list(StreamItems(first_line=first_line).of_chunks([b"[07/07/2026-02:11:09] [I] x\n"]))
        RecordParser().claim(NO_ENVELOPE, "Tactic: 0x1 Time: 1", 1)
    finally:
        scanner_module.shared_guards.cache_clear()
    assert len(made) == 1
    assert RecordParser(fast=False)._claims is None


@pytest.mark.slow
def test_once_forked_is_called_once_the_workers_run() -> None:
    # The table builders import pandas there: after the fork, while a worker parses.
    path = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    workers_at_call: list[int] = []

    def once_forked() -> None:
        workers_at_call.append(len(multiprocessing.active_children()))

    parse = ParallelParse(str(path), 2, piece_bytes=1024, once_forked=once_forked)
    assert list(events_of(parse.items())) == parse_file(path).events
    assert len(workers_at_call) == 1 and workers_at_call[0] >= 1
    one_pass = ParallelParse(str(path), 1, piece_bytes=1024, once_forked=once_forked)
    list(one_pass.items())
    assert len(workers_at_call) == 1


@pytest.mark.slow
def test_pandas_is_imported_after_the_workers_are_forked() -> None:
    # ``trtlog parse`` imports pandas (a slow import) once the workers run, not before they
    # are forked: the first piece taken hands the next ones to the pool, which forks.
    code = (
        "import sys\n"
        "import trtlog.cli.parse_output, trtlog.store\n"
        "from trtlog.store.sources import resolve, stream_build_log\n"
        "from trtlog.parse import parallel, pieces\n"
        "pieces.PIECE_BYTES = 1024\n"
        "loaded = []\n"
        "take = parallel._PiecesAhead.take\n"
        "def recording_take(self, index):\n"
        "    loaded.append('pandas' in sys.modules)\n"
        "    return take(self, index)\n"
        "parallel._PiecesAhead.take = recording_take\n"
        "stream_build_log(resolve(sys.argv[1]), 2)\n"
        "print(loaded[0], loaded[1], len(loaded) > 2)\n"
    )
    path = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    output = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    ).stdout
    assert output.split() == ["False", "True", "True"]
