/**
 * JavaScript UDFs (PySpark's F.udf / spark.udf.register): names as PySpark's (the function's
 * name, `<lambda>` for an anonymous one), values as collect() gives them, NULLs passed through,
 * results converted to the declared type, failures named, SQL registration, streaming use.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session, types as T } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

describe("user-defined functions", () => {
  it("calls the function per row, named after it, with the declared return type", async () => {
    const df = session.createDataFrame(
      [
        [1, "a", null],
        [2, null, 5],
      ],
      "x int, s string, n int",
    );
    const plusOne = F.udf((x: number) => x + 1, "int");
    function shout(v: string | null) {
      return v === null ? null : `${v.toUpperCase()}!`;
    }
    const out = df.select(
      plusOne(F.col("x")),
      F.udf(shout)("s"),
      F.udf((a: number, b: number | null) => (b ?? 0) * a, T.LongType)("x", "n").alias("p"),
    );
    assert.deepEqual(out.dtypes, [
      ["<lambda>(x)", "int"],
      ["shout(s)", "string"],
      ["p", "bigint"],
    ]);
    assert.deepEqual(await out.toArray(), [
      [2, "A!", 0],
      [3, null, 10],
    ]);
  });

  it("hands timestamps as Date and converts the result to the return type", async () => {
    const iso = F.udf((d: Date) => d.toISOString());
    const back = F.udf((t: string) => new Date(t), "timestamp");
    const df = session.sql("SELECT TIMESTAMP '2024-01-02 03:04:05' AS t").select(iso("t").alias("s"));
    assert.deepEqual(await df.toArray(), [["2024-01-02T03:04:05.000Z"]]);
    const [[ts]] = (await df.select(back("s")).toArray()) as [[Date]];
    assert.equal(ts.toISOString(), "2024-01-02T03:04:05.000Z");
  });

  it("names the UDF and its types when it throws, and refuses a Promise", async () => {
    const df = session.createDataFrame([[1]], "x int");
    await assert.rejects(
      df
        .select(
          F.udf(() => {
            throw new Error("boom");
          }, "int")(),
        )
        .collect(),
      /\[FAILED_EXECUTE_UDF\] User defined function \(`<lambda>`: \(\) => INT\) failed due to: boom\./,
    );
    await assert.rejects(df.select(F.udf(async (x: number) => x, "int")("x")).collect(), /FAILED_EXECUTE_UDF.*returned a Promise/);
  });

  it("registers a UDF for SQL text; a built-in name is refused", async () => {
    session.udf.register("twice", (v: number) => v * 2, "bigint");
    const q = session.sql("SELECT twice(x) AS t, twice(x) + 1 FROM VALUES (3) AS v(x)");
    assert.deepEqual(q.columns, ["t", "(twice(x) + 1)"]);
    assert.deepEqual(await q.toArray(), [[6, 7]]);
    assert.throws(() => session.udf.register("upper", (v: string) => v), /ROUTINE_ALREADY_EXISTS/);
  });

  it("runs in a streaming query", async () => {
    const events = session.memoryStream("k STRING, n INT");
    const tag = F.udf((k: string) => `k=${k}`);
    const q = await events
      .toDF()
      .withColumn("tag", tag("k"))
      .groupBy("tag")
      .agg(F.sum("n").alias("total"))
      .writeStream.outputMode("complete")
      .format("memory")
      .queryName("udf_stream")
      .start();
    events.addData([
      { k: "a", n: 1 },
      { k: "b", n: 2 },
      { k: "a", n: 3 },
    ]);
    await q.processAllAvailable();
    await q.stop();
    assert.deepEqual(await session.sql("SELECT * FROM udf_stream ORDER BY tag").toArray(), [
      ["k=a", 4],
      ["k=b", 2],
    ]);
  });
});
