"""PySpark's side of the function sweep (conformance/functions/sweep.ts): for each expression in
the cases file, its type and value as text, or its error class; written as JSON."""
import json
import re
import sys

from pyspark.sql import SparkSession

cases_path, out_path = sys.argv[1], sys.argv[2]
spark = (
    SparkSession.builder.master("local[1]")
    .config("spark.log.level", "OFF")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("OFF")
out = {}
for e in json.load(open(cases_path)):
    try:
        r = spark.sql(f"SELECT typeof({e}) AS t, CAST({e} AS STRING) AS v").collect()[0]
        out[e] = ["ok", r.t, r.v]
    except Exception as ex:  # noqa: BLE001 - every failure is a result here
        m = re.search(r"\[([A-Z_]+(?:\.[A-Z_]+)?)\]", str(ex))
        out[e] = ["err", m.group(1) if m else str(ex).split("\n")[0][:120]]
json.dump(out, open(out_path, "w"))
