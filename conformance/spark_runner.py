#!/usr/bin/env python3
"""Runs conformance cases through real PySpark and writes what Spark produced.

Usage (with the venv from scripts/setup-pyspark.sh):

    python conformance/spark_runner.py [options] SOURCE... OUTDIR
    python conformance/spark_runner.py --all conformance/cases conformance/.cache/spark

SOURCE is a case spec JSON file (one spec or a JSON array of specs, as written by
export_cases.ts), a `.case.ts` file, or a directory (its `*.case.ts` files are exported through
node + tsx; a directory without any holds `*.json` specs). Many cases run in one JVM.

For each case, OUTDIR/<case id>/ receives:
    meta.json          status, error, Spark version, the cache hash, timings
    spec.json          the spec that was run
    schema.json        output columns [{name, type, nullable}] (type = Spark simpleString)
    batch_ids.json     ids of the foreachBatch calls, in call order
    batches/<id>.jsonl rows of each foreachBatch call, one canonical JSON object per line
    progress.jsonl     per executed batch: batchId, run, numInputRows, watermark, stateOperators
    progress_full.jsonl every StreamingQueryProgress JSON, with the run number
    console.txt        what the console sink printed (cases with `console`)

A case whose meta.json already carries the same hash (spec + this file + Spark version) is
skipped unless --force. Canonical values: see conformance/README.md ("Canonical row format").
"""

from __future__ import annotations

import argparse
import base64
import csv
import datetime as dt
import decimal
import glob
import hashlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback

os.environ["TZ"] = "UTC"
time.tzset()
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RUNNER_FORMAT = 1
MAX_SAFE_INT = 2**53 - 1
EPOCH = dt.datetime(1970, 1, 1)
ONE_MICRO = dt.timedelta(microseconds=1)


def log(msg: str) -> None:
    print(f"[spark_runner] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# Loading specs
# --------------------------------------------------------------------------------------------

def export_ts(paths: list[str]) -> list[dict]:
    cmd = ["node", "--import", "tsx", os.path.join(HERE, "export_cases.ts"), "--stdout", *paths]
    res = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"exporting cases failed ({' '.join(cmd)}):\n{res.stderr}")
    return json.loads(res.stdout)


def load_specs(sources: list[str]) -> list[dict]:
    specs: list[dict] = []
    ts_paths: list[str] = []
    for src in sources:
        if os.path.isdir(src):
            if glob.glob(os.path.join(src, "**", "*.case.ts"), recursive=True):
                ts_paths.append(src)
            else:
                for p in sorted(glob.glob(os.path.join(src, "**", "*.json"), recursive=True)):
                    specs.extend(_read_json_specs(p))
        elif src.endswith(".ts"):
            ts_paths.append(src)
        else:
            specs.extend(_read_json_specs(src))
    if ts_paths:
        specs.extend(export_ts(ts_paths))
    seen = set()
    out = []
    for s in specs:
        if s["id"] in seen:
            continue
        seen.add(s["id"])
        out.append(s)
    return out


def _read_json_specs(path: str) -> list[dict]:
    with open(path) as f:
        data = json.load(f)
    return data if isinstance(data, list) else [data]


def spark_relevant(spec: dict) -> dict:
    return {k: v for k, v in spec.items() if k not in ("description", "compare", "notes")}


def case_hash(spec: dict, spark_version: str) -> str:
    h = hashlib.sha256()
    h.update(json.dumps(spark_relevant(spec), sort_keys=True).encode())
    with open(os.path.abspath(__file__), "rb") as f:
        h.update(f.read())
    h.update(spark_version.encode())
    return h.hexdigest()[:20]


# --------------------------------------------------------------------------------------------
# Canonical values
# --------------------------------------------------------------------------------------------

def fmt_micros_dt(d: dt.datetime, zone: str) -> str:
    return (f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}:{d.second:02d}"
            f".{d.microsecond:06d}{zone}")


def canon(v, t):
    """Spark value (as PySpark collects it) -> canonical JSON value, directed by the Spark type."""
    from pyspark.sql import types as T

    if v is None:
        return None
    if isinstance(t, T.TimestampType):
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return fmt_micros_dt(v, "Z")
    if isinstance(t, T.TimestampNTZType):
        return fmt_micros_dt(v, "")
    if isinstance(t, T.DateType):
        return f"{v.year:04d}-{v.month:02d}-{v.day:02d}"
    if isinstance(t, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        v = int(v)
        return v if abs(v) <= MAX_SAFE_INT else str(v)
    if isinstance(t, (T.FloatType, T.DoubleType)):
        v = float(v)
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(t, T.DecimalType):
        return format(decimal.Decimal(v), "f")
    if isinstance(t, T.BooleanType):
        return bool(v)
    if isinstance(t, T.StringType):
        return str(v)
    if isinstance(t, T.BinaryType):
        return "base64:" + base64.b64encode(bytes(v)).decode()
    if isinstance(t, T.ArrayType):
        return [canon(x, t.elementType) for x in v]
    if isinstance(t, T.MapType):
        pairs = [[canon(k, t.keyType), canon(x, t.valueType)] for k, x in v.items()]
        pairs.sort(key=lambda p: json.dumps(p[0], sort_keys=True))
        return pairs
    if isinstance(t, T.StructType):
        return canon_row(v, t)
    if isinstance(t, T.DayTimeIntervalType):
        return v // ONE_MICRO
    if isinstance(t, T.YearMonthIntervalType):
        return int(v)
    return str(v)


def field_keys(schema) -> list[str]:
    keys, seen = [], {}
    for f in schema.fields:
        n = seen.get(f.name, 0) + 1
        seen[f.name] = n
        keys.append(f.name if n == 1 else f"{f.name}#{n}")
    return keys


def canon_row(row, schema) -> dict:
    keys = field_keys(schema)
    return {k: canon(row[i], f.dataType) for i, (k, f) in enumerate(zip(keys, schema.fields))}


def schema_json(schema) -> list[dict]:
    return [{"name": f.name, "type": f.dataType.simpleString(), "nullable": f.nullable} for f in schema.fields]


# --------------------------------------------------------------------------------------------
# Spark session
# --------------------------------------------------------------------------------------------

class SparkHost:
    def __init__(self, workroot: str):
        from pyspark import SparkConf, SparkContext
        from pyspark.java_gateway import launch_gateway
        from pyspark.sql import SparkSession

        self.stdout_path = os.path.join(workroot, "jvm-stdout.txt")
        self._stdout = open(self.stdout_path, "wb")
        conf = (
            SparkConf()
            .setMaster("local[1]")
            .setAppName("arus-conformance")
            .set("spark.sql.shuffle.partitions", "1")
            .set("spark.sql.session.timeZone", "UTC")
            .set("spark.ui.enabled", "false")
            .set("spark.ui.showConsoleProgress", "false")
            .set("spark.driver.memory", "1g")
            .set("spark.driver.host", "127.0.0.1")
            .set("spark.driver.bindAddress", "127.0.0.1")
            .set("spark.driver.extraJavaOptions", "-Duser.timezone=UTC")
            .set("spark.sql.streaming.noDataProgressEventInterval", "100000000")
            .set("spark.sql.warehouse.dir", os.path.join(workroot, "warehouse"))
        )
        gateway = launch_gateway(conf, popen_kwargs={"stdout": self._stdout})
        sc = SparkContext(conf=conf, gateway=gateway)
        sc.setLogLevel("ERROR")
        self.spark = SparkSession(sc)
        self.version = self.spark.version

    def stdout_mark(self) -> int:
        self.spark._jvm.System.out.flush()
        return os.path.getsize(self.stdout_path)

    def stdout_since(self, mark: int) -> str:
        self.spark._jvm.System.out.flush()
        with open(self.stdout_path, "rb") as f:
            f.seek(mark)
            return f.read().decode("utf-8", errors="replace")

    def stop(self) -> None:
        try:
            self.spark.stop()
        finally:
            self._stdout.close()


# --------------------------------------------------------------------------------------------
# Running one case
# --------------------------------------------------------------------------------------------

class CaseError(Exception):
    pass


def is_rate(inp: dict) -> bool:
    return "rateMicroBatch" in inp


def input_batches(inp: dict) -> list[str]:
    """File contents per batch for a file input."""
    if inp.get("files") is not None:
        return list(inp["files"])
    fmt = inp.get("format", "json")
    out = []
    for rows in inp["batches"]:
        if fmt == "json":
            out.append("".join(json.dumps(r) + "\n" for r in rows))
        elif fmt == "csv":
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\n")
            names = inp["_columns"]
            for r in rows:
                vals = r if isinstance(r, list) else [r.get(n) for n in names]
                w.writerow(["" if x is None else x for x in vals])
            out.append(buf.getvalue())
        else:
            raise CaseError(f"unsupported input format {fmt}")
    return out


def phase_bounds(spec: dict, n: int) -> list[tuple[int, int]]:
    cuts = sorted(set(int(x) for x in spec.get("restartAt") or []))
    pts = [0] + [c for c in cuts if 0 <= c <= n] + [n]
    return [(pts[i], pts[i + 1]) for i in range(len(pts) - 1)]


def error_info(e: BaseException) -> dict:
    import re

    msg = str(e)
    info = {"type": type(e).__name__, "message": msg[:6000]}
    # every error condition named in the message, outermost first (STREAM_FAILED, FOREACH_BATCH_..., DIVIDE_BY_ZERO)
    conds = []
    for c in re.findall(r"\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]", msg):
        if c not in conds:
            conds.append(c)
    info["conditions"] = conds
    for getter in ("getCondition", "getErrorClass"):
        fn = getattr(e, getter, None)
        if callable(fn):
            try:
                c = fn()
                if c:
                    info["condition"] = c
                    break
            except Exception:
                pass
    return info


def build_query(spark, spec: dict, dfs: list):
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    if spec.get("sql"):
        return spark.sql(spec["sql"])
    src = textwrap.dedent(spec["pyspark"]).strip()
    ns = {"spark": spark, "F": F, "T": T, "Window": Window}
    names = [i["name"] for i in spec["inputs"]]
    for n, d in zip(names, dfs):
        ns[n] = d
    ns["df"] = dfs[0]
    if "def build" in src:
        exec(compile(src, f"<{spec['id']}>", "exec"), ns)
        return ns["build"](spark, *dfs)
    return eval(compile("(" + src + "\n)", f"<{spec['id']}>", "eval"), ns)


def transform_batch(spec: dict, bdf):
    """The case's `batch` transform of a foreachBatch DataFrame (its own session: temp views live there)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    tr = spec["batch"]
    spark = bdf.sparkSession
    if tr.get("sql"):
        bdf.createOrReplaceTempView("batch")
        return spark.sql(tr["sql"])
    src = textwrap.dedent(tr["pyspark"]).strip()
    ns = {"spark": spark, "F": F, "T": T, "Window": Window, "df": bdf}
    if "def transform" in src:
        exec(compile(src, f"<{spec['id']} batch>", "exec"), ns)
        return ns["transform"](spark, bdf)
    return eval(compile("(" + src + "\n)", f"<{spec['id']} batch>", "eval"), ns)


def new_result() -> dict:
    return {"batches": {}, "batch_ids": [], "schema": None, "progress": [], "console": "", "phase": None}


def run_query(host: SparkHost, spec: dict, base: str, sink: str, result: dict) -> dict:
    """Runs the case's query with `sink` = 'foreachBatch' or 'console' through every restart phase.

    Fills `result` as it goes, so batches delivered before a failure are kept."""
    spark = host.spark
    inputs = spec["inputs"]
    rate = any(is_rate(i) for i in inputs)
    if rate and spec.get("restartAt"):
        raise CaseError("restartAt is not supported with rate-micro-batch inputs")
    limit = min((i["numBatches"] for i in inputs if is_rate(i)), default=None)

    contents = {}
    n = 0
    for inp in inputs:
        if is_rate(inp):
            continue
        contents[inp["name"]] = input_batches(inp)
        n = max(n, len(contents[inp["name"]]))
    phases = phase_bounds(spec, n) if not rate else [(0, 0)]
    ck = os.path.join(base, "checkpoint")
    mtime0 = time.time() - 100000

    def on_batch(bdf, bid):
        if limit is not None and bid >= limit:
            return
        if spec.get("batch"):
            bdf = transform_batch(spec, bdf)
        schema = bdf.schema
        if result["schema"] is None:
            result["schema"] = schema_json(schema)
        rows = bdf.collect()
        result["batches"][bid] = [canon_row(r, schema) for r in rows]
        result["batch_ids"].append(bid)

    for run, (lo, hi) in enumerate(phases):
        # write this phase's files
        for inp in inputs:
            if is_rate(inp):
                continue
            d = os.path.join(base, "in", inp["name"])
            os.makedirs(d, exist_ok=True)
            for i in range(lo, min(hi, len(contents[inp["name"]]))):
                ext = "csv" if inp.get("format") == "csv" else "json"
                p = os.path.join(d, f"part-{i:05d}.{ext}")
                with open(p, "w") as f:
                    f.write(contents[inp["name"]][i])
                os.utime(p, (mtime0 + i, mtime0 + i))
        result["phase"] = "build"
        dfs = []
        for inp in inputs:
            if is_rate(inp):
                r = spark.readStream.format("rate-micro-batch")
                for k, v in inp["rateMicroBatch"].items():
                    r = r.option(k, v)
                df = r.load()
            else:
                r = spark.readStream.format(inp.get("format", "json")).schema(inp["schema"])
                r = r.option("maxFilesPerTrigger", 1)
                for k, v in (inp.get("options") or {}).items():
                    r = r.option(k, v)
                df = r.load(os.path.join(base, "in", inp["name"]))
            wm = inp.get("watermark")
            if wm:
                df = df.withWatermark(wm["column"], wm["delay"])
            df.createOrReplaceTempView(inp["name"])
            dfs.append(df)
        res = build_query(spark, spec, dfs)
        w = res.writeStream.outputMode(spec["outputMode"]).option("checkpointLocation", ck)
        if sink == "console":
            c = spec["console"]
            tr = c["truncate"]
            w = w.format("console").option("numRows", c["numRows"]).option(
                "truncate", ("true" if tr else "false") if isinstance(tr, bool) else str(tr))
        else:
            w = w.foreachBatch(on_batch)
        if not rate:
            w = w.trigger(availableNow=True) if spec["trigger"] == "availableNow" else w.trigger(once=True)
        mark = host.stdout_mark()
        result["phase"] = "start"
        q = w.start()
        result["phase"] = "run"
        try:
            if rate:
                deadline = time.time() + 120
                while q.isActive and time.time() < deadline:
                    lp = q.lastProgress
                    if lp is not None and lp["batchId"] >= limit - 1:
                        break
                    time.sleep(0.05)
                q.stop()
                ex = q.exception()
                if ex is not None:
                    raise ex
            else:
                q.awaitTermination()
        finally:
            if q.isActive:
                q.stop()
            for p in q.recentProgress:
                j = json.loads(p.json)
                if limit is not None and j["batchId"] >= limit:
                    continue
                j["_run"] = run
                result["progress"].append(j)
            if sink == "console":
                result["console"] += host.stdout_since(mark)
    if sink == "console" and limit is not None:
        result["console"] = cut_console(result["console"], limit)
    return result


def cut_console(text: str, limit: int) -> str:
    """Drop console blocks of batches >= limit (rate inputs stop asynchronously)."""
    sep = "-------------------------------------------\nBatch: "
    parts = text.split(sep)
    keep = [parts[0]]
    for p in parts[1:]:
        bid = int(p.split("\n", 1)[0])
        if bid < limit:
            keep.append(p)
    return sep.join(keep)


def compact_progress(p: dict) -> dict:
    ops = []
    for s in p.get("stateOperators") or []:
        ops.append({
            "operatorName": s.get("operatorName"),
            "numRowsTotal": s.get("numRowsTotal"),
            "numRowsUpdated": s.get("numRowsUpdated"),
            "numRowsRemoved": s.get("numRowsRemoved"),
            "numRowsDroppedByWatermark": s.get("numRowsDroppedByWatermark"),
            "customMetrics": s.get("customMetrics", {}),
        })
    dur = p.get("durationMs") or {}
    return {
        "batchId": p["batchId"],
        "run": p.get("_run", 0),
        "idle": "addBatch" not in dur,
        "numInputRows": p.get("numInputRows"),
        "watermark": (p.get("eventTime") or {}).get("watermark"),
        "stateOperators": ops,
        "sinkNumOutputRows": (p.get("sink") or {}).get("numOutputRows"),
        "observedMetrics": p.get("observedMetrics") or None,
    }


def write_jsonl(path: str, items) -> None:
    with open(path, "w") as f:
        for it in items:
            f.write(json.dumps(it) + "\n")


def run_case(host: SparkHost, spec: dict, outdir: str, h: str, workroot: str, with_console: bool) -> dict:
    spark = host.spark
    tmp_out = outdir + ".tmp"
    shutil.rmtree(tmp_out, ignore_errors=True)
    os.makedirs(os.path.join(tmp_out, "batches"))
    work = tempfile.mkdtemp(prefix="case-", dir=workroot)
    t0 = time.time()
    meta = {"id": spec["id"], "hash": h, "sparkVersion": host.version, "runnerFormat": RUNNER_FORMAT,
            "status": "ok", "error": None}
    # csv inputs need the column order
    for inp in spec["inputs"]:
        if inp.get("format") == "csv" and inp.get("batches") is not None:
            from pyspark.sql.types import _parse_datatype_string
            inp["_columns"] = [f.name for f in _parse_datatype_string(inp["schema"]).fields]
    set_confs = []
    try:
        for k, v in (spec.get("confs") or {}).items():
            spark.conf.set(k, str(v))
            set_confs.append(k)
        res = new_result()
        try:
            run_query(host, spec, os.path.join(work, "main"), "foreachBatch", res)
        except CaseError:
            raise
        except Exception as e:  # Spark refused or failed the query
            meta["error"] = error_info(e)
            meta["error"]["phase"] = res["phase"]
        for bid, rows in res["batches"].items():
            write_jsonl(os.path.join(tmp_out, "batches", f"{bid}.jsonl"), rows)
        with open(os.path.join(tmp_out, "batch_ids.json"), "w") as f:
            json.dump(res["batch_ids"], f)
        with open(os.path.join(tmp_out, "schema.json"), "w") as f:
            json.dump(res["schema"], f, indent=1)
        write_jsonl(os.path.join(tmp_out, "progress.jsonl"), [compact_progress(p) for p in res["progress"]])
        write_jsonl(os.path.join(tmp_out, "progress_full.jsonl"), res["progress"])
        if spec.get("console") and with_console and meta["error"] is None:
            cres = new_result()
            try:
                run_query(host, spec, os.path.join(work, "console"), "console", cres)
                with open(os.path.join(tmp_out, "console.txt"), "w") as f:
                    f.write(cres["console"])
            except Exception as e:
                meta["error"] = error_info(e)
                meta["error"]["phase"] = cres["phase"]
                meta["errorIn"] = "console run"
        expect = spec.get("expectError")
        if expect:
            if meta["error"] is None:
                meta["status"] = "unexpected-success"
            elif expect.lower() in meta["error"]["message"].lower() or expect in meta["error"].get("conditions", []):
                meta["status"] = "expected-error"
            else:
                meta["status"] = "wrong-error"
        elif meta["error"] is not None:
            meta["status"] = "error"
    except Exception as e:
        meta["status"] = "runner-error"
        meta["error"] = error_info(e)
        meta["traceback"] = traceback.format_exc()
    finally:
        for k in set_confs:
            try:
                spark.conf.unset(k)
            except Exception:
                pass
        for inp in spec["inputs"]:
            try:
                spark.catalog.dropTempView(inp["name"])
            except Exception:
                pass
        for q in spark.streams.active:
            try:
                q.stop()
            except Exception:
                pass
        shutil.rmtree(work, ignore_errors=True)
    meta["durationSec"] = round(time.time() - t0, 2)
    spec_out = {k: v for k, v in spec.items()}
    spec_out["inputs"] = [{k: v for k, v in i.items() if not k.startswith("_")} for i in spec["inputs"]]
    with open(os.path.join(tmp_out, "spec.json"), "w") as f:
        json.dump(spec_out, f, indent=1)
    with open(os.path.join(tmp_out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    shutil.rmtree(outdir, ignore_errors=True)
    os.rename(tmp_out, outdir)
    return meta


def prune(outroot: str, keep: set) -> None:
    for meta_p in glob.glob(os.path.join(outroot, "**", "meta.json"), recursive=True):
        d = os.path.dirname(meta_p)
        cid = os.path.relpath(d, outroot).replace(os.sep, "/")
        if cid not in keep:
            shutil.rmtree(d, ignore_errors=True)
            log(f"pruned stale result {cid}")


def pyspark_version() -> str:
    import pyspark
    return pyspark.__version__


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="SOURCE... OUTDIR")
    ap.add_argument("--all", action="store_true", help="accepted for symmetry; a directory SOURCE means all its cases")
    ap.add_argument("--force", action="store_true", help="rerun cases even when the cache is current")
    ap.add_argument("--filter", action="append", default=[], help="only ids containing this substring (repeatable)")
    ap.add_argument("--no-console", action="store_true", help="skip the console-sink runs")
    ap.add_argument("--prune", action="store_true", help="delete results in OUTDIR of cases that no longer exist")
    args = ap.parse_args(argv)
    if len(args.paths) < 2:
        ap.error("need at least one SOURCE and an OUTDIR")
    *sources, outroot = args.paths
    specs = load_specs(sources)
    if args.filter:
        specs = [s for s in specs if any(f in s["id"] for f in args.filter)]
    version = pyspark_version()
    if args.prune and not args.filter:
        prune(outroot, {s["id"] for s in specs})
    todo = []
    for s in specs:
        h = case_hash(s, version)
        meta_p = os.path.join(outroot, s["id"], "meta.json")
        if not args.force and os.path.exists(meta_p):
            try:
                with open(meta_p) as f:
                    if json.load(f).get("hash") == h:
                        continue
            except Exception:
                pass
        todo.append((s, h))
    log(f"pyspark {version}: {len(specs)} case(s), {len(specs) - len(todo)} cached, {len(todo)} to run")
    if not todo:
        return 0
    workroot = tempfile.mkdtemp(prefix="arus-spark-runner-")
    host = None
    failures = 0
    try:
        t0 = time.time()
        host = SparkHost(workroot)
        log(f"JVM up in {time.time() - t0:.1f}s")
        for i, (s, h) in enumerate(todo, 1):
            outdir = os.path.join(outroot, s["id"])
            os.makedirs(os.path.dirname(outdir), exist_ok=True)
            meta = run_case(host, s, outdir, h, workroot, not args.no_console)
            bad = meta["status"] in ("runner-error", "unexpected-success", "wrong-error")
            failures += bad
            extra = ""
            if meta["error"]:
                extra = f" [{meta['error'].get('condition') or meta['error']['type']}: {meta['error']['message'].splitlines()[0][:160]}]"
            log(f"({i}/{len(todo)}) {s['id']}: {meta['status']} in {meta['durationSec']}s{extra}")
    finally:
        if host is not None:
            host.stop()
        shutil.rmtree(workroot, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
