"""transformWithState benchmark on PySpark (not a test): the RunningCount processor of
bench/tws.ts over the same keys, rows per batch and batches, read from JSON-lines files (one
file per batch, maxFilesPerTrigger 1) with the RocksDB state store and 1 shuffle partition.

    ~/.cache/arus/pyspark-venv/bin/python bench/pyspark/tws.py [--keys 1000000] [--rows-per-batch 1000000] [--batches 3]
"""
import argparse, json, os, sys, tempfile, time

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
from pyspark.sql import Row, SparkSession
from pyspark.sql.streaming import StatefulProcessor

p = argparse.ArgumentParser()
p.add_argument("--keys", type=int, default=1_000_000)
p.add_argument("--rows-per-batch", type=int, default=1_000_000)
p.add_argument("--batches", type=int, default=3)
a = p.parse_args()


class RunningCount(StatefulProcessor):
    def init(self, handle):
        self.count = handle.getValueState("count", "value BIGINT")

    def handleInputRows(self, key, rows, timerValues):
        n = (self.count.get()[0] if self.count.exists() else 0) + sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(k=key[0], count=n)

    def close(self):
        pass


spark = (SparkSession.builder.master("local[1]").config("spark.sql.shuffle.partitions", "1")
         .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
         .config("spark.sql.streaming.stateStore.providerClass",
                 "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider")
         .getOrCreate())
base = tempfile.mkdtemp(prefix="arus-bench-tws-")
inp = os.path.join(base, "in")
os.makedirs(inp)
for b in range(a.batches):
    with open(os.path.join(inp, f"part-{b:05d}.json"), "w") as f:
        for i in range(a.rows_per_batch):
            f.write('{"k":%d}\n' % ((b * a.rows_per_batch + i) % a.keys))
df = spark.readStream.format("json").schema("k BIGINT").option("maxFilesPerTrigger", 1).load(inp)
q = (df.groupBy("k").transformWithState(RunningCount(), "k BIGINT, count BIGINT", "Update", "None")
     .writeStream.format("noop").outputMode("update").trigger(availableNow=True)
     .option("checkpointLocation", os.path.join(base, "ck")).start())
t0 = time.time()
q.awaitTermination()
wall = time.time() - t0
prog = [p for p in q.recentProgress if p["numInputRows"] > 0]
print(json.dumps({
    "engine": "pyspark", "keys": a.keys, "rowsPerBatch": a.rows_per_batch,
    "batches": [{"batch": p["batchId"], "rows": p["numInputRows"], "ms": p["batchDuration"],
                 "rowsPerSec": round(p["numInputRows"] / (p["batchDuration"] / 1000))} for p in prog],
    "stateMemoryBytes": prog[-1]["stateOperators"][0]["memoryUsedBytes"] if prog else None,
    "wallSeconds": round(wall, 1), "loadavg": [round(x, 2) for x in os.getloadavg()],
}))
spark.stop()
