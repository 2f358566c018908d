"""The wheel ships every package and the grammars."""

from __future__ import annotations

import sys

from tests.conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {
        ".".join(path.relative_to(REPO).parent.parts)
        for path in (REPO / "trtlog").rglob("__init__.py")
    }
    assert on_disk | {"trtlog.grammars"} == listed
    assert config["package-dir"]["trtlog.grammars"] == "grammars"


def test_grammars_are_found_through_the_package() -> None:
    from importlib import resources

    names = {entry.name for entry in resources.files("trtlog.grammars").iterdir()}
    assert {"envelope.lark", "messages.lark", "autotuning.lark"} <= names
