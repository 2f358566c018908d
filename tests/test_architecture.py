"""The package's layers and its import graph (CONTRIBUTING.md, "The architecture").

Every import counts: those at the top of a module, those inside functions and those under
``TYPE_CHECKING``. The layers are import-linter's contract in pyproject.toml; the cycles and the
analyses' view of the parser are read from the same kind of graph, grimp's.
"""

from __future__ import annotations

import sys
from importlib import import_module

import grimp
import pytest
from importlinter.cli import lint_imports

from tests.conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

PACKAGE = "trtlog"
# The native core, an extension module without Python source: grimp files an import of it
# under the package itself, which would make every module that imports the package's entry
# points (``trtlog.load``) part of a cycle through the parser.
CORE = "trtlog._core"
# The one way to import it; any other import of the package itself stays one.
CORE_IMPORT = "from trtlog import _core"
# What the analyses may import of the parser: the names ``trtlog.parse`` exports, the items the
# parse hands on (events, and blocks of lines as columns) and the summary of a parse.
PARSE_INTERFACE = frozenset({"trtlog.parse", "trtlog.parse.items", "trtlog.parse.summarize"})
MAX_MODULE_LINES = 400
# Modules that import by a name held in a string (``importlib.import_module``) only what is
# outside the package, which no layer concerns: the Python backend's worker imports TensorRT.
IMPORTS_OUTSIDE_THE_PACKAGE = frozenset({"trtlog.build.worker"})


def package_graph() -> grimp.ImportGraph:
    """The package's import graph, its imports of the native core filed under ``CORE``."""
    return with_core_imports_filed_apart(grimp.build_graph(PACKAGE, cache_dir=None), PACKAGE)


def with_core_imports_filed_apart(graph: grimp.ImportGraph, package: str) -> grimp.ImportGraph:
    """``graph`` with each import of ``package`` that is exactly ``CORE_IMPORT`` (and no other
    name beside it) filed as an import of ``CORE``."""
    core, exact = f"{package}._core", CORE_IMPORT.replace(PACKAGE, package, 1)
    graph.add_module(core)
    for importer in graph.find_modules_that_directly_import(package):
        details = graph.get_import_details(importer=importer, imported=package)
        if details and all(detail["line_contents"].strip() == exact for detail in details):
            graph.remove_import(importer=importer, imported=package)
            graph.add_import(importer=importer, imported=core)
    return graph


def import_cycles(graph: grimp.ImportGraph) -> dict[frozenset[str], tuple[str, ...]]:
    """Each group of modules that import one another, directly or not, with one shortest
    cycle through it."""
    cycles: dict[frozenset[str], tuple[str, ...]] = {}
    for module in sorted(graph.modules):
        if any(module in group for group in cycles):
            continue
        group = graph.find_upstream_modules(module) & graph.find_downstream_modules(module)
        if not group:
            continue
        shortest: tuple[str, ...] | None = None
        for imported in graph.find_modules_directly_imported_by(module) & group:
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None and (shortest is None or len(back) < len(shortest)):
                shortest = back
        assert shortest is not None
        cycles[frozenset({module, *group})] = (module, *shortest)
    return cycles


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return package_graph()


def test_each_layer_imports_only_the_layers_below_it(capsys: pytest.CaptureFixture[str]) -> None:
    status = lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True)
    report = capsys.readouterr().out
    assert status == 0, report[report.find("Broken contracts") :] or report


def test_the_contract_counts_imports_inside_functions_and_under_type_checking(
    graph: grimp.ImportGraph,
) -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    for contract in config["contracts"]:
        assert not contract.get("exclude_type_checking_imports", False), contract["name"]
    # ``trtlog.load`` imports the store inside the function; the package names ``BuildLog``
    # under TYPE_CHECKING.
    assert graph.direct_import_exists(importer=PACKAGE, imported="trtlog.store")
    assert graph.direct_import_exists(importer=PACKAGE, imported="trtlog.analysis")


def test_no_import_cycles_at_all(graph: grimp.ImportGraph) -> None:
    cycles = import_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles.values())


def test_cycles_are_found_through_every_module_of_them() -> None:
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        graph.add_module(module)
    for importer, imported in [
        ("pkg.a", "pkg.b"),
        ("pkg.b", "pkg.c"),
        ("pkg.c", "pkg.a"),
        ("pkg.c", "pkg.d"),
        ("pkg.b", "pkg.a"),
    ]:
        graph.add_import(importer=importer, imported=imported)
    cycles = import_cycles(graph)
    assert list(cycles) == [frozenset({"pkg.a", "pkg.b", "pkg.c"})]
    # The shortest way back: a imports b, which imports a.
    assert cycles[frozenset({"pkg.a", "pkg.b", "pkg.c"})] == ("pkg.a", "pkg.b", "pkg.a")
    graph.remove_import(importer="pkg.c", imported="pkg.a")
    graph.remove_import(importer="pkg.b", imported="pkg.a")
    assert import_cycles(graph) == {}


def test_only_the_parser_imports_the_core_and_no_module_the_package_itself(
    graph: grimp.ImportGraph,
) -> None:
    importers = graph.find_modules_that_directly_import(CORE)
    assert importers
    assert all(module.startswith("trtlog.parse.") for module in importers), importers
    # The package's entry points (``trtlog.load``) sit above every layer.
    assert graph.find_modules_that_directly_import(PACKAGE) == set()


def test_analyses_read_the_parser_only_through_its_interface(graph: grimp.ImportGraph) -> None:
    private = [
        f"{found['importer']}:{found['line_number']} imports {found['imported']}"
        for importer in sorted({"trtlog.analysis", *graph.find_descendants("trtlog.analysis")})
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.startswith("trtlog.parse.") and imported not in PARSE_INTERFACE
        for found in graph.get_import_details(importer=importer, imported=imported)
    ]
    assert not private, "\n".join(private)


def test_no_module_is_over_the_limit() -> None:
    long = {
        str(path.relative_to(REPO)): lines
        for path in sorted((REPO / "trtlog").rglob("*.py"))
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_module_of_the_native_core_is_over_the_limit() -> None:
    # Each module's unit tests live in a file of their own (``core/src/<module>/tests.rs``).
    long = {
        str(path.relative_to(REPO)): lines
        for path in sorted((REPO / "core" / "src").rglob("*.rs"))
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_only_the_exact_import_of_the_core_is_filed_under_it() -> None:
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.parse", "pkg.parse.a", "pkg.parse.b", "pkg.parse.c"):
        graph.add_module(module)
    for importer, line in [
        ("pkg.parse.a", "from pkg import _core"),
        ("pkg.parse.b", "from pkg import _core, load"),
        ("pkg.parse.c", "from pkg import load"),
    ]:
        graph.add_import(importer=importer, imported="pkg", line_number=1, line_contents=line)
    with_core_imports_filed_apart(graph, "pkg")
    assert graph.find_modules_that_directly_import("pkg._core") == {"pkg.parse.a"}
    assert graph.find_modules_that_directly_import("pkg") == {"pkg.parse.b", "pkg.parse.c"}


def layer_of(module: str) -> int:
    """The place of ``module``'s top-level package in the contract's layers, from the top."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    top = module.split(".")[1]
    (place,) = [i for i, layer in enumerate(layers) if top in layer.replace(" ", "").split("|")]
    return place


def layers_allow(importer: str, imported: str) -> bool:
    """Whether the layers let ``importer`` import ``imported``: within its own top-level
    package, or from a layer below its own."""
    same = importer.split(".")[:2] == imported.split(".")[:2]
    return same or layer_of(imported) > layer_of(importer)


def imports_by_name() -> dict[str, set[tuple[str, str]]]:
    """Each module that imports by a name held in a string: the (module, attribute) pairs its
    registry names."""
    from trtlog import parse, plots
    from trtlog.analysis import buildlog
    from trtlog.cli import queries

    def split(target: str, default: str) -> tuple[str, str]:
        module, _, attribute = target.rpartition(".")
        return f"trtlog.analysis.{module or default}", attribute

    return {
        "trtlog.analysis.buildlog": {split(target, "") for target in buildlog._SIMPLE.values()},
        "trtlog.cli.queries": {split(target, "queries") for _, target in queries.VIEWS.values()},
        "trtlog.plots": {
            (f"trtlog.plots.{module}", name) for module, name, _ in plots.PLOTS.values()
        },
        "trtlog.parse": {
            (parse._HOMES.get(name, "trtlog.parse.pipeline"), name) for name in parse.__all__
        },
        # The table builders, loaded before the side-table process is forked: whole modules.
        "trtlog.store.table_writing": {
            (f"trtlog.analysis.{module}", "__name__") for module in buildlog.TABLES.values()
        },
    }


def test_every_import_by_name_is_listed_here() -> None:
    # A new registry of names must be added to ``imports_by_name``, or its imports go unchecked.
    found = {
        ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        for path in sorted((REPO / "trtlog").rglob("*.py"))
        if "import_module(" in path.read_text()
    }
    assert found == set(imports_by_name()) | IMPORTS_OUTSIDE_THE_PACKAGE


def test_imports_by_name_respect_the_layers_and_name_what_exists(
    graph: grimp.ImportGraph,
) -> None:
    wrong = [
        f"{importer} imports {module}.{attribute} by name"
        for importer, targets in imports_by_name().items()
        for module, attribute in sorted(targets)
        if module not in graph.modules
        or not layers_allow(importer, module)
        or not hasattr(import_module(module), attribute)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_layers_allow_imports_within_a_package_and_downwards_only() -> None:
    assert layers_allow("trtlog.analysis.buildlog", "trtlog.analysis.stages")
    assert layers_allow("trtlog.cli.queries", "trtlog.analysis.fusions")
    assert layers_allow("trtlog.dataset.extract", "trtlog.store.sources")
    assert not layers_allow("trtlog.analysis.buildlog", "trtlog.plots.build")
    assert not layers_allow("trtlog.store.sources", "trtlog.dataset.extract")
    assert not layers_allow("trtlog.plots", "trtlog.render.frames")
