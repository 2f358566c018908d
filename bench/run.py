"""Benchmark trtlog on large generated logs: MB/s and peak memory, with grep as the floor.

For each log style (a real 10.x and a real 8.x build log from the corpus) and each size, the
log is generated once with ``bench/generate.py`` (kept in the work folder for later runs), then
each of these runs as its own process, timed on the wall clock:

- ``grep -c Tactic`` on the file: the floor, what reading the bytes costs;
- ``trtlog parse`` with 1 job and with N jobs (processes that build the tables), into a fresh
  store (tables written to Parquet), and ``trtlog parse --format jsonl`` (every event as a line
  of JSON, nothing stored);
- the grammar alone (``fast=False``, without the native core, no tables) on the first 20 MB;
- a query on the stored result: ``trtlog tactics --layer NAME`` and ``trtlog tactics`` as CSV,
  and ``trtlog tactics --layer NAME`` as a table;
- ``trtlog --help``.

Before the first and after the last, a fixed loop of plain Python (``GAUGE_SCRIPT``) is timed as
a gauge of the machine's speed at the time: a virtual machine's speed can drift by a factor of
two between hours, and runs compare only where the gauge agrees. Then the same loop runs in N
processes at once (the scaling gauge): N times the loop's time alone over the slowest of their
times is how many processes' work the machine does at once: a log is read on two threads, and
a virtual machine's cores may share physical ones (on the 2-core machine of the README two loops
at once took 1.0-1.8 times as long as one alone, from hour to hour).

Each command runs twice: once timed, once for its memory. Peak memory is the largest
proportional set size of the process tree (the forked table process included: a page that
processes share, as it shares what it inherited at fork, is split between them), sampled from
/proc every 20 ms (Linux); elsewhere the process's own peak resident size. Sampling takes CPU
time of its own, which on a two-core machine a parse would otherwise use: the timed run is not
sampled.

    python bench/run.py --sizes 100M,1G --jobs 2 --json bench/results.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
STYLES = {
    "10.x": "hackathon_trt10.16.1_trtexec_build_h100.log",
    "8.x": "hackathon_trt8.6.0_trtexec_build_rtx3090.log",
    # 8.0-8.5 print each kernel's name on a line of its own before its timing.
    "8.5": "nvtrt_trex_trt8.5.2_trtexec_orin_int8_yolo_verbose_dumpProfile.log",
}
TRTLOG = [sys.executable, "-m", "trtlog"]
GRAMMAR_SLICE = 20_000_000
GRAMMAR_SCRIPT = """
import sys
from trtlog.parse import parse_text
with open(sys.argv[1], "rb") as stream:
    data = stream.read(int(sys.argv[2]))
data = data[: data.rfind(b"\\n") + 1]
parse_text(data, fast=False)
"""

# The machine's speed gauge: the same fixed work on every machine and in every run.
GAUGE_SCRIPT = """
import time
start = time.perf_counter()
total = 0
for number in range(20_000_000):
    total += number
print(time.perf_counter() - start)
"""


@dataclass
class Measurement:
    style: str
    size_mb: float
    task: str
    seconds: float
    mb_per_s: float | None
    peak_mb: float
    status: int


def main(argv: list[str] | None = None) -> int:
    options = _arguments().parse_args(argv)
    corpus = Path(options.corpus or os.environ.get("TRTLOG_CORPUS", REPO.parent / "shared/corpus"))
    work = Path(options.work)
    work.mkdir(parents=True, exist_ok=True)
    results: list[Measurement] = []
    print(_machine(), flush=True)
    gauges = [gauge()]
    print(f"speed gauge before: a fixed Python loop took {gauges[0]:.2f} s", flush=True)
    scaling = scaling_gauge(options.jobs, gauges[0]) if options.jobs > 1 else None
    if scaling is not None:
        print(
            f"scaling gauge: {options.jobs} loops at once did the work of {scaling:.2f} alone",
            flush=True,
        )
    for style in options.styles.split(","):
        for size in options.sizes.split(","):
            log = _generated(corpus / "logs" / STYLES[style], work / f"{style}_{size}.log", size)
            results.extend(_measure_log(log, style, work / f"store-{style}-{size}", options.jobs))
    help_command = [*TRTLOG, "--help"]
    help_seconds, _, help_status = run(help_command, env=dict(os.environ), sample=False)
    _, help_peak, _ = run(help_command, env=dict(os.environ))
    help_row = Measurement("-", 0.0, "trtlog --help", help_seconds, None, help_peak, help_status)
    results.append(help_row)
    print(_row(results[-1]))
    gauges.append(gauge())
    print(f"speed gauge after: a fixed Python loop took {gauges[1]:.2f} s", flush=True)
    if options.json:
        document = {
            "machine": _machine(),
            "gauge_seconds": gauges,
            "scaling": {"processes": options.jobs, "work_of_alone": scaling},
            "results": [asdict(result) for result in results],
        }
        Path(options.json).write_text(json.dumps(document, indent=1) + "\n")
    failed = [result for result in results if result.status != 0 and "grep" not in result.task]
    return 1 if failed else 0


def _measure_log(log: Path, style: str, store: Path, jobs: int) -> list[Measurement]:
    megabytes = log.stat().st_size / 1e6
    environment = {**os.environ, "TRTLOG_STORE": str(store)}
    results: list[Measurement] = []

    def measure(
        task: str, command: list[str], volume: float | None = megabytes, fresh: bool = False
    ) -> None:
        # Timed alone, then run again for its memory: sampling /proc every 20 ms takes a
        # core's time that, on two cores, a parse would otherwise use. ``fresh``:
        # each run starts from an empty store (a parse, not a reading of the stored one).
        if fresh:
            shutil.rmtree(store, ignore_errors=True)
        seconds, _, status = run(command, env=environment, sample=False)
        if fresh:
            shutil.rmtree(store, ignore_errors=True)
        _, peak, sampled_status = run(command, env=environment)
        rate = volume / seconds if volume else None
        status = status or sampled_status
        results.append(Measurement(style, megabytes, task, seconds, rate, peak, status))
        print(_row(results[-1]), flush=True)

    # Every figure is taken with the log in the page cache: read it once first.
    _read_through(log)
    measure("grep -c Tactic", ["grep", "-c", "Tactic", str(log)])
    for count in sorted({1, jobs}):
        parse = [*TRTLOG, "parse", str(log), "-j", str(count)]
        measure(f"trtlog parse --jobs {count}", parse, fresh=True)
    jsonl = [*TRTLOG, "parse", str(log), "--format", "jsonl", "--no-store", "--out", os.devnull]
    measure("trtlog parse --format jsonl", jsonl)
    slice_mb = min(GRAMMAR_SLICE, log.stat().st_size) / 1e6
    grammar = [sys.executable, "-c", GRAMMAR_SCRIPT, str(log), str(GRAMMAR_SLICE)]
    measure("grammar alone (first 20 MB)", grammar, slice_mb)
    layer = _a_layer(store)
    csv = ["--format", "csv", "--out", os.devnull]
    measure("query: tactics --layer (stored)", [*TRTLOG, "tactics", "--layer", layer, *csv], None)
    measure("query: tactics (stored)", [*TRTLOG, "tactics", *csv], None)
    # As a reader sees it: laid out as a table (written to a file, as wide as the table).
    table = ["--out", os.devnull]
    measure("query: tactics --layer, table", [*TRTLOG, "tactics", "--layer", layer, *table], None)
    shutil.rmtree(store, ignore_errors=True)
    return results


def _arguments() -> argparse.ArgumentParser:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--corpus", help="the corpus folder (default: $TRTLOG_CORPUS)")
    arguments.add_argument("--work", default="/tmp/trtlog-bench", help="generated logs, stores")
    arguments.add_argument("--sizes", default="100M,1G", help="comma-separated, e.g. 100M,1G")
    arguments.add_argument("--styles", default="10.x,8.x", help="comma-separated: 10.x, 8.x, 8.5")
    arguments.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="N for --jobs N")
    arguments.add_argument("--json", help="also write the figures to this JSON file")
    return arguments


def _generated(source: Path, target: Path, size: str) -> Path:
    if not target.exists():
        generate = [sys.executable, str(BENCH / "generate.py"), str(source), str(target)]
        subprocess.run([*generate, "--size", size], check=True)
    return target


def _read_through(path: Path) -> None:
    """Read a file to its end, so that the timings after find it in the page cache."""
    with path.open("rb") as stream:
        while stream.read(1 << 24):
            pass


def _a_layer(store: Path) -> str:
    """A layer the stored tactics table holds: the most tuned one of the first build."""
    import pandas as pd

    tables = next(folder for folder in store.iterdir() if folder.is_dir())
    choices = pd.read_parquet(tables / "choices.parquet", columns=["layer"])
    return str(choices["layer"].value_counts().index[0])


def run(command: list[str], env: dict[str, str], sample: bool = True) -> tuple[float, float, int]:
    """Wall seconds, peak MB of the process tree (``_TreeMemory``; with ``sample=False`` only
    the process's own peak resident size), and exit status of ``command``."""
    # Output goes to a file: GNU grep stops at the first match when it writes to /dev/null.
    output = tempfile.TemporaryFile()
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=output)
    sampler = _TreeMemory(process.pid, enabled=sample)
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    sampler.stop()
    output.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    # The child's own peak counts what it inherited at fork, before exec: used only where
    # /proc cannot be sampled.
    own_peak = usage.ru_maxrss / (1e6 if sys.platform == "darwin" else 1e3)
    return seconds, sampler.peak_mb or own_peak, process.returncode


class _TreeMemory(threading.Thread):
    """The largest sum of proportional set sizes over a process and its descendants (Linux)."""

    def __init__(self, pid: int, enabled: bool = True) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_mb, self.enabled = pid, 0.0, enabled
        self._done = threading.Event()

    def run(self) -> None:
        if not self.enabled or not Path("/proc/self/stat").exists():
            return
        while not self._done.wait(0.02):
            self.peak_mb = max(self.peak_mb, _tree_kb(self.pid) / 1e3)

    def stop(self) -> None:
        self._done.set()
        self.join()


_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


def _tree_kb(root: int) -> int:
    parents: dict[int, int] = {}
    resident: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the command name: state, ppid, ..., rss (pages) is the 22nd field after it.
        parents[int(entry.name)], resident[int(entry.name)] = int(fields[1]), int(fields[21])
    tree, grown = {root}, True
    while grown:
        descendants = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= descendants
        grown = bool(descendants)
    return sum(_proportional_kb(pid, resident.get(pid, 0)) for pid in tree)


def _proportional_kb(pid: int, resident_pages: int) -> int:
    """The process's proportional set size (Linux 4.14+), else its resident size."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return resident_pages * _PAGE_KB


def gauge() -> float:
    """Seconds the fixed loop of ``GAUGE_SCRIPT`` takes in a fresh Python process."""
    answer = subprocess.run(
        [sys.executable, "-c", GAUGE_SCRIPT], capture_output=True, text=True, check=True
    )
    return float(answer.stdout)


def scaling_gauge(processes: int, alone: float) -> float:
    """How many processes' work ``processes`` loops of ``GAUGE_SCRIPT`` run at once do in the
    time the loop takes ``alone``: ``processes`` where each core is a core of its own, less where
    the cores share a physical one or the host is busy."""
    started = [
        subprocess.Popen([sys.executable, "-c", GAUGE_SCRIPT], stdout=subprocess.PIPE, text=True)
        for _ in range(processes)
    ]
    # Every loop is waited for before any failure is raised, so that none is left running.
    outputs = [process.communicate()[0] for process in started]
    for process in started:
        if process.returncode != 0:
            raise subprocess.CalledProcessError(process.returncode, process.args)
    return processes * alone / max(float(output) for output in outputs)


def _machine() -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    processor = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                processor = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    build = _trtlog_build()
    return (
        f"{processor}, {cores} cores, Python {platform.python_version()}, {platform.system()}, "
        f"{build}"
    )


def _trtlog_build() -> str:
    """Where the native core these runs import comes from (an editable build or a wheel)."""
    check = "import trtlog._core as core; print(core.__file__)"
    answer = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, check=False
    ).stdout.strip()
    return f"trtlog native core {Path(answer).name}" if answer else "trtlog core missing"


def _row(result: Measurement) -> str:
    rate = f"{result.mb_per_s:8.1f} MB/s" if result.mb_per_s is not None else " " * 13
    return (
        f"{result.style:5} {result.size_mb:8.0f} MB  {result.task:34} {result.seconds:8.2f} s"
        f"  {rate}  peak {result.peak_mb:7.0f} MB"
        + ("" if result.status == 0 else f"  (exit {result.status})")
    )


if __name__ == "__main__":
    sys.exit(main())
