"""Benchmark ``trtlog ingest``: logs per second and MB/s over the corpus repeated many times,
the files the run wrote, and the time of three typical queries over the dataset.

Each copy of a corpus log gets a first line of its own (another program's banner, as real logs
often have), so that every copy is a distinct build for the dataset and none is skipped as
already ingested. The copies are written once to the work folder; each run ingests them into a
fresh dataset, as its own process, timed on the wall clock. The queries run with DuckDB
straight over the dataset's folders (as any reader would), each the best of three.

    python bench/ingest.py --logs 700 --jobs 2
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Typical questions over many builds, with DuckDB over the table folders.
QUERIES = {
    "build time per model and version": """
        SELECT model, tensorrt_version, count(*) AS logs, avg(build_seconds) AS build_seconds
        FROM {builds} GROUP BY ALL ORDER BY ALL""",
    "FP32 fallbacks per GPU": """
        SELECT gpu, count(*) AS fp32_layers, count(DISTINCT build_id) AS builds
        FROM {precision} WHERE wider AND upper(precision) = 'FP32' GROUP BY ALL ORDER BY ALL""",
    "slowest layers across builds": """
        SELECT model, layer, max(best_ms) AS ms, count(DISTINCT build_id) AS builds
        FROM {choices} WHERE best_ms IS NOT NULL GROUP BY ALL ORDER BY ms DESC LIMIT 20""",
}


def main(argv: list[str] | None = None) -> int:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--corpus", help="the corpus folder (default: $TRTLOG_CORPUS)")
    arguments.add_argument("--work", default="/tmp/trtlog-bench-ingest", help="copies, datasets")
    arguments.add_argument("--logs", type=int, default=700, help="how many logs to ingest")
    arguments.add_argument("--jobs", default=f"1,{os.cpu_count() or 1}", help="e.g. 1,2")
    options = arguments.parse_args(argv)
    corpus = Path(options.corpus or os.environ.get("TRTLOG_CORPUS", REPO.parent / "shared/corpus"))
    logs = _copies(
        sorted((corpus / "logs").glob("*.log")), Path(options.work) / "logs", options.logs
    )
    megabytes = sum(path.stat().st_size for path in logs.iterdir()) / 1e6
    print(f"{options.logs} logs, {megabytes:.0f} MB", flush=True)
    for jobs in sorted({int(value) for value in options.jobs.split(",")}):
        dataset = Path(options.work) / f"dataset-{jobs}"
        shutil.rmtree(dataset, ignore_errors=True)
        command = [sys.executable, "-m", "trtlog", "ingest", str(logs), "--out", str(dataset)]
        start = time.perf_counter()
        subprocess.run([*command, "--jobs", str(jobs), "--quiet"], check=True)
        seconds = time.perf_counter() - start
        files = sum(1 for _ in dataset.rglob("*.parquet"))
        print(
            f"ingest --jobs {jobs}: {seconds:.1f} s, {options.logs / seconds:.1f} logs/s, "
            f"{megabytes / seconds:.1f} MB/s, {files} files",
            flush=True,
        )
        for name, seconds in _query_times(dataset).items():
            print(f"  query {name}: {seconds * 1000:.0f} ms", flush=True)
        shutil.rmtree(dataset, ignore_errors=True)
    return 0


def _query_times(dataset: Path) -> dict[str, float]:
    import duckdb

    def table(name: str) -> str:
        files = str(dataset / name / "*" / "*.parquet").replace("'", "''")
        return f"read_parquet('{files}', hive_partitioning = true, union_by_name = true)"

    tables = {name: table(name) for name in ("builds", "precision", "choices")}
    times = {}
    with duckdb.connect() as connection:
        for name, sql in QUERIES.items():
            runs = []
            for _ in range(3):
                start = time.perf_counter()
                connection.execute(sql.format(**tables)).fetchall()
                runs.append(time.perf_counter() - start)
            times[name] = min(runs)
    return times


def _copies(sources: list[Path], folder: Path, count: int) -> Path:
    if folder.is_dir() and len(list(folder.iterdir())) == count:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for number, source in zip(range(count), itertools.cycle(sources), strict=False):
        banner = f"benchmark copy {number} of {source.name}\n".encode()
        (folder / f"{number:05d}-{source.name}").write_bytes(banner + source.read_bytes())
    return folder


if __name__ == "__main__":
    sys.exit(main())
