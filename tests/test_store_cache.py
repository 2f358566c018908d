"""Where parsed logs live: the user's cache directory, the current log per working directory,
the size limit with least-recently-used eviction, and ``trtlog cache``."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import SAMPLES
from trtlog.cli.app import app
from trtlog.store import Store
from trtlog.store.cache import entries, evict, size_limit, store_dir

SAMPLE = SAMPLES / "trtexec_10.x_build_inference_profile.log"
OTHER = SAMPLES / "python_api_8.6_three_builds.log"
THIRD = SAMPLES / "trtexec_8.x_build.log"


def invoke(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(arguments))
    return result.exit_code, result.output


def key_of(path: Path) -> str:
    return hashlib.sha1(path.read_bytes()).hexdigest()[:32]


def test_the_store_is_in_the_user_cache_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TRTLOG_STORE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert store_dir() == tmp_path / "cache" / "trtlog"
    monkeypatch.chdir(tmp_path)
    assert invoke("parse", str(SAMPLE))[0] == 0
    assert (tmp_path / "cache" / "trtlog" / key_of(SAMPLE) / "tactics.parquet").is_file()
    # Nothing is left in the working directory.
    assert not (tmp_path / ".trtlog").exists()


def test_trtlog_store_still_overrides(private_store: Path) -> None:
    assert store_dir() == private_store
    assert invoke("cache", "dir") == (0, f"{private_store}\n")


@pytest.mark.slow
def test_each_directory_remembers_its_current_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, other, elsewhere = tmp_path / "project", tmp_path / "other", tmp_path / "elsewhere"
    for folder in (project / "sub", other, elsewhere):
        folder.mkdir(parents=True)
    monkeypatch.chdir(project)
    assert invoke("parse", str(SAMPLE))[0] == 0
    monkeypatch.chdir(other)
    assert invoke("parse", str(OTHER))[0] == 0
    assert Store().current().log == str(OTHER)
    monkeypatch.chdir(project)
    assert Store().current().log == str(SAMPLE)
    # A subdirectory takes its nearest parent's current log.
    monkeypatch.chdir(project / "sub")
    assert Store().current().log == str(SAMPLE)
    # A directory with none of its own takes the log made current last anywhere.
    monkeypatch.chdir(elsewhere)
    assert Store().current().log == str(OTHER)
    code, output = invoke("stages", "-f", "json")
    assert code == 0
    # OTHER's first build starts with 3 layers (line 19, "Original: 3 layers"); SAMPLE's with 7.
    assert json.loads(output)[0]["layers"] == 3


def _folder(root: Path, name: str, size: int, used: int) -> None:
    folder = root / (name * 32)
    folder.mkdir(parents=True)
    (folder / "table.parquet").write_bytes(b"x" * size)
    os.utime(folder, (used, used))


def test_eviction_removes_the_least_recently_used_first(tmp_path: Path) -> None:
    root = tmp_path / "store"
    _folder(root, "a", 400, used=1000)  # oldest
    _folder(root, "b", 300, used=3000)
    _folder(root, "c", 200, used=2000)
    _folder(root, "d", 500, used=500)  # the oldest, but the one just added
    # 1400 bytes in all; 900 allowed: "a" (400) goes, then "c" (200), which leaves 800.
    removed = evict(root, 900, keep="d" * 32)
    assert [entry.key[0] for entry in removed] == ["a", "c"]
    assert sorted(entry.key[0] for entry in entries(root)) == ["b", "d"]
    # Under the limit nothing goes; the log just added stays even when alone over it.
    assert evict(root, 800, keep="d" * 32) == []
    assert [entry.key[0] for entry in evict(root, 10, keep="d" * 32)] == ["b"]
    assert [entry.key[0] for entry in entries(root)] == ["d"]


@pytest.mark.slow
def test_a_log_read_is_used_again_and_kept_longer(
    private_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # How much room the third log takes, from a store of its own.
    monkeypatch.setenv("TRTLOG_STORE", str(tmp_path / "measure"))
    assert invoke("parse", str(THIRD))[0] == 0
    third_size = entries(tmp_path / "measure")[0].size
    monkeypatch.setenv("TRTLOG_STORE", str(private_store))
    assert invoke("parse", str(SAMPLE))[0] == 0
    assert invoke("parse", str(OTHER))[0] == 0
    first = private_store / key_of(SAMPLE)
    os.utime(first, (1, 1))
    os.utime(private_store / key_of(OTHER), (2, 2))
    # Reading SAMPLE's tables makes it the most recently used.
    assert invoke("stages", "--log", str(SAMPLE))[0] == 0
    assert first.stat().st_mtime > 2
    # Room for SAMPLE and the third log: adding the third removes OTHER, used longest ago.
    sizes = {entry.key: entry.size for entry in entries(private_store)}
    monkeypatch.setenv("TRTLOG_CACHE_LIMIT", str(sizes[key_of(SAMPLE)] + third_size + 100))
    assert invoke("parse", str(THIRD))[0] == 0
    kept = {entry.key for entry in entries(private_store)}
    assert kept == {key_of(SAMPLE), key_of(THIRD)}
    index = json.loads((private_store / "index.json").read_text())
    assert {known["key"] for known in index.values()} == kept
    # An evicted log is parsed again when asked for (which removes SAMPLE in turn).
    code, output = invoke("stages", "--log", str(OTHER), "-f", "json")
    assert code == 0 and json.loads(output)[0]["layers"] == 3


@pytest.mark.parametrize(
    ("setting", "expected"),
    [("500M", 500 << 20), ("4GiB", 4 << 30), ("1048576", 1 << 20), ("1.5g", 3 << 29)],
)
def test_size_limit_settings(setting: str, expected: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRTLOG_CACHE_LIMIT", setting)
    assert size_limit() == expected


def test_a_bad_size_limit_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRTLOG_CACHE_LIMIT", "lots")
    code, output = invoke("parse", str(SAMPLE))
    assert code == 2
    assert output.strip().splitlines() == [
        "trtlog: TRTLOG_CACHE_LIMIT='lots': expected a size such as 500M, 4G or 1048576"
    ]


@pytest.mark.slow
def test_cache_lists_and_cleans(private_store: Path) -> None:
    assert invoke("parse", str(OTHER))[0] == 0
    assert invoke("parse", str(SAMPLE))[0] == 0
    code, output = invoke("cache", "-f", "json")
    assert code == 0
    kept = json.loads(output)
    # Most recently used first; SAMPLE is the current log here.
    assert [row["log"] for row in kept] == [str(SAMPLE), str(OTHER)]
    assert [row["current"] for row in kept] == [True, False]
    assert kept[0]["size_bytes"] == sum(
        path.stat().st_size for path in (private_store / key_of(SAMPLE)).iterdir()
    )
    code, output = invoke("cache")
    assert code == 0 and "2 logs" in output
    code, output = invoke("cache", "clean")
    assert code == 0 and output.startswith("removed 2 logs")
    assert entries(private_store) == []
    code, output = invoke("cache")
    assert code == 0 and output.startswith("0 logs, 0.0 MiB of 2.0 GiB in ")
    code, output = invoke("stages")
    assert code == 2 and "no log given" in output


@pytest.mark.slow
def test_a_removed_working_directory_still_has_the_last_current_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert invoke("parse", str(SAMPLE))[0] == 0
    code, output = invoke("stages", "-f", "json")
    assert code == 0 and json.loads(output)[0]["layers"] == 7
