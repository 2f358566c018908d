"""The parsed-log store: what a log and its exports are (``sources``), the store of their tables
(``parsed_logs``), what names a log in it (``identity``), its folders and JSON files
(``folders``), the tables as Parquet files (``parquet_tables``, written by ``table_writing``),
and where the store lives, which log is current and how large it grows (``cache``)."""

from __future__ import annotations

from trtlog.analysis.buildlog import TABLES
from trtlog.store.cache import store_dir
from trtlog.store.identity import file_stats, sources_key
from trtlog.store.parsed_logs import NoCurrentLog, Store, StoreError, load

__all__ = [
    "TABLES",
    "NoCurrentLog",
    "Store",
    "StoreError",
    "file_stats",
    "load",
    "sources_key",
    "store_dir",
]
