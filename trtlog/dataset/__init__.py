"""Many logs, one dataset: every log's tables in one Parquet dataset, queried with SQL.

``trtlog ingest`` parses logs (here, in worker processes, or on a Dask cluster) and writes each
log's tables to ``DATASET/<table>/log_date=<YYYY-MM-DD>/<build_id>.parquet``: one folder per
table, Hive-partitioned by the log's date, one file per log named by its content hash. Appending
logs only adds files; a log already there (same content) is skipped. The ``builds`` table holds
one row per log and is written last, so a log counts as ingested only once all its tables are.
``trtlog query`` and the named reports read the dataset with DuckDB, each table a view.
"""

from trtlog.dataset.extract import LogResult, extract_log
from trtlog.dataset.ingest import IngestReport, ingest
from trtlog.dataset.layout import Dataset

__all__ = ["Dataset", "IngestReport", "LogResult", "extract_log", "ingest"]
