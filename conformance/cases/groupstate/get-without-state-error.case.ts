import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    if key[0] == "b":
        n = state.get[0]
    state.update((1,))
    yield pd.DataFrame({"k": [key[0]]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(fn, "k STRING", "n BIGINT", "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "GroupState.get on a key with no state fails the batch (PySpark's STATE_NOT_EXISTS); batch 0 (state.get not reached) is delivered first.",
  input: { schema: "k STRING", batches: [[{ k: "a" }], [{ k: "b" }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], _rows: any[], state: any) => {
        if (key[0] === "b") void state.get.n;
        state.update({ n: 1 });
        return [{ k: key[0] }];
      },
      "k STRING",
      "n BIGINT",
      "update",
      "NoTimeout",
    ),
  expectError: "STATE_NOT_EXISTS",
});
