import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    state.update((1,))
    state.setTimeoutTimestamp(1704067200000)
    yield pd.DataFrame({"k": [key[0]]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(fn, "k STRING", "n BIGINT", "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "NoTimeout: GroupState.setTimeoutTimestamp fails the batch (PySpark raises CANNOT_WITHOUT, whose message PySpark words as 'set timeout duration without enabling processing time timeout').",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], _rows: any[], state: any) => {
        state.update({ n: 1 });
        state.setTimeoutTimestamp(1704067200000);
        return [{ k: key[0] }];
      },
      "k STRING",
      "n BIGINT",
      "update",
      "NoTimeout",
    ),
  expectError: "CANNOT_WITHOUT",
});
