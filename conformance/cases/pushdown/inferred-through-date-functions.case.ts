import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "isnotnull(c) inferred through date_add, to_date(s) (a cast) and isnotnull(length(k)) is pushed into the JSON scan: rows with a NULL d, s or k are not numInputRows. to_date with a format is not null-intolerant in Spark: its NULL s rows are read.",
  input: {
    schema: "k STRING, d DATE, s STRING, f STRING",
    batches: [
      [
        { k: "a", d: "2024-01-05", s: "2024-01-05", f: "2024-01-05" },
        { k: null, d: "2024-01-05", s: "2024-01-05", f: "2024-01-05" },
        { k: "b", d: null, s: "2024-01-05", f: "2024-01-05" },
        { k: "c", d: "2024-01-05", s: null, f: "2024-01-05" },
        { k: "d", d: "2024-01-05", s: "2024-01-05", f: null },
      ],
      [
        { k: "e", d: "2024-01-01", s: "2024-01-09", f: "2024-01-09" },
        { k: "f", d: "2024-01-09", s: "2024-01-09", f: "2024-01-09" },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df.filter(F.length("k").isNotNull() & (F.date_add("d", 1) > F.lit("2024-01-03").cast("date")) & (F.to_date("s") > F.lit("2024-01-02").cast("date")) & F.to_date("f", "yyyy-MM-dd").isNull().__invert__())`,
  arus: ({ df, F }) =>
    df.filter(
      F.length("k")
        .isNotNull()
        .and(F.date_add("d", 1).gt(F.lit("2024-01-03").cast("date")))
        .and(F.to_date("s").gt(F.lit("2024-01-02").cast("date")))
        .and(F.to_date("f", "yyyy-MM-dd").isNull().not()),
    ),
});
