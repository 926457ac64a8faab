import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "from_csv and to_csv on a stream: each value one CSV record (PERMISSIVE keeps what parses; fewer tokens give nulls, extra tokens are dropped, a null value is a null struct, an unbalanced quote stays in its line), and a struct written back as one record with the writer's quoting.",
  input: {
    schema: "k INT, s STRING",
    batches: [
      [
        { k: 1, s: "1,x,2.5" },
        { k: 2, s: "bad,y,1" },
        { k: 3, s: null },
        { k: 4, s: "3" },
      ],
      [
        { k: 5, s: '4,"q,uoted",' },
        { k: 6, s: "5,z,6,extra" },
        { k: 7, s: '7,"open' },
        { k: 8, s: " 8 , w " },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.select("k", "s", F.from_csv("s", "a INT, b STRING, d DOUBLE").alias("c")).select("k", F.col("c").isNull().alias("isnull"), "c.a", "c.b", "c.d", F.to_csv(F.struct("k", "s")).alias("t"))`,
  arus: ({ df, F }) =>
    df
      .select("k", "s", F.from_csv("s", "a INT, b STRING, d DOUBLE").alias("c"))
      .select("k", F.col("c").isNull().alias("isnull"), "c.a", "c.b", "c.d", F.to_csv(F.struct("k", "s")).alias("t")),
});
