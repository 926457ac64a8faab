#!/usr/bin/env python3
"""Runs the comparison queries in PySpark (local[2]), one after the other in one JVM, and prints
one JSON object per query on stdout with the same fields as bench/arus/run.ts.

    $HOME/.cache/arus/pyspark-venv/bin/python bench/pyspark/run.py --data bench/data/out/quick \
        [--queries q0,q5] [--max-files 1] [--no-checksum]

Per query:
  1. timed run: file source -> query -> noop sink, trigger availableNow. Figures: wallS
     (start() -> the query ends by itself), engineS (sum of durationMs.triggerExecution over the
     progress events), cpuS (JVM + this Python process, user + system, from /proc/<pid>/stat and
     getrusage(RUSAGE_SELF)), peakRssBytes (VmHWM of the JVM + of Python, both reset through
     /proc/<pid>/clear_refs before the run), inputRows, batches.
  2. checksum run (separate, not timed): the same query with a fresh checkpoint and a
     foreachBatch sink that collect()s every output row; rows are canonicalized and hashed as in
     bench/pyspark/canonical.py -> outputRows, checksum.
A warm-up run of q2 over the first bid file (not reported) loads the JVM's classes first.

Settings (both engines): local[2], spark.sql.shuffle.partitions=2, session time zone UTC, the
default (HDFS-backed) state store, driver memory 2g, Spark UI off.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time

os.environ["TZ"] = "UTC"
time.tzset()
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from canonical import Checksum  # noqa: E402
from queries import QUERIES, QueryContext, query_by_name  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(msg: str) -> None:
    print(f"[pyspark-bench] {msg}", file=sys.stderr, flush=True)


def proc_cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        # Fields after the command name (which may hold spaces) start after the last ')'.
        rest = f.read().rsplit(")", 1)[1].split()
    return (int(rest[11]) + int(rest[12])) / CLK_TCK  # utime, stime (fields 14, 15)


def self_cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def reset_peak(pid: int) -> None:
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def load_average() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def new_session(driver_memory: str, master: str = "local[2]"):
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(master)
        .appName("arus-bench-pyspark")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.memory", driver_memory)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.extraJavaOptions", "-Duser.timezone=UTC")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.streaming.numRecentProgressUpdates", "100000")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def data_format(data: str) -> str:
    """The data directory's format, from its manifest (bench/data/parquet.ts marks Parquet copies)."""
    try:
        with open(os.path.join(data, "manifest.json")) as f:
            return json.load(f).get("format", "json")
    except OSError:
        return "json"


def progress_fields(p) -> tuple[int, float]:
    if isinstance(p, dict):
        return int(p["numInputRows"]), float(p.get("durationMs", {}).get("triggerExecution", 0))
    return int(p.numInputRows), float((p.durationMs or {}).get("triggerExecution", 0))


def run_once(spark, q, data: str, max_files: int, sink) -> tuple[list, float]:
    ckpt = tempfile.mkdtemp(prefix=f"pyspark-bench-{q.name}-")
    try:
        df = q.build(QueryContext(spark, data, max_files, data_format(data)))
        t0 = time.perf_counter()
        query = sink(df.writeStream).outputMode(q.output_mode).trigger(availableNow=True).option("checkpointLocation", ckpt).start()
        query.awaitTermination()
        wall = time.perf_counter() - t0
        exc = query.exception()
        if exc is not None:
            raise RuntimeError(str(exc))
        return list(query.recentProgress), wall
    finally:
        shutil.rmtree(ckpt, ignore_errors=True)


def run_query(spark, jvm_pid: int, q, data: str, max_files: int, checksum: bool) -> dict:
    load = load_average()
    reset_peak(jvm_pid)
    reset_peak(os.getpid())
    cpu0 = proc_cpu_seconds(jvm_pid) + self_cpu_seconds()
    progress, wall = run_once(spark, q, data, max_files, lambda w: w.format("noop"))
    cpu = proc_cpu_seconds(jvm_pid) + self_cpu_seconds() - cpu0
    peak = peak_rss(jvm_pid) + peak_rss(os.getpid())
    fields = [progress_fields(p) for p in progress]
    result = {
        "engine": "pyspark",
        "query": q.name,
        "title": q.title,
        "inputRows": sum(n for n, _ in fields),
        "batches": len(fields),
        "wallS": wall,
        "engineS": sum(ms for _, ms in fields) / 1000,
        "cpuS": cpu,
        "peakRssBytes": peak,
        "outputRows": None,
        "checksum": None,
        "checksumS": None,
        "load": load,
    }
    if checksum:
        t = time.perf_counter()
        acc = Checksum()

        def collect(batch_df, _batch_id):
            acc.add_rows(batch_df.collect(), batch_df.schema)

        run_once(spark, q, data, max_files, lambda w: w.foreachBatch(collect))
        result["outputRows"] = acc.rows
        result["checksum"] = acc.digest()
        result["checksumS"] = time.perf_counter() - t
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(HERE, "..", "data", "out", "quick"))
    ap.add_argument("--queries", default=",".join(q.name for q in QUERIES))
    ap.add_argument("--max-files", type=int, default=1)
    ap.add_argument("--no-checksum", action="store_true")
    ap.add_argument("--no-warmup", action="store_true")
    ap.add_argument("--driver-memory", default="2g")
    # local[1] under `taskset -c 0` against local[2]: Spark's own scaling on a machine (bench/RESULTS.md)
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args()
    data = os.path.abspath(args.data)

    t0 = time.perf_counter()
    spark = new_session(args.driver_memory, args.master)
    jvm_pid = int(spark._jvm.java.lang.ProcessHandle.current().pid())
    startup = time.perf_counter() - t0
    log(f"Spark {spark.version} up in {startup:.1f} s (JVM pid {jvm_pid})")
    print(json.dumps({"engine": "pyspark", "startupS": startup, "version": spark.version}), flush=True)

    if not args.no_warmup:
        warm = tempfile.mkdtemp(prefix="pyspark-bench-warm-")
        os.makedirs(os.path.join(warm, "nexmark", "bid"))
        os.symlink(os.path.join(data, "nexmark", "bid", "part-00000.jsonl"), os.path.join(warm, "nexmark", "bid", "part-00000.jsonl"))
        run_once(spark, query_by_name("q2"), warm, 1, lambda w: w.format("noop"))
        shutil.rmtree(warm, ignore_errors=True)
        log(f"warm-up done at {time.perf_counter() - t0:.1f} s")

    for name in args.queries.split(","):
        r = run_query(spark, jvm_pid, query_by_name(name), data, args.max_files, not args.no_checksum)
        log(f"{name}: {r['inputRows']} rows, wall {r['wallS']:.2f} s, checksum run {r['checksumS'] or 0:.2f} s")
        print(json.dumps(r), flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
