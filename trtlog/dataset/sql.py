"""SQL over a dataset with DuckDB: each table a view over its Parquet files, and the named
reports (``trends``, ``regressions``) as queries over those views."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trtlog.dataset.layout import BUILDS, PARTITION, TABLE_NAME, Dataset, DatasetError

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

# Once the views are made, the connection may read the dataset's files and nothing else: no
# other file, no COPY ... TO, no ATTACH, no extension installed or loaded; and the settings are
# locked so that the SQL cannot undo them.
_CONFINED = [
    "SET autoinstall_known_extensions = false",
    "SET autoload_known_extensions = false",
    "SET enable_external_access = false",
    "SET lock_configuration = true",
]


def connect(dataset: Dataset, allow_files: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with one view per table of ``dataset``, confined to the
    dataset's files unless ``allow_files``."""
    try:
        import duckdb
    except ImportError as error:
        raise DatasetError("SQL needs DuckDB: pip install duckdb") from error
    dataset.check_readable()
    connection = duckdb.connect()
    files: list[str] = []
    for table in dataset.tables():
        if not TABLE_NAME.fullmatch(table):
            raise DatasetError(f"{table!r} is not a table name")
        paths = [str(path.resolve()) for path in dataset.files(table)]
        # The relational API takes the paths as values: no path is ever spliced into SQL text.
        relation = connection.read_parquet(paths, hive_partitioning=True, union_by_name=True)
        relation.create_view(table)
        files += paths
    if not allow_files:
        connection.execute("SET allowed_paths = ?", [files])
        for setting in _CONFINED:
            connection.execute(setting)
    return connection


def query(
    dataset: Dataset, sql: str, parameters: dict[str, Any] | None = None, allow_files: bool = False
) -> pd.DataFrame:
    """The result of ``sql`` over the dataset's views. Raises ``DatasetError`` (one line) for
    SQL that DuckDB rejects, a file or extension outside the dataset included."""
    import duckdb

    connection = connect(dataset, allow_files)
    try:
        return connection.execute(sql, parameters).df()
    except duckdb.Error as error:
        message = " ".join(str(error).split())
        if isinstance(error, duckdb.PermissionException):
            message += " (a query reads the dataset's files only)"
        raise DatasetError(f"SQL error: {message}") from error
    finally:
        connection.close()


TRENDS_SQL = f"""
SELECT model, tensorrt_version, gpu, {PARTITION},
       count(*) AS logs,
       round(avg(build_seconds), 3) AS build_seconds,
       round(avg(latency_mean_ms), 4) AS latency_mean_ms,
       round(avg(gpu_compute_mean_ms), 4) AS gpu_compute_mean_ms,
       round(avg(fp32_fallback_layers), 2) AS fp32_fallback_layers,
       round(avg(wider_layers), 2) AS wider_layers
FROM {BUILDS}
GROUP BY ALL
ORDER BY model NULLS LAST, {PARTITION}, tensorrt_version NULLS FIRST, gpu NULLS FIRST
"""


def trends(dataset: Dataset, allow_files: bool = False) -> pd.DataFrame:
    """Per model, TensorRT version, GPU and day: build time, engine latency, and the layers
    left in FP32 (or wider than the build asked for)."""
    return query(dataset, TRENDS_SQL, allow_files=allow_files)


# Per model, GPU, layer and TensorRT version: the chosen tactic's time (the fastest choice
# among the layer's format combinations, averaged over the version's builds) and the profiled
# average time.
_MEASURES = {
    "choices": """
        SELECT 'chosen tactic' AS measure, model, gpu, tensorrt_version, layer, avg(ms) AS ms
        FROM (SELECT model, gpu, tensorrt_version, build_id, layer, min(best_ms) AS ms
              FROM choices WHERE best_ms IS NOT NULL AND layer IS NOT NULL GROUP BY ALL)
        GROUP BY ALL""",
    "profile": """
        SELECT 'profile' AS measure, model, gpu, tensorrt_version, layer, avg(average_ms) AS ms
        FROM profile WHERE average_ms IS NOT NULL AND layer IS NOT NULL GROUP BY ALL""",
}


def regressions(
    dataset: Dataset, baseline: str, top: int = 20, allow_files: bool = False
) -> pd.DataFrame:
    """The layers whose chosen-tactic time or profiled time grew most from TensorRT
    ``baseline`` to another version, for the same model and GPU."""
    versions = query(dataset, f"SELECT DISTINCT tensorrt_version FROM {BUILDS}", None, allow_files)
    known = sorted(str(version) for version in versions["tensorrt_version"].dropna())
    if baseline not in known:
        raise DatasetError(
            f"no build with TensorRT {baseline} in the dataset; versions: {', '.join(known)}"
        )
    present = [table for table in _MEASURES if table in dataset.tables()]
    if not present:
        raise DatasetError("the dataset has no choices or profile table to compare")
    measures = " UNION ALL ".join(_MEASURES[table] for table in present)
    sql = f"""
        WITH measures AS ({measures})
        SELECT later.measure, later.model, later.gpu, later.layer,
               base.ms AS baseline_ms, later.tensorrt_version AS version, later.ms AS ms,
               later.ms - base.ms AS growth_ms,
               round(100 * (later.ms - base.ms) / nullif(base.ms, 0), 1) AS growth_percent
        FROM measures AS later
        JOIN measures AS base
          ON base.measure = later.measure AND base.layer = later.layer
         AND base.model IS NOT DISTINCT FROM later.model
         AND base.gpu IS NOT DISTINCT FROM later.gpu
         AND base.tensorrt_version = $baseline
        WHERE later.tensorrt_version IS DISTINCT FROM $baseline
          AND later.ms > base.ms
        ORDER BY growth_ms DESC, later.measure, later.model, later.layer, version
        LIMIT {int(top)}
    """
    return query(dataset, sql, {"baseline": baseline}, allow_files)


__all__ = ["TRENDS_SQL", "connect", "query", "regressions", "trends"]
