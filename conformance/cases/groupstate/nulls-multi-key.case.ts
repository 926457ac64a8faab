import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    g1 = None if pd.isna(key[0]) else key[0]
    g2 = None if pd.isna(key[1]) else int(key[1])
    n = state.get[0] if state.exists else 0
    vmax = state.get[1] if state.exists else None
    nulls = 0
    for pdf in pdfs:
        n += len(pdf)
        nulls += int(pdf["v"].isna().sum())
        for x in pdf["v"]:
            if not pd.isna(x):
                vmax = int(x) if vmax is None else max(vmax, int(x))
    state.update((n, vmax))
    yield pd.DataFrame({"g1": [g1], "g2": [g2], "n": [n], "nulls": [nulls], "vmax": [vmax],
                        "key_has_null": [g1 is None or g2 is None]})

def build(spark, df):
    return df.groupBy("g1", "g2").applyInPandasWithState(
        fn, "g1 STRING, g2 INT, n BIGINT, nulls BIGINT, vmax INT, key_has_null BOOLEAN", "n BIGINT, vmax INT",
        "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "Two grouping columns, NULL grouping values (a NULL key part is its own group, passed to the function as None/null), NULL input values, and a NULL field in the state (the max of non-null values, NULL until one arrives).",
  input: {
    schema: "g1 STRING, g2 INT, v INT",
    batches: [
      [
        { g1: "a", g2: 1, v: 1 },
        { g1: "a", g2: 1, v: null },
        { g1: "a", g2: null, v: null },
        { g1: null, g2: 2, v: 5 },
        { g1: null, g2: null, v: 7 },
      ],
      [
        { g1: "a", g2: null, v: 3 },
        { g1: "a", g2: 2, v: null },
        { g1: null, g2: null, v: null },
      ],
      [
        { g1: "a", g2: 1, v: 4 },
        { g1: "a", g2: 2, v: 9 },
      ],
    ],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("g1", "g2").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], rows: any[], state: any) => {
        const g1 = key[0] ?? null;
        const g2 = key[1] ?? null;
        let n = state.exists ? state.get.n : 0;
        let vmax = state.exists ? state.get.vmax : null;
        let nulls = 0;
        for (const r of rows) {
          n += 1;
          if (r.v === null) nulls += 1;
          else vmax = vmax === null ? r.v : Math.max(vmax, r.v);
        }
        state.update({ n, vmax });
        return [{ g1, g2, n, nulls, vmax, key_has_null: g1 === null || g2 === null }];
      },
      "g1 STRING, g2 INT, n BIGINT, nulls BIGINT, vmax INT, key_has_null BOOLEAN",
      "n BIGINT, vmax INT",
      "update",
      "NoTimeout",
    ),
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
