"""The wheel ships every package and the grammars."""

from __future__ import annotations

import sys

from tests.conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def test_maturin_builds_the_core_into_the_package() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert config["build-system"]["build-backend"] == "maturin"
    maturin = config["tool"]["maturin"]
    assert maturin["module-name"] == "trtlog._core"
    assert (REPO / maturin["manifest-path"]).is_file()
    # The grammar ships inside the package; grammars/ at the top is a link to it.
    assert (REPO / "grammars").resolve() == (REPO / "trtlog" / "grammars").resolve()


def test_the_core_is_importable() -> None:
    from trtlog import _core

    assert _core.Scanner(_core.Guards([]), 1).lines == 0


def test_grammars_are_found_through_the_package() -> None:
    from importlib import resources

    names = {entry.name for entry in resources.files("trtlog.grammars").iterdir()}
    assert {"envelope.lark", "messages.lark", "autotuning.lark"} <= names
