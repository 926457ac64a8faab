/**
 * from_csv / to_csv: each value one CSV record, read with the CSV reader's options and
 * PERMISSIVE rules (what parses is kept, a null value is a null struct), FAILFAST raising,
 * DROPMALFORMED refused; to_csv quoting as the CSV writer. A fast-check property holds the
 * one-text read of many values to reading each value alone, and from_csv ∘ to_csv to a round trip.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const SCHEMA = "a INT, b STRING, d DOUBLE";

async function parsed(values: (string | null)[], options?: Record<string, string>): Promise<unknown[]> {
  const df = session.createDataFrame(
    values.map((v) => ({ v })),
    "v STRING",
  );
  const rows = await df.select(F.from_csv(F.col("v"), SCHEMA, options).alias("c")).collect();
  return rows.map((r) => r.c);
}

describe("from_csv / to_csv", () => {
  it("parses records into a struct with the CSV reader's PERMISSIVE results", async () => {
    assert.deepEqual(await parsed(["1,x,2.5", "bad,y,1", null, "3", '4,"q,uoted",', "", "5,z,6,extra"]), [
      { a: 1, b: "x", d: 2.5 },
      { a: null, b: "y", d: 1 },
      null,
      { a: 3, b: null, d: null },
      { a: 4, b: "q,uoted", d: null },
      { a: null, b: null, d: null },
      { a: 5, b: "z", d: 6 },
    ]);
  });

  it("takes the reader's options, refuses DROPMALFORMED and raises under FAILFAST naming the record", async () => {
    assert.deepEqual(await parsed(["1;x;NA"], { sep: ";", nullValue: "NA" }), [{ a: 1, b: "x", d: null }]);
    await assert.rejects(parsed(["1,x,1", "oops,y,2"], { mode: "FAILFAST" }), /MALFORMED_RECORD_IN_PARSING.*oops,y,2/);
    await assert.rejects(parsed(["1,x,1"], { mode: "DROPMALFORMED" }), /doesn't support the DROPMALFORMED mode/);
    const df = session.createDataFrame([{ v: 1 }], "v INT");
    assert.throws(() => df.select(F.from_csv(F.col("v"), SCHEMA)).schema, /DATATYPE_MISMATCH|STRING/);
  });

  it("to_csv writes one record per row with the writer's quoting; a null struct is null", async () => {
    const df = session.createDataFrame(
      [
        { a: 1, b: "plain" },
        { a: null, b: 'has,comma and "quote"' },
      ],
      "a INT, b STRING",
    );
    const rows = await df
      .select(
        F.to_csv(F.struct(F.col("a"), F.col("b"))).alias("t"),
        F.to_csv(F.when(F.col("a").isNull(), F.lit(null)).otherwise(F.struct("a")), {}).alias("n"),
      )
      .collect();
    assert.deepEqual(
      rows.map((r) => r.t),
      ["1,plain", ',"has,comma and \\"quote\\""'],
    );
    assert.deepEqual(
      rows.map((r) => r.n),
      ["1", null],
    );
    assert.throws(
      () => df.select(F.to_csv(F.struct(F.struct("a").alias("inner")))).schema,
      /does not support struct type of field "inner"/,
    );
  });

  it("many values read as one text equal each value read alone, and from_csv ∘ to_csv round-trips (property)", async () => {
    const token = fc.oneof(
      fc.integer({ min: -1000, max: 1000 }).map(String),
      fc.constantFrom("x", "", "bad", "1.5", '"a,b"', "NaN", '"', " 2 ", "#c"),
    );
    const line = fc.array(token, { minLength: 1, maxLength: 4 }).map((ts) => ts.join(","));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(line, fc.constant(null)), { minLength: 1, maxLength: 12 }), async (values) => {
        const together = await parsed(values);
        const alone = await Promise.all(values.map(async (v) => (await parsed([v]))[0]));
        assert.deepEqual(together, alone);
      }),
      { numRuns: 40 },
    );
    const row = fc.record({
      a: fc.option(fc.integer(), { nil: null }),
      b: fc.option(
        fc.string().map((t) => t.trim()),
        { nil: null },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), async (rows) => {
        const df = session.createDataFrame(rows, "a INT, b STRING");
        const back = await df
          .select(F.from_csv(F.to_csv(F.struct("a", "b")), "a INT, b STRING").alias("c"))
          .select("c.*")
          .collect();
        // the writer's defaults: values trimmed (so trimmed here), null and "" both written as nothing → null
        assert.deepEqual(
          back,
          rows.map((r) => ({ a: r.a, b: r.b === "" ? null : r.b })),
        );
      }),
      { numRuns: 40 },
    );
  });
});
