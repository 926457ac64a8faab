import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    yield pd.DataFrame({"k": [key[0]]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(fn, "k STRING", "n BIGINT", "Update", GroupStateTimeout.EventTimeTimeout)
`;

export default defineCase({
  description:
    "EventTimeTimeout without withWatermark is refused at start() ('Watermark must be specified in the query using [Dataset/DataFrame].withWatermark() for using event-time timeout in a applyInPandasWithState').",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: "2024-01-01T00:00:01.000000Z" }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState((key: unknown[]) => [{ k: key[0] }], "k STRING", "n BIGINT", "update", "EventTimeTimeout"),
  expectError: "Watermark must be specified",
});
