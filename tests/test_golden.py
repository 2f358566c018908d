"""Each golden log's figures, recomputed, against its golden file in tests/golden/.

A difference is either a regression or an intended change; for the latter, regenerate the
file with ``python tests/regen_golden.py NAME`` and review the diff before committing it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.golden_figures import (
    CORPUS_GOLDEN_LOGS,
    GOLDEN_DIR,
    SLOW_GOLDEN_LOGS,
    corpus_manifest,
    differences,
    event_stream_hash,
    figures,
    golden_logs,
    golden_path,
    read_golden,
    release,
    release_covered,
    sample_logs,
)
from trtlog.parse import parse_text


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(log, marks=[pytest.mark.slow] if log.name in SLOW_GOLDEN_LOGS else [])
        for log in golden_logs()
    ],
    ids=lambda log: log.name,
)
def test_golden_figures_are_unchanged(log: Path) -> None:
    if not log.exists():
        pytest.skip(f"corpus log {log.name} not found in {log.parent}")
    assert golden_path(log).exists(), (
        f"{log.name} has no golden file: run `python tests/regen_golden.py {log.name}`"
    )
    changed = differences(read_golden(log), figures(log))
    assert not changed, (
        f"{golden_path(log).relative_to(REPO)} differs:\n  "
        + "\n  ".join(changed)
        + f"\nIf the change is intended: `python tests/regen_golden.py {log.name}`, "
        "then review `git diff tests/golden`."
    )


def test_every_golden_file_has_its_log() -> None:
    # A golden file left behind by a renamed or dropped log would never be checked.
    expected = {golden_path(log).name for log in golden_logs()}
    assert sorted(path.name for path in GOLDEN_DIR.glob("*.json")) == sorted(expected)


def test_every_sample_log_and_one_corpus_log_per_version_and_style_is_golden() -> None:
    assert len(sample_logs()) >= 5
    manifest = corpus_manifest()
    if manifest is None:
        pytest.skip("no MANIFEST.tsv in the corpus")
    assert [name for name in CORPUS_GOLDEN_LOGS if name not in manifest] == []
    golden = [manifest[name] for name in CORPUS_GOLDEN_LOGS]
    styles = {style for _, style in manifest.values()} - {style for _, style in golden}
    assert styles == set(), "styles without a golden log"
    releases = {release for release, _ in golden}
    missing = {r for r, _ in manifest.values() if not release_covered(r, releases)}
    assert missing == set(), "TensorRT releases without a golden log"


def test_a_release_is_read_from_the_manifest_and_covered_by_its_own_logs() -> None:
    assert release("10.16.2.5 (stated in 'Loaded Module: tensorrt | Version')") == "10.16"
    assert release("8.6 (inferred from commit date 2023-07)") == "8.6"
    assert release("7.x (inferred)") == "7.x"
    with pytest.raises(ValueError, match="no TensorRT release"):
        release("unknown")
    assert release_covered("10.14", {"10.14", "10.16"})
    assert not release_covered("10.1", {"10.14", "10.16"})
    assert not release_covered("10.6", {"10.x"})
    assert release_covered("8.x", {"8.6"})
    assert not release_covered("9.x", {"8.6", "10.16"})


def test_golden_files_hold_no_log_text() -> None:
    # Only derived figures and names: the unrecognised lines by number, never their text.
    for path in GOLDEN_DIR.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == {
            "log", "events", "unrecognised", "tables", "key_values", "event_stream_sha256"
        }  # fmt: skip
        assert all(isinstance(line, int) for line in data["unrecognised"]["first_lines"])


def test_a_difference_names_the_key_and_both_values() -> None:
    golden = {"key_values": {"engine_layers": 6, "gpu": "L4"}, "tables": {"layers": "6 x 50"}}
    now = {"key_values": {"engine_layers": 7, "gpu": "L4"}, "tables": {"layers": "6 x 50"}}
    assert differences(golden, now) == ["key_values.engine_layers: expected 6, got 7"]
    assert differences({"a": 1}, {"b": 1}) == [
        "a: expected 1, now absent",
        "b: not in the golden file, now 1",
    ]
    # 1 and 1.0 are not the same figure in a golden file, nor True and 1.
    assert differences({"a": 1}, {"a": 1.0}) == ["a: expected 1, got 1.0"]
    assert differences({"a": True}, {"a": 1}) == ["a: expected True, got 1"]


def test_the_event_stream_hash_changes_with_any_field() -> None:
    text = "[11/22/2026-10:15:00] [V] [TRT] Original: 24 layers\n"
    same = event_stream_hash(parse_text(text).events)
    assert event_stream_hash(parse_text(text).events) == same
    assert event_stream_hash(parse_text(text.replace("24", "25")).events) != same
    assert event_stream_hash(parse_text(text.replace("[V]", "[I]")).events) != same
    assert event_stream_hash(parse_text(text.replace(":00]", ":01]")).events) != same


def test_regen_refuses_a_name_that_is_no_golden_log() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "tests" / "regen_golden.py"), "no_such_log.log"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("regen_golden: 'no_such_log.log' matches no golden log")
    assert "Traceback" not in result.stderr


def test_regen_writes_a_golden_file_only_when_its_figures_changed(tmp_path: Path) -> None:
    from tests.regen_golden import regenerate

    log = sample_logs()[0]
    assert regenerate(log, tmp_path) == f"created {log.name}.json"
    written = golden_path(log, tmp_path)
    before = written.stat().st_mtime_ns
    assert regenerate(log, tmp_path) == f"unchanged {log.name}.json"
    assert written.stat().st_mtime_ns == before
    written.write_text(written.read_text().replace('"runs": ', '"runs": 1'))
    assert regenerate(log, tmp_path) == f"updated {log.name}.json"
    assert written.read_text() == golden_path(log).read_text()
    assert regenerate(tmp_path / "absent.log", tmp_path).startswith("skipped absent.log")
