"""Which collected tests read the corpus or open a browser, found from their code.

A test is found by what its function, its fixtures and the test-module functions they call
name: the corpus helpers of ``tests.conftest`` (or a path under the corpus held in a module
variable or passed as a parameter), or the Chromium helpers of the report's tests. The
conftest marks what is found, so that a new test is marked without anyone remembering to, and
holds the marking to what each test really opens while it runs."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import CodeType

import pytest

# Names that only a test reading the corpus uses (defined in tests/conftest.py).
CORPUS_NAMES = frozenset({"corpus_dir", "corpus_log", "CORPUS_LOGS", "needs_corpus"})
# Names that only a test opening headless Chromium uses (defined in tests/test_report.py).
BROWSER_NAMES = frozenset({"CHROMIUM", "needs_chromium"})


def code_names(code: CodeType) -> set[str]:
    """The global and attribute names ``code`` uses, with those of the functions, lambdas and
    comprehensions inside it."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            names |= code_names(constant)
    return names


def function_run(function: Callable[..., object]) -> Callable[..., object]:
    """The function a test runs: the one inside Hypothesis's wrapper and any decorators."""
    inner = getattr(getattr(function, "hypothesis", None), "inner_test", function)
    return inspect.unwrap(inner)


def holds_path_under(value: object, root: Path) -> bool:
    """Whether ``value`` is a path under ``root``, or a collection with one."""
    if isinstance(value, Path):
        return value.is_relative_to(root)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(isinstance(item, Path) and item.is_relative_to(root) for item in value)
    return False


def uses(
    functions: Iterable[Callable[..., object]], names: frozenset[str], root: Path | None = None
) -> bool:
    """Whether one of ``functions``, or a function of the tests they call by name, uses one of
    ``names`` or a module variable that holds a path under ``root``."""
    pending = [function_run(function) for function in functions]
    seen: set[CodeType] = set()
    while pending:
        function = pending.pop()
        code = getattr(function, "__code__", None)
        if code is None or code in seen:
            continue
        seen.add(code)
        named = code_names(code)
        if named & names:
            return True
        namespace = getattr(function, "__globals__", {})
        for name in named:
            value = namespace.get(name)
            if root is not None and holds_path_under(value, root):
                return True
            if inspect.isfunction(value) and value.__module__.startswith("tests."):
                pending.append(value)
    return False


def fixture_functions(item: pytest.Item) -> Iterator[Callable[..., object]]:
    """The functions of the fixtures ``item`` asks for (directly or through other fixtures)."""
    info = getattr(item, "_fixtureinfo", None)
    for definitions in getattr(info, "name2fixturedefs", {}).values():
        for definition in definitions:
            yield definition.func


def reads_corpus(item: pytest.Item, root: Path, needs_corpus: pytest.MarkDecorator) -> bool:
    if any(mark == needs_corpus.mark for mark in item.iter_markers("skipif")):
        return True
    callspec = getattr(item, "callspec", None)
    if callspec is not None and any(
        holds_path_under(value, root) for value in callspec.params.values()
    ):
        return True
    function = getattr(item, "function", None)
    functions = [function, *fixture_functions(item)] if function else []
    return uses(functions, CORPUS_NAMES, root)


def opens_browser(item: pytest.Item) -> bool:
    function = getattr(item, "function", None)
    return function is not None and uses([function], BROWSER_NAMES)


def is_property_test(item: pytest.Item) -> bool:
    return bool(getattr(getattr(item, "function", None), "is_hypothesis_test", False))
