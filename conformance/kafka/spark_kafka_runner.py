#!/usr/bin/env python3
"""Runs the Kafka differential cases through real PySpark with Spark's Kafka connector.

Usage (venv from scripts/setup-pyspark.sh, jars from scripts/spark-kafka-jars.sh):

    python conformance/kafka/spark_kafka_runner.py SPECS.json OUTDIR JARS

SPECS.json is the list written by conformance/kafka/run.ts (topics already produced). All cases
run in one JVM. For each case, OUTDIR/<case id>/ receives the layout of spark_runner.py
(meta.json, schema.json, batch_ids.json, batches/<id>.jsonl, progress.jsonl,
progress_full.jsonl) plus:
    sources.jsonl      per progress entry: batchId, startOffset, endOffset, latestOffset
    offsets.jsonl      per checkpoint offsets/N file: batchId, batchWatermarkMs, the source JSON line
    readback/<which>/  sink cases: rows.jsonl and schema.json of each output topic read back
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from spark_runner import canon_row, compact_progress, error_info, schema_json, write_jsonl  # noqa: E402

os.environ["TZ"] = "UTC"
time.tzset()
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

READBACK_COLUMNS = ["key", "value", "partition", "offset", "timestampType", "headers"]


def log(msg: str) -> None:
    print(f"[spark_kafka_runner] {msg}", file=sys.stderr, flush=True)


def session(jars: str, workroot: str):
    from pyspark.sql import SparkSession

    return (
        SparkSession.builder.master("local[1]")
        .appName("arus-kafka-conformance")
        .config("spark.jars", jars)
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "1g")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.extraJavaOptions", "-Duser.timezone=UTC")
        .config("spark.sql.streaming.noDataProgressEventInterval", "100000000")
        .config("spark.sql.warehouse.dir", os.path.join(workroot, "warehouse"))
        .getOrCreate()
    )


def checkpoint_offsets(ck: str) -> list[dict]:
    d = os.path.join(ck, "offsets")
    out = []
    for f in sorted((x for x in os.listdir(d) if x.isdigit()), key=int) if os.path.isdir(d) else []:
        with open(os.path.join(d, f)) as fh:
            lines = fh.read().split("\n")
        out.append({"batchId": int(f), "batchWatermarkMs": json.loads(lines[1]).get("batchWatermarkMs"), "source": lines[2]})
    return out


def read_back(spark, bootstrap: str, topic: str, outdir: str) -> None:
    df = (spark.read.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic)
          .option("includeHeaders", "true").load().select(*READBACK_COLUMNS))
    os.makedirs(outdir, exist_ok=True)
    rows = [canon_row(r, df.schema) for r in df.collect()]
    write_jsonl(os.path.join(outdir, "rows.jsonl"), rows)
    with open(os.path.join(outdir, "schema.json"), "w") as f:
        json.dump(schema_json(df.schema), f, indent=1)


def run_case(spark, spec: dict, outdir: str, workroot: str) -> dict:
    from pyspark.sql import functions as F

    tmp = outdir + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "batches"))
    work = tempfile.mkdtemp(prefix="kcase-", dir=workroot)
    ck = os.path.join(work, "checkpoint")
    t0 = time.time()
    meta = {"id": spec["id"], "sparkVersion": spark.version, "status": "ok", "error": None}
    res = {"batches": {}, "batch_ids": [], "schema": None}
    progress = []

    def on_batch(bdf, bid):
        schema = bdf.schema
        if res["schema"] is None:
            res["schema"] = schema_json(schema)
        res["batches"][bid] = [canon_row(r, schema) for r in bdf.collect()]
        res["batch_ids"].append(bid)

    try:
        r = spark.readStream.format("kafka").option("kafka.bootstrap.servers", spec["bootstrap"])
        if "assign" not in spec["options"] and "subscribePattern" not in spec["options"]:
            r = r.option("subscribe", spec["topic"])
        for k, v in spec["options"].items():
            r = r.option(k, v)
        df = r.load()
        q = eval(compile("(" + spec["pyspark"] + "\n)", f"<{spec['id']}>", "eval"), {"df": df, "F": F, "spark": spark})
        w = q.writeStream.outputMode(spec["outputMode"]).option("checkpointLocation", ck).trigger(availableNow=True)
        sinks = spec.get("sinkTopics")
        if sinks:
            res["schema"] = schema_json(q.schema)
            w = w.format("kafka").option("kafka.bootstrap.servers", spec["bootstrap"]).option("topic", sinks["spark"])
        else:
            w = w.foreachBatch(on_batch)
        sq = w.start()
        try:
            sq.awaitTermination()
        finally:
            progress = [json.loads(p.json) for p in sq.recentProgress]
        if sinks:
            for which in ("spark", "arus"):
                read_back(spark, spec["bootstrap"], sinks[which], os.path.join(tmp, "readback", which))
    except Exception as e:  # noqa: BLE001 - recorded in meta.json
        meta["status"] = "error"
        meta["error"] = error_info(e)
        meta["traceback"] = traceback.format_exc()
    expect = spec.get("expectError")
    if expect:
        # as spark_runner.py: the case says the query must fail, and with which message
        if meta.get("error") is None:
            meta["status"] = "unexpected-success"
        elif expect.lower() in meta["error"]["message"].lower():
            meta["status"] = "expected-error"
        else:
            meta["status"] = "wrong-error"
    for bid, rows in res["batches"].items():
        write_jsonl(os.path.join(tmp, "batches", f"{bid}.jsonl"), rows)
    with open(os.path.join(tmp, "batch_ids.json"), "w") as f:
        json.dump(res["batch_ids"], f)
    with open(os.path.join(tmp, "schema.json"), "w") as f:
        json.dump(res["schema"], f, indent=1)
    write_jsonl(os.path.join(tmp, "progress.jsonl"), [compact_progress(p) for p in progress])
    write_jsonl(os.path.join(tmp, "progress_full.jsonl"), progress)
    write_jsonl(os.path.join(tmp, "sources.jsonl"), [
        {"batchId": p["batchId"], **{k: s.get(k) for k in ("startOffset", "endOffset", "latestOffset")}}
        for p in progress for s in p.get("sources", [])[:1]
    ])
    write_jsonl(os.path.join(tmp, "offsets.jsonl"), checkpoint_offsets(ck))
    meta["durationSec"] = round(time.time() - t0, 2)
    with open(os.path.join(tmp, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(outdir, ignore_errors=True)
    os.rename(tmp, outdir)
    return meta


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    specs_path, outroot, jars = argv
    with open(specs_path) as f:
        specs = json.load(f)
    workroot = tempfile.mkdtemp(prefix="arus-spark-kafka-")
    t0 = time.time()
    spark = session(jars, workroot)
    spark.sparkContext.setLogLevel("ERROR")
    log(f"pyspark {spark.version} with Kafka connector: JVM up in {time.time() - t0:.1f}s, {len(specs)} case(s)")
    try:
        for s in specs:
            outdir = os.path.join(outroot, s["id"])
            os.makedirs(os.path.dirname(outdir), exist_ok=True)
            meta = run_case(spark, s, outdir, workroot)
            extra = f" [{meta['error']['message'].splitlines()[0][:200]}]" if meta["error"] else ""
            log(f"{s['id']}: {meta['status']} in {meta['durationSec']}s{extra}")
    finally:
        spark.stop()
        shutil.rmtree(workroot, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
