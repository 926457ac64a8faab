#!/usr/bin/env python3
"""The PySpark side of bench/kafka.ts: Kafka -> from_json -> windowed count -> Kafka sink, in
local[2] with Spark's Kafka connector (jars from scripts/spark-kafka-jars.sh via spark.jars).

    python bench/pyspark/kafka.py --bootstrap HOST:PORT --jars JAR,JAR,...

Driven by bench/kafka.ts over stdin/stdout, one JSON object per line each way:
  {"cmd": "throughput", "topic": T, "out": O, "maxOffsets": N}
      availableNow over the whole topic; answers wallS, engineS (sum of triggerExecution), cpuS
      (JVM + this process, user + system), inputRows, batches
  {"cmd": "latency-start", "topic": T, "out": O}   the same query, default trigger; answers "started"
  {"cmd": "latency-stop"}                          stops it; answers cpuS and batches since start
  {"cmd": "exit"}
The query is the one in bench/kafka.ts (QUERY_DOC there), with the same settings as
bench/pyspark/run.py: shuffle partitions 2, UTC, the default state store, Spark UI off.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

os.environ["TZ"] = "UTC"
time.tzset()
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import load_average, proc_cpu_seconds, self_cpu_seconds  # noqa: E402

SCHEMA = "seq BIGINT, k STRING, ts TIMESTAMP"


def log(msg: str) -> None:
    print(f"[pyspark-kafka-bench] {msg}", file=sys.stderr, flush=True)


def say(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def new_session(jars: str):
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("arus-bench-pyspark-kafka")
        .config("spark.jars", jars)
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.memory", "2g")
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


def query(spark, bootstrap: str, topic: str, out: str, ckpt: str, max_offsets: int | None):
    from pyspark.sql import functions as F

    r = (spark.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap)
         .option("subscribe", topic).option("startingOffsets", "earliest"))
    if max_offsets:
        r = r.option("maxOffsetsPerTrigger", max_offsets)
    counts = (r.load()
              .select(F.from_json(F.col("value").cast("string"), SCHEMA).alias("e")).select("e.*")
              .withWatermark("ts", "4 seconds")
              .groupBy(F.window("ts", "1 second"), "k")
              .agg(F.count("*").alias("n"), F.max("seq").alias("max_seq")))
    return (counts.select(F.col("k").cast("binary").alias("key"), F.to_json(F.struct("window", "k", "n", "max_seq")).alias("value"))
            .writeStream.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", out)
            .outputMode("update").option("checkpointLocation", ckpt))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--jars", required=True)
    args = ap.parse_args()
    t0 = time.perf_counter()
    spark = new_session(args.jars)
    jvm = int(spark._jvm.java.lang.ProcessHandle.current().pid())
    cpu = lambda: proc_cpu_seconds(jvm) + self_cpu_seconds()  # noqa: E731
    say({"engine": "pyspark", "startupS": time.perf_counter() - t0, "version": spark.version})
    running = None
    for line in sys.stdin:
        cmd = json.loads(line)
        c = cmd["cmd"]
        if c == "exit":
            break
        if c == "throughput":
            ckpt = tempfile.mkdtemp(prefix="pyspark-kafka-bench-")
            load = load_average()
            c0, w0 = cpu(), time.perf_counter()
            q = query(spark, args.bootstrap, cmd["topic"], cmd["out"], ckpt, cmd.get("maxOffsets")).trigger(availableNow=True).start()
            q.awaitTermination()
            wall, used = time.perf_counter() - w0, cpu() - c0
            prog = [json.loads(p.json) for p in q.recentProgress]
            shutil.rmtree(ckpt, ignore_errors=True)
            say({"done": "throughput", "wallS": wall, "cpuS": used, "load": load,
                 "inputRows": sum(p["numInputRows"] for p in prog), "batches": len(prog),
                 "engineS": sum(p["durationMs"].get("triggerExecution", 0) for p in prog) / 1000})
        elif c == "latency-start":
            ckpt = tempfile.mkdtemp(prefix="pyspark-kafka-latency-")
            q = query(spark, args.bootstrap, cmd["topic"], cmd["out"], ckpt, None).start()
            running = (q, ckpt, cpu())
            say({"done": "latency-start"})
        elif c == "latency-stop":
            q, ckpt, c0 = running
            used = cpu() - c0
            n = len(q.recentProgress)
            q.stop()
            shutil.rmtree(ckpt, ignore_errors=True)
            say({"done": "latency-stop", "cpuS": used, "batches": n})
        log(f"{c} done")
    spark.stop()


if __name__ == "__main__":
    main()
