import { defineCase } from "../../case.js";

export default defineCase({
  description: "selectExpr with SQL expressions, withColumnRenamed and drop on a stream; the output column order follows the projection.",
  input: {
    schema: "a INT, b STRING, c DOUBLE",
    batches: [[{ a: 1, b: "x", c: 0.5 }], [{ a: 2, b: null, c: -1.25 }]],
  },
  pyspark: `df.selectExpr("a * 2 AS a2", "b", "c", "concat_ws('-', b, 'y') AS bc").withColumnRenamed("c", "cc").drop("b")`,
  arus: ({ df }) => df.selectExpr("a * 2 AS a2", "b", "c", "concat_ws('-', b, 'y') AS bc").withColumnRenamed("c", "cc").drop("b"),
});
