"""Many logs, one dataset: every log's tables in one Parquet dataset, queried with SQL.

``trtlog ingest`` parses logs (here, in worker processes, or on a Dask cluster) and writes their
tables to ``DATASET/<table>/log_date=<YYYY-MM-DD>/<run>.parquet``: one folder per table,
Hive-partitioned by the log's date, one file per table and partition for each run, published
together once the run is done (``layout.py``). Appending logs only adds files; a log already
there (same content, found by the ``builds`` table's ``build_id``) is skipped; ``compact``
merges the files of earlier runs. ``trtlog query`` and the named reports read the dataset with
DuckDB, each table a view, confined to the dataset's files.
"""

from trtlog.dataset.extract import LogResult, extract_log
from trtlog.dataset.ingest import IngestReport, ingest
from trtlog.dataset.layout import Dataset

__all__ = ["Dataset", "IngestReport", "LogResult", "extract_log", "ingest"]
