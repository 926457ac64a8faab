import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    state.update(None)
    yield pd.DataFrame({"k": [key[0]]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(fn, "k STRING", "n BIGINT", "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description: "GroupState.update(None / null) fails the batch (PySpark's CANNOT_BE_NONE; Scala's \"'null' is not a valid state value\").",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], _rows: any[], state: any) => {
        state.update(null);
        return [{ k: key[0] }];
      },
      "k STRING",
      "n BIGINT",
      "update",
      "NoTimeout",
    ),
  expectError: "CANNOT_BE_NONE",
});
