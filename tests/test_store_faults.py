"""The store never serves a stale or damaged answer and never fails because another process is
using it: same-size rewrites, truncated files, a store that cannot be written, concurrent
parses and queries."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from trtlog.cli.app import app
from trtlog.store import Store, StoreError
from trtlog.store.sources import resolve
from trtlog.version import __version__

SAMPLE = SAMPLES / "trtexec_8.x_build.log"


def chosen_times(store: Store, log: Path) -> list[float]:
    return [float(time) for time in store.load(resolve(log)).choices["best_ms"]]


@pytest.mark.slow
def test_a_same_size_rewrite_with_the_old_mtime_is_parsed_again(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    text = SAMPLE.read_text()
    # "Time: 0.0147" is the chosen Conv_3 + Relu_4 tactic's time (its timing and its
    # "Fastest Tactic" line); the same number of characters as "Time: 0.0294".
    assert text.count("Time: 0.0147\n") == 2
    log.write_text(text)
    store = Store(tmp_path / "store")
    before = chosen_times(store, log)
    assert 0.0147 in before
    status = log.stat()
    log.write_text(text.replace("Time: 0.0147\n", "Time: 0.0294\n"))
    os.utime(log, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert log.stat().st_size == status.st_size and log.stat().st_mtime_ns == status.st_mtime_ns
    after = chosen_times(store, log)
    assert 0.0294 in after and 0.0147 not in after


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncated table", "no summary"])
def test_a_damaged_store_entry_is_parsed_again(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(tmp_path / "store")
    expected = len(store.load(resolve(SAMPLE)).tactics)
    (folder,) = [path for path in store.root.iterdir() if path.is_dir()]
    if damage == "truncated table":
        table = folder / "tactics.parquet"
        table.write_bytes(table.read_bytes()[: table.stat().st_size // 2])
    else:
        (folder / "summary.json").unlink()
    assert len(store.load(resolve(SAMPLE)).tactics) == expected
    assert "damaged; parsing again" in capsys.readouterr().err
    # Repaired: the next load reads the store and says nothing.
    assert len(store.load(resolve(SAMPLE)).tactics) == expected
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("written_by", ["0.0.1", None])
def test_tables_stored_by_another_trtlog_version_are_parsed_again(
    tmp_path: Path, written_by: str | None
) -> None:
    # An upgrade may read the same log differently: what an older version stored is not served.
    store = Store(tmp_path / "store")
    expected = chosen_times(store, SAMPLE)
    (folder,) = [path for path in store.root.iterdir() if path.is_dir()]
    meta = json.loads((folder / "meta.json").read_text())
    meta["trtlog"] = written_by
    (folder / "meta.json").write_text(json.dumps(meta))
    # What the old version stored, recognisably wrong.
    (folder / "choices.parquet").write_bytes((folder / "tactics.parquet").read_bytes())
    assert chosen_times(store, SAMPLE) == expected
    rewritten = json.loads((folder / "meta.json").read_text())
    assert rewritten["trtlog"] == __version__


def test_a_store_that_cannot_be_written_gives_one_line(tmp_path: Path) -> None:
    blocked = tmp_path / "store"
    blocked.write_text("a file where the store should be")
    with pytest.raises(StoreError, match="the store cannot be written"):
        Store(blocked).load(resolve(SAMPLE))
    result = CliRunner(env={"TRTLOG_STORE": str(blocked)}).invoke(
        app, ["layers", "--log", str(SAMPLE)]
    )
    assert result.exit_code == 2
    assert "the store cannot be written" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_eight_concurrent_parses_and_queries_never_fail(tmp_path: Path) -> None:
    environment = dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"))
    samples = sorted(SAMPLES.glob("*.log"))

    def run(number: int) -> subprocess.CompletedProcess[str]:
        log = samples[number % len(samples)]
        command = (
            ["tactics", "--log", str(log), "-f", "json"] if number % 2 else ["parse", str(log)]
        )
        return subprocess.run(
            [sys.executable, "-m", "trtlog.cli.app", *command],
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(run, range(16)))
    failures = [result.stderr for result in results if result.returncode != 0]
    assert failures == []
    assert all("Traceback" not in result.stderr for result in results)
    # No temporary file or folder was left behind, and each log has one whole entry.
    leftovers = [path.name for path in (tmp_path / "store").iterdir() if path.name.endswith(".tmp")]
    assert leftovers == []
    entries = [path for path in (tmp_path / "store").iterdir() if path.is_dir()]
    assert len(entries) == len(samples)
    for entry in entries:
        assert json.loads((entry / "meta.json").read_text())["store_format"]


@pytest.mark.slow
def test_a_pipe_is_read_once_and_stays_the_current_log(tmp_path: Path) -> None:
    # `trtlog parse <(zcat build.log.gz)`: the path is a pipe, which the content hash and the
    # parser once both read (the parser got what the hash left: 21 of 4,713 lines).
    log = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    lines = len(log.read_bytes().splitlines())
    environment = dict(os.environ, TRTLOG_STORE=str(tmp_path / "store"))
    trtlog = f"{sys.executable} -m trtlog.cli.app"
    parsed = subprocess.run(
        ["bash", "-c", f"{trtlog} parse <(cat {log}) --format json"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert parsed.returncode == 0, parsed.stderr
    assert json.loads(parsed.stdout)["summary"]["lines"] == lines
    # A later query answers from what was parsed, without touching the (gone) pipe.
    current = json.loads((tmp_path / "store" / "current.json").read_text())["sources"]
    assert current["log"] == "-"
    assert current["name"].startswith("/dev/fd/")
    query = subprocess.run(
        [sys.executable, "-m", "trtlog.cli.app", "layers", "-f", "json"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert query.returncode == 0, query.stderr
    assert len(json.loads(query.stdout)) > 0


def test_a_fifo_removed_once_written_is_still_parsed_and_current(tmp_path: Path) -> None:
    # A build script that writes its log into a FIFO and removes it once done: the path is gone
    # by the time the parse ends, which once made the store look for a plain file there.
    import threading

    log = SAMPLES / "trtexec_10.x_build_inference_profile.log"
    fifo = tmp_path / "build.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as stream:
            stream.write(log.read_bytes())
        fifo.unlink()

    writer = threading.Thread(target=write)
    writer.start()
    store = Store(root=tmp_path / "store")
    loaded = store.load(resolve(str(fifo)))
    writer.join()
    assert loaded.summary.lines == len(log.read_bytes().splitlines())
    current = json.loads((tmp_path / "store" / "current.json").read_text())["sources"]
    assert current["log"] == "-"
