"""The grammar files: how they are joined, loaded and named, and that their terminals are written
once (never restated as Python patterns)."""

from __future__ import annotations

import ast
import hashlib
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from lark import Lark, UnexpectedInput

import trtlog
from trtlog.parse.envelope import NO_ENVELOPE
from trtlog.parse.grammar import (
    GRAMMAR_FOLDER,
    GRAMMAR_PACKAGE,
    MESSAGE_GRAMMAR,
    MESSAGE_START_RULES,
    MessageGrammarLoader,
    grammar_loader,
    message_grammar,
    message_parser,
    non_capturing,
    terminal_regexp,
)

GRAMMARS = Path(trtlog.__file__).parent / GRAMMAR_FOLDER
PACKAGE = Path(trtlog.__file__).parent
FAMILIES = sorted(
    path.stem
    for path in GRAMMARS.glob("*.lark")
    if path.stem not in ("common", "messages", "envelope")
)
# A definition at the start of a line: "name:", "?name:", "NAME.2:".
_DEFINITION = re.compile(r"^\??(\w+)(?:\.-?\d+)?\s*:", re.MULTILINE)
_IMPORT = re.compile(r"^%import \.(\w+) \(([^)]*)\)", re.MULTILINE)


def _text(name: str) -> str:
    return (GRAMMARS / f"{name}.lark").read_text(encoding="utf-8")


@cache
def _imported_names() -> dict[str, set[str]]:
    """The names messages.lark imports, by the file it imports them from."""
    names: dict[str, set[str]] = {}
    for module, listed in _IMPORT.findall(_text("messages")):
        names.setdefault(module, set()).update(name.strip() for name in listed.split(","))
    return names


def _without_comments_and_literals(name: str) -> str:
    text = re.sub(r"//[^\n]*", "", _text(name))
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    return re.sub(r"/(?:[^/\\\n]|\\.)+/", "//", text)


def _defined(name: str) -> set[str]:
    """The rules, aliases and terminals a grammar file defines itself."""
    text = _without_comments_and_literals(name)
    return set(_DEFINITION.findall(text)) | set(re.findall(r"->\s*(\w+)", text))


def _shared_imports(name: str) -> set[str]:
    """The shared terminals a grammar file imports from common.lark."""
    return {
        imported.strip()
        for module, listed in _IMPORT.findall(_text(name))
        if module == "common"
        for imported in listed.split(",")
    }


def test_every_name_of_the_message_grammar_is_as_written() -> None:
    # A symbol an imported rule depends on but messages.lark does not import by name gets a
    # namespaced name ("onnx__ONNX_DTYPE"), which the transformer and the guards never see.
    parser = message_parser()
    names = {str(rule.origin.name) for rule in parser.rules}
    names |= {str(rule.alias) for rule in parser.rules if rule.alias}
    names |= {terminal.name for terminal in parser.terminals}
    # (Lark's own names start with "__": "__ANON_0", "__message_star_0".)
    assert sorted(name for name in names if "__" in name.lstrip("_")) == []
    assert {"REST", "BUILDER_NOTE_TEXT", "PROFILED_SUBJECT", "tensor_list"} <= names


def test_messages_imports_everything_each_family_defines() -> None:
    imported = _imported_names()
    assert sorted(imported) == sorted([*FAMILIES, "common"])
    for family in FAMILIES:
        assert sorted(_defined(family) - imported[family]) == [], family


def test_families_import_nothing_but_common() -> None:
    for family in FAMILIES:
        modules = {module for module, _names in _IMPORT.findall(_text(family))}
        assert modules <= {"common"}, family


def test_each_family_imports_the_shared_terminals_it_uses() -> None:
    shared = _defined("common")
    assert {"REST", "UINT", "NUMBER", "TACTIC_ID", "_NL"} <= shared
    for family in FAMILIES:
        used = set(re.findall(r"\w+", _without_comments_and_literals(family))) & shared
        assert sorted(_shared_imports(family)) == sorted(used), family
    assert _shared_imports("run") == {"REST"}
    assert _shared_imports("onnx") == {"REST", "_NL", "DIAGNOSTIC_LOCATION"}
    assert _shared_imports("foreign") == set()


@pytest.mark.parametrize("name", sorted(path.name for path in GRAMMARS.glob("*.lark")))
def test_each_grammar_file_loads_alone_from_the_package(name: str) -> None:
    # Lark's own loader, each file's own %imports; messages.lark with the loader that serves it
    # its families (see MessageGrammarLoader).
    stem = name.removesuffix(".lark")
    rules = sorted(n for n in _defined(stem) if n[0].islower() and _is_rule(stem, n))
    import_paths = [MessageGrammarLoader()] if name == MESSAGE_GRAMMAR else []
    parser = Lark.open_from_package(
        GRAMMAR_PACKAGE,
        name,
        (GRAMMAR_FOLDER,),
        start=rules,
        parser="lalr",
        lexer="contextual",
        import_paths=import_paths,
    )
    assert {str(rule.origin.name) for rule in parser.rules} >= set(rules)
    assert bool(rules) == (stem != "common")


def test_a_family_is_served_to_messages_without_the_shared_terminals_it_names() -> None:
    loader = MessageGrammarLoader()
    base = grammar_loader()(None, MESSAGE_GRAMMAR)[0]
    folder = base._replace(path=GRAMMAR_FOLDER)
    served = {name: loader(folder, f"{name}.lark")[1] for name in ("run", "onnx", "common")}
    assert "%import" not in served["run"] and "REST" in served["run"]
    # onnx.lark builds LOCATED_IMPORTER_STEP on DIAGNOSTIC_LOCATION: that import stays.
    assert re.findall(r"^%import[^\n]*", served["onnx"], re.MULTILINE) == [
        "%import .common (DIAGNOSTIC_LOCATION)"
    ]
    assert served["common"] == _text("common")


def _is_rule(family: str, name: str) -> bool:
    return re.search(rf"^\??{name}\s*:", _text(family), re.MULTILINE) is not None


def test_the_message_loader_names_a_digest_of_every_grammar_file() -> None:
    # Lark's cache key holds the loader's repr: it changes with any file.
    digest = hashlib.sha256()
    for path in sorted(GRAMMARS.glob("*.lark")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    assert digest.hexdigest() in repr(MessageGrammarLoader())


def test_a_parser_built_from_the_loaded_grammar_has_the_same_terminals() -> None:
    built = Lark(message_grammar(), start=list(MESSAGE_START_RULES), parser="lalr")
    assert {(t.name, t.pattern.to_regexp()) for t in built.terminals} == {
        (t.name, t.pattern.to_regexp()) for t in message_parser().terminals
    }


def test_the_grammar_cache_is_written_once_and_then_read(tmp_path: Path) -> None:
    script = (
        "import logging, lark\n"
        "lark.logger.setLevel(logging.DEBUG)\n"
        "from trtlog.parse.grammar import message_parser\n"
        "message_parser()\n"
    )
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    environment.pop("TRTLOG_NO_GRAMMAR_CACHE", None)
    # The third run as if a grammar file had changed.
    changed = "import trtlog.parse.grammar as g\ng.grammar_files_digest = lambda: '0' * 64\n"
    logs = [
        subprocess.run(
            [sys.executable, "-c", prefix + script], env=environment, capture_output=True, text=True
        ).stderr
        for prefix in ("", "", changed)
    ]
    assert "Saving grammar to cache" in logs[0]
    assert "Loading grammar from cache" in logs[1]
    assert "Saving grammar to cache" not in logs[1]
    # (Lark says it is loading when it opens the file, before it compares the key.)
    assert "Saving grammar to cache" in logs[2]
    assert list((tmp_path / "trtlog").iterdir())


def test_the_envelope_grammar_is_cached_too_and_parses_the_same_from_the_cache(
    tmp_path: Path,
) -> None:
    script = (
        "import logging, lark\n"
        "lark.logger.setLevel(logging.DEBUG)\n"
        "from trtlog.parse.envelope_grammar import split_envelope\n"
        "envelope, body = split_envelope('[07/07/2026-02:10:59] [I] Format: ONNX')\n"
        "print(envelope.producer, envelope.severity, body)\n"
    )
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    environment.pop("TRTLOG_NO_GRAMMAR_CACHE", None)
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], env=environment, capture_output=True, text=True
        )
        for _ in range(2)
    ]
    assert "Saving grammar to cache" in runs[0].stderr
    assert "Saving grammar to cache" not in runs[1].stderr
    # Loaded from the cache, the transformer still makes the envelope: trtexec's, at INFO.
    assert [run.stdout for run in runs] == ["trtexec info Format: ONNX\n"] * 2
    assert [path.name.split("-")[0] for path in (tmp_path / "trtlog").iterdir()] == ["envelope"]


# --- the builder's notes ----------------------------------------------------------------------

# One line per subject, as TensorRT prints them (the corpus's logs).
NOTES = [
    "Applying ScaleNodes fusions.",  # graph
    "[GraphReduction] The approximate region cut reduction algorithm is called.",
    "Loading supplied plugin library: ./AddScalarPlugin.so",  # plugins
    "Setting workspace to 7527202816enables more tactics for profiling",  # memory
    "QDQ graph optimizer - constant folding of Q/DQ initializers",  # precision
    "Enabling FP8 fusions at optimization level 5",  # optimisation level
    "[MS] Number of streams used is 3",  # compiler
    "DLA Memory Consumption Summary:",  # DLA
    "Adding 1 engine(s) to plan file.",  # serialisation
    "Using enqueueV3.",  # execution
    "Explanations of the performance metrics are printed in the verbose logs.",  # reporting
    "STILL ALIVE: Started step 26 of 77",  # the builder
]


def _event(line: str) -> object:
    parser = message_parser()
    parser.options.transformer.begin(NO_ENVELOPE, 1, 1, line)
    result = parser.parse(line, start="message")
    return result[0] if isinstance(result, list) else result


@pytest.mark.parametrize("line", NOTES)
def test_a_note_of_each_subject_is_a_builder_note_of_the_whole_line(line: str) -> None:
    event = _event(line)
    assert type(event).__name__ == "BuilderNote"
    assert event.text == line  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "line", ["Using enqueueV3. Done", "DLA Memory Consumption Summary: 3 MiB", "GRAPH NODES 2"]
)
def test_a_fixed_note_with_more_after_it_is_no_note(line: str) -> None:
    # The message rule has no other form for these: the line is no message it knows.
    with pytest.raises(UnexpectedInput):
        _event(line)


# --- terminals written once -------------------------------------------------------------------


def test_terminal_regexp_captures_nothing_of_its_own() -> None:
    number = re.compile(terminal_regexp("NUMBER"))
    assert number.groups == 0
    assert number.fullmatch("3.40282e+38") and number.fullmatch("inf")
    assert not number.fullmatch("1e")
    runner = re.compile(terminal_regexp("RUNNER_SUFFIX"))
    assert runner.groups == 0 and runner.fullmatch(" (CaskConvolution[0x80000009])")


def test_non_capturing_leaves_lookarounds_classes_and_escapes_alone() -> None:
    assert non_capturing(r"(a|b)(?=c)[(]\(d\)") == r"(?:a|b)(?=c)[(]\(d\)"


def _regex_terminals() -> dict[str, str]:
    """Every regular expression of a terminal definition, as written in the .lark files."""
    found: dict[str, str] = {}
    for path in GRAMMARS.glob("*.lark"):
        terminal = None
        for line in path.read_text(encoding="utf-8").splitlines():
            head = re.match(r"([A-Z_][A-Z0-9_]*)(?:\.-?\d+)?:", line)
            if head:
                terminal = head.group(1)
            elif not line.lstrip().startswith("|"):
                terminal = None
            for pattern in re.findall(r"/((?:[^/\\\n]|\\.)+)/", line) if terminal else ():
                # An alternative of a terminal written over several: "NAME/2".
                count = sum(1 for key in found if key.split("/")[0] == terminal)
                found[f"{terminal}/{count}" if count else terminal] = pattern
    return found


def _regex_pieces(pattern: str) -> list[str]:
    """``pattern`` as its pieces: an escape ("\\d"), a group's opening ("(", "(?:", "(?P<name>",
    "(?=", "(?<!"), or one character."""
    return re.findall(r"\\.|\((?:\?(?:[:=!]|<[=!]|P<\w+>))?|.", pattern, re.DOTALL)


def _normalised(pattern: str, lookarounds: bool = True) -> str:
    r"""``pattern`` without its groups' parentheses (a restatement may have made a group
    capturing, non-capturing or named, or dropped it), Lark's "\/" as Python's "/"; without
    ``lookarounds``, a lookaround is left out whole (it is the text around the terminal, which
    other code may write)."""
    out: list[str] = []
    # For each open group: whether it is a lookaround being left out.
    groups: list[bool] = []
    in_class = False
    for piece in _regex_pieces(pattern.replace("\\/", "/")):
        skipping = any(groups)
        if in_class:
            in_class = piece != "]"
        elif piece == "[":
            in_class = True
        elif piece.startswith("("):
            groups.append(not lookarounds and piece[:3] in ("(?=", "(?!", "(?<"))
            continue
        elif piece == ")" and groups:
            groups.pop()
            continue
        if not skipping:
            out.append(piece)
    return "".join(out)


# Pieces of a terminal that code may write for its own purposes: every hex number is one.
GENERIC_IDIOMS = ("0x[0-9a-fA-F]+",)
# A restatement shares a run of this many characters with a terminal, with at least
# ``_SYNTAX_PIECES`` pieces of expression syntax in it: runs of plain words are a rule's literals,
# which code writes as they are.
_RUN = 14
_SYNTAX_PIECES = 3


def _specific_runs(pattern: str) -> set[str]:
    """The runs of ``_RUN`` characters of a (normalised) pattern that are specific to it."""
    for idiom in GENERIC_IDIOMS:
        pattern = pattern.replace(idiom, "\0")
    runs = set()
    for start in range(len(pattern) - _RUN + 1):
        run = pattern[start : start + _RUN]
        syntax = [p for p in _regex_pieces(run) if p[0] == "\\" or p in "[]{}()*+?|^$."]
        if "\0" not in run and len(syntax) >= _SYNTAX_PIECES:
            runs.add(run)
    return runs


def _string_literals(source: str) -> list[str]:
    """The string literals of Python source (the constant parts of f-strings among them),
    docstrings left out."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


def restated_terminals(source: str, terminals: dict[str, str]) -> set[str]:
    """The terminals whose patterns ``source`` writes again, even in part: a specific run of a
    terminal's pattern (lookarounds left out) found in one of its string literals."""
    literals = [_normalised(literal) for literal in _string_literals(source)]
    return {
        name
        for name, pattern in terminals.items()
        if any(
            run in literal
            for run in _specific_runs(_normalised(pattern, lookarounds=False))
            for literal in literals
        )
    }


# None: code that needs a terminal's pattern reads it from the grammar (``terminal_pattern``,
# ``terminal_regexp``).
KNOWN_RESTATEMENTS: set[str] = set()


def test_the_restatements_of_old_found_their_terminals() -> None:
    # Written before the grammar's terminals were read: each a part of its terminal, drifted.
    terminals = _regex_terminals()
    foreign = 'NAME = re.compile(r"\\{ForeignNode\\[[^\\n]*?\\]\\}(?= metadata:)")\n'
    stamp = 'STAMP = re.compile(r"\\[(\\d\\d/\\d\\d/\\d{4}-\\d\\d:\\d\\d:\\d\\d)\\]")\n'
    version = 'VERSION = re.compile(r"\\[TensorRT v(\\d+)\\]")\n'
    assert "FOREIGN_NODE_NAME" in restated_terminals(foreign, terminals)
    assert "TIMESTAMP" in restated_terminals(stamp, terminals)
    assert "VERSION_TAG" in restated_terminals(version, terminals)
    # A rule's literal, the terminal's lookahead and a docstring quoting it are no restatements.
    innocent = (
        'r"""\\{ForeignNode\\[[^\\n]*?\\]\\}"""\n'
        'PRUNED = re.compile(r": \\d+ available tactics, ")\n'
        'HEX = re.compile(r"0x[0-9a-fA-F]+")\n'
        'COUNT = re.compile(r": \\d+ layers(?![^\\n])")\n'
    )
    assert restated_terminals(innocent, terminals) == set()


def test_no_terminal_is_restated_in_python() -> None:
    terminals = _regex_terminals()
    assert "TACTIC_ID" in terminals and "KERNEL_PARAMETERS" in terminals
    restated = set()
    for source in sorted(PACKAGE.rglob("*.py")):
        restated |= {
            f"{source.relative_to(PACKAGE.parent).as_posix()}: {name}"
            for name in restated_terminals(source.read_text(encoding="utf-8"), terminals)
        }
    assert sorted(restated - KNOWN_RESTATEMENTS) == []


def _compiled_patterns(source: str) -> set[str]:
    """The literal patterns ``source`` hands to a function of ``re``."""
    return {
        call.args[0].value
        for call in ast.walk(ast.parse(source))
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
        if isinstance(call.func.value, ast.Name) and call.func.value.id == "re" and call.args
        if isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
    }


def test_the_parser_and_the_builds_write_each_expression_once() -> None:
    # Two modules that need one expression (such as "(?<=\)), ", which splits a layer's
    # variant off its subject) import it from one of them, never copy it.
    modules: dict[str, set[str]] = {}
    for folder in ("parse", "build"):
        for source in sorted((PACKAGE / folder).rglob("*.py")):
            for pattern in _compiled_patterns(source.read_text(encoding="utf-8")):
                modules.setdefault(pattern, set()).add(source.name)
    assert _compiled_patterns('A = re.compile(r"(?<=\\)), ")\nre.split("x", y)') == {
        "(?<=\\)), ",
        "x",
    }
    assert {pattern: names for pattern, names in modules.items() if len(names) > 1} == {}
