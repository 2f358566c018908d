"""Analyses over parsed logs: pandas tables of stages, tactics, fusions, memory, performance."""

from __future__ import annotations

from trtlog.analysis.buildlog import TABLES, BuildLog, parse_build_log

__all__ = ["TABLES", "BuildLog", "parse_build_log"]
