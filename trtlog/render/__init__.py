"""Renderers: a DataFrame as a rich table, JSON, CSV or Markdown (see ``frames``).

This module stays free of pandas so that the command line can name the formats without
importing it."""

from __future__ import annotations

from enum import Enum


class OutputFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
