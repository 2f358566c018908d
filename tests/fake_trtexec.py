"""A stand-in for trtexec on machines without a GPU: it takes trtexec's arguments, replays a
real trtexec log line by line with short pauses, and writes the files it was asked for.

Driven by environment variables:
  FAKE_TRTEXEC_LOG      the log to replay (a corpus log)
  FAKE_TRTEXEC_DELAY    seconds between lines (default 0)
  FAKE_TRTEXEC_MODE     ok (default), fail, crash, ignore-term
  FAKE_TRTEXEC_STOP     for fail and crash: the number of lines written before failing
  FAKE_TRTEXEC_RECORD   a file that holds, at every moment, how many lines were written
  FAKE_TRTEXEC_ARGV     a file to write the arguments received to (JSON)
  FAKE_TRTEXEC_OPTIONS  comma-separated options --help lists (default: those of 10.x)
  FAKE_TRTEXEC_LAYERS, _PROFILE, _TIMES   JSON files to copy to the requested exports
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time

OPTIONS_10X = (
    "--onnx,--loadEngine,--saveEngine,--verbose,--profilingVerbosity,--timingCacheFile,"
    "--exportLayerInfo,--exportProfile,--exportTimes,--fp16,--int8,--shapes,--minShapes,"
    "--optShapes,--maxShapes,--memPoolSize,--skipInference,--dumpProfile"
)
VERSION = "101601"


def main() -> int:
    arguments = sys.argv[1:]
    if "--help" in arguments or "-h" in arguments:
        print(f"&&&& RUNNING TensorRT.trtexec [TensorRT v{VERSION}] # trtexec --help")
        for option in os.environ.get("FAKE_TRTEXEC_OPTIONS", OPTIONS_10X).split(","):
            print(f"  {option}=<value>   an option")
        return 0
    if path := os.environ.get("FAKE_TRTEXEC_ARGV"):
        with open(path, "w") as stream:
            json.dump(arguments, stream)
    values = dict(argument.split("=", 1) for argument in arguments if "=" in argument)
    mode = os.environ.get("FAKE_TRTEXEC_MODE", "ok")
    if mode == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    stop = int(os.environ.get("FAKE_TRTEXEC_STOP", "0")) or None
    delay = float(os.environ.get("FAKE_TRTEXEC_DELAY", "0"))
    record_path = os.environ.get("FAKE_TRTEXEC_RECORD")
    record = open(record_path, "w") if record_path else None
    out = sys.stdout.buffer
    written = 0
    with open(os.environ["FAKE_TRTEXEC_LOG"], "rb") as log:
        for raw in log:
            if stop is not None and written >= stop and mode in ("fail", "crash"):
                break
            out.write(raw)
            out.flush()
            written += 1
            if record is not None:
                record.seek(0)
                record.write(f"{written}\n")
                record.flush()
            if delay:
                time.sleep(delay)
    if mode == "crash":
        os.abort()
    if mode == "fail":
        sys.stderr.write(
            "[11/22/2026-10:00:00] [E] Error[4]: [network.cpp::validate::3100] Error Code 4: Internal Error (fake failure)\n"
        )
        sys.stderr.flush()
        out.write(f"&&&& FAILED TensorRT.trtexec [TensorRT v{VERSION}] # trtexec\n".encode())
        return 1
    for option, variable in (
        ("--exportLayerInfo", "FAKE_TRTEXEC_LAYERS"),
        ("--exportProfile", "FAKE_TRTEXEC_PROFILE"),
        ("--exportTimes", "FAKE_TRTEXEC_TIMES"),
    ):
        source = os.environ.get(variable)
        if option in values and source:
            shutil.copyfile(source, values[option])
    if "--saveEngine" in values:
        with open(values["--saveEngine"], "wb") as engine:
            engine.write(b"not a real engine")
    if "--timingCacheFile" in values:
        with open(values["--timingCacheFile"], "wb") as cache:
            cache.write(b"not a real timing cache")
    return 0


if __name__ == "__main__":
    sys.exit(main())
