"""Build trtlog, compiling the modules that read every line of a log with mypyc.

A verbose log of a large model holds millions of lines, and the modules below touch each one:
the scanner, records, the fold and the table builders fed while reading. Compiled to C by mypyc
(from the same type-annotated source), they read the 10.x 1 GB benchmark log about a quarter
faster (bench/HISTORY.md). Everything else stays plain Python.

The compiled modules are optional: the build falls back to plain Python where mypyc or a C
compiler is missing or fails, or when ``TRTLOG_PURE_PYTHON=1`` is set (for working on these
modules in an editable install, whose compiled files would otherwise shadow edits to them until
the next install). ``trtlog.compiled()`` tells which one is running.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED_MODULES = [
    "trtlog/analysis/clock.py",
    "trtlog/analysis/columns.py",
    "trtlog/analysis/combinations.py",
    "trtlog/analysis/stream.py",
    "trtlog/analysis/tactics.py",
    "trtlog/analysis/timeline.py",
    "trtlog/analysis/timeline_spans.py",
    "trtlog/parse/announced.py",
    "trtlog/parse/blocks.py",
    "trtlog/parse/envelope_cache.py",
    "trtlog/parse/fast_forms.py",
    "trtlog/parse/fast_forms_runs.py",
    "trtlog/parse/fast_path.py",
    "trtlog/parse/fold.py",
    "trtlog/parse/lexer_order.py",
    "trtlog/parse/pipeline.py",
    "trtlog/parse/reader.py",
    "trtlog/parse/records.py",
    "trtlog/parse/rows.py",
    "trtlog/parse/transport.py",
]


def _warn(message: str) -> None:
    print(f"trtlog: {message}; installing plain Python modules", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves the plain Python modules in place when compiling fails. All or
    nothing: a module compiled without mypyc's shared library beside it cannot be imported."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any failure falls back to Python
            _warn(f"compiling failed ({error})")
            self._remove_outputs()

    def _remove_outputs(self) -> None:
        for output in self.get_outputs():
            Path(output).unlink(missing_ok=True)
        if self.inplace:
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)


def compiled_extensions() -> list[Any]:
    if os.environ.get("TRTLOG_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        _warn(f"mypyc is not available ({error})")
        return []
    try:
        # The build's environment holds no lark, numpy or pandas: their types are Any here.
        options = ["--ignore-missing-imports", "--no-warn-unused-ignores"]
        return list(mypycify([*options, *COMPILED_MODULES], opt_level="3", group_name="trtlog"))
    except (Exception, SystemExit) as error:  # a type error in mypyc's check
        _warn(f"mypyc could not translate the modules ({error})")
        return []


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
