"""The markers each test gets from what it uses, the check that a test reading the corpus is
marked so, and the Hypothesis profile chosen by the environment."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import conftest
from tests.conftest import REPO, SAMPLES, needs_corpus
from tests.marking import code_names, holds_path_under, uses

pytest_plugins = ["pytester"]

CORPUS_LOG = conftest.corpus_dir() / "logs" / "hackathon_trt10.16.1_trtexec_build_h100.log"


# Stand-ins named after nothing of the corpus's, so that these tests are not marked corpus.
_LISTED = [SAMPLES / "trtexec_10.x_build_inference_profile.log"]


def _helper_that_lists() -> int:
    return len([path for path in SAMPLES.glob("*.log") if path.stat().st_size])


def _calls_the_helper() -> int:
    return _helper_that_lists() + 1


def _reads_a_listed_path() -> int:
    return len(_LISTED)


def _reads_nothing() -> int:
    return 1


def test_names_inside_comprehensions_and_lambdas_are_seen() -> None:
    def nested() -> object:
        return lambda: [SAMPLES for SAMPLES in ()]  # noqa: C416

    assert "SAMPLES" not in code_names(nested.__code__)  # a local name, not a global one

    def global_in_comprehension() -> object:
        return lambda: [path for path in SAMPLES.iterdir()]  # noqa: C416

    assert "SAMPLES" in code_names(global_in_comprehension.__code__)


def test_a_test_module_function_is_followed_to_what_it_calls(tmp_path: Path) -> None:
    names = frozenset({"SAMPLES"})
    assert uses([_calls_the_helper], names)
    assert not uses([_reads_nothing], names)
    # A module variable holding a path under the root, through the function that reads it.
    assert uses([_reads_a_listed_path], frozenset(), SAMPLES)
    assert not uses([_reads_a_listed_path], frozenset(), tmp_path)


def test_a_path_under_the_corpus_is_found_alone_or_in_a_collection(tmp_path: Path) -> None:
    inside = tmp_path / "logs" / "a.log"
    assert holds_path_under(inside, tmp_path)
    assert holds_path_under([SAMPLES, inside], tmp_path)
    assert holds_path_under({"a": inside}, tmp_path)
    assert not holds_path_under(SAMPLES / "a.log", tmp_path)
    assert not holds_path_under(str(inside), tmp_path)


# Collects the files named on its command line and prints each test's id and markers.
_LIST_MARKERS = """
import sys, pytest
class Listing:
    def pytest_collection_finish(self, session):
        for item in session.items:
            print("marked", item.nodeid, *sorted({mark.name for mark in item.iter_markers()}), sep="\\t")
sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]], [Listing()]))
"""


def markers_of(*files: str) -> dict[str, set[str]]:
    """Each test of ``files``, with the names of its markers."""
    done = subprocess.run(
        [sys.executable, "-c", _LIST_MARKERS, *files],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split("\t") for line in done.stdout.splitlines() if line.startswith("marked\t")]
    return {row[1]: set(row[2:]) for row in rows}


@pytest.mark.slow
def test_tests_are_marked_by_what_they_use() -> None:
    markers = markers_of("tests/test_render.py", "tests/test_report.py")
    render, report = "tests/test_render.py::", "tests/test_report.py::"
    # corpus_log() in the body, parametrised by corpus log names.
    drawn = "test_every_table_of_a_corpus_log_lays_out_the_same_drawn_or_joined"
    assert "corpus" in markers[f"{render}{drawn}[hackathon_trt10.16.1_trtexec_build_h100.log]"]
    # A made-up table only.
    assert (
        "corpus"
        not in markers[f"{render}test_a_table_written_to_a_file_keeps_each_row_on_one_line"]
    )
    # Chromium started through the module's helpers, on the sample log.
    assert markers[f"{report}test_report_tables_sort_and_filter_in_chromium"] >= {"browser"}
    assert "corpus" not in markers[f"{report}test_report_tables_sort_and_filter_in_chromium"]
    # The sample's report read as text.
    assert not {"browser", "corpus"} & markers[f"{report}test_report_is_self_contained"]
    # Hypothesis draws the frames.
    assert "property" in markers[f"{render}test_rows_drawn_or_joined_lay_out_as_rows_one_by_one"]
    assert "property" not in markers[f"{render}test_a_narrow_terminal_keeps_names_readable"]


def test_an_unknown_marker_is_an_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\naddopts = --strict-markers\nmarkers =\n    slow: slow\n")
    pytester.makepyfile("import pytest\n\n@pytest.mark.sloww\ndef test_x():\n    pass\n")
    result = pytester.runpytest_inprocess()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*'sloww' not found in `markers` configuration option*"])


@needs_corpus
def test_a_test_that_opens_the_corpus_unmarked_fails(pytester: pytest.Pytester) -> None:
    # The path is a string in the test's text: nothing in its code shows the corpus, as in a
    # test that reads a path from elsewhere; the marker is then written beside it.
    pytester.makeini(
        "[pytest]\nmarkers =\n    corpus: c\n    property: p\n    browser: b\n    slow: s\n"
    )
    pytester.makeconftest(
        "from tests.conftest import marked_corpus_if_it_reads_it  # noqa: F401\n"
        "from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n"
    )
    pytester.makepyfile(
        textwrap.dedent(
            f"""
            import pytest

            def test_unmarked():
                open({str(CORPUS_LOG)!r}, "rb").close()

            @pytest.mark.corpus
            def test_marked():
                open({str(CORPUS_LOG)!r}, "rb").close()

            def test_no_corpus():
                pass
            """
        )
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*test_unmarked opened *but is not marked corpus*"])


def profile_in(environment: dict[str, str]) -> list[str]:
    """The profile and default number of examples that tests/conftest.py loads."""
    env = {
        key: value for key, value in os.environ.items() if key not in ("CI", "HYPOTHESIS_PROFILE")
    }
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import hypothesis, tests.conftest as c;"
            "print(c.PROFILE, hypothesis.settings.default.max_examples, c.examples(3000))",
        ],
        cwd=REPO,
        env={**env, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow
def test_hypothesis_profile_is_dev_unless_ci_or_asked() -> None:
    assert profile_in({}) == ["dev", "20", "20"]
    assert profile_in({"CI": "true"}) == ["ci", "500", "3000"]
    assert profile_in({"CI": "true", "HYPOTHESIS_PROFILE": "dev"}) == ["dev", "20", "20"]
