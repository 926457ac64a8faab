/**
 * from_json / to_json: the byte scanner's values straight into struct columns; Spark's
 * PERMISSIVE result for malformed input (a struct of nulls), null for null/blank input, FAILFAST
 * raising; to_json leaving null fields out. A fast-check property holds from_json to a
 * JSON.parse reference and to_json ∘ from_json to a round trip.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

describe("from_json / to_json", () => {
  it("parses into a struct, with Spark's results for malformed, null, blank and multi-line values", async () => {
    const df = session.createDataFrame(
      [{ v: '{"a":1,"b":"x","t":"2024-01-01T00:00:00Z"}' }, { v: "bad" }, { v: null }, { v: " " }, { v: '{\n"a":2}' }, { v: '{"b":"y"}' }],
      "v STRING",
    );
    const rows = await df.select(F.from_json(F.col("v"), "a INT, b STRING, t TIMESTAMP").alias("j")).collect();
    assert.deepEqual(
      rows.map((r) => r.j),
      [
        { a: 1, b: "x", t: new Date(Date.UTC(2024, 0, 1)) },
        { a: null, b: null, t: null },
        null,
        null,
        { a: 2, b: null, t: null },
        { a: null, b: "y", t: null },
      ],
    );
    const nested = await df.select(F.from_json("v", "a INT").getField("a").alias("a")).collect();
    assert.deepEqual(
      nested.map((r) => r.a),
      [1, null, null, null, 2, null],
    );
    await assert.rejects(df.select(F.from_json("v", "a INT", { mode: "FAILFAST" })).collect(), /FAILFAST/);
  });

  it("`j.*` expands a struct column's fields (Spark's UnresolvedStar), also nested and in selectExpr", async () => {
    const df = session.createDataFrame([{ v: '{"id":1,"k":"a"}' }], "v STRING");
    const j = df.select(F.from_json(F.col("v"), "id INT, k STRING").alias("j"));
    const flat = j.select("j.*");
    assert.deepEqual(
      flat.schema.fields.map((f) => f.name),
      ["id", "k"],
    );
    assert.deepEqual(await flat.collect(), [{ id: 1, k: "a" }]);
    assert.deepEqual(await j.selectExpr("j.*").collect(), [{ id: 1, k: "a" }]);
    const nested = df.select(F.struct(F.struct(F.lit(1).alias("x")).alias("b")).alias("a")).select("a.b.*");
    assert.deepEqual(await nested.collect(), [{ x: 1 }]);
    assert.throws(() => df.select("v.*").schema, /INVALID_USAGE_OF_STAR_OR_REGEX/);
    assert.throws(() => df.select("nope.*").schema, /CANNOT_RESOLVE_STAR_EXPAND/);
  });

  it("from_json(CAST(binary AS STRING)) reads the bytes as they are, with the string path's results (property)", async () => {
    const special = ["", " ", "\t", "bad", "[1,2]", ' [{"a":1}]', '{\n"a":2}', '{"a":3}\r', '{"b":"é"}', "\n", null];
    const value = fc.oneof(
      fc.constantFrom(...special),
      fc
        .record({ a: fc.option(fc.integer(), { nil: null }), b: fc.option(fc.string(), { nil: null }) }, { requiredKeys: [] })
        .map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 20 }), async (texts) => {
        const df = session.createDataFrame(
          texts.map((v) => ({ v, b: v === null ? null : new Uint8Array(Buffer.from(v)) })),
          "v STRING, b BINARY",
        );
        const rows = await df
          .select(F.from_json("v", "a INT, b STRING").alias("s"), F.from_json(F.col("b").cast("string"), "a INT, b STRING").alias("y"))
          .collect();
        for (const r of rows) assert.deepEqual(r.y, r.s);
      }),
      { numRuns: 50 },
    );
  });

  it("to_json writes Spark's JSON text, null fields left out", async () => {
    const df = session.createDataFrame(
      [
        { a: 1, b: "x" },
        { a: null, b: "y" },
      ],
      "a INT, b STRING",
    );
    const rows = await df.select(F.to_json(F.struct("a", "b")).alias("s")).collect();
    assert.deepEqual(
      rows.map((r) => r.s),
      ['{"a":1,"b":"x"}', '{"b":"y"}'],
    );
  });

  it("from_json equals JSON.parse, and to_json round-trips (property)", async () => {
    const rec = fc.record(
      { a: fc.option(fc.integer({ min: -1e6, max: 1e6 }), { nil: null }), b: fc.option(fc.string(), { nil: null }) },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(rec, { minLength: 1, maxLength: 20 }), async (objs) => {
        const texts = objs.map((o) => JSON.stringify(o));
        const df = session.createDataFrame(
          texts.map((v) => ({ v })),
          "v STRING",
        );
        const parsed = await df.select(F.from_json("v", "a INT, b STRING").alias("j")).collect();
        assert.deepEqual(
          parsed.map((r) => r.j),
          objs.map((o) => ({ a: o.a ?? null, b: o.b ?? null })),
        );
        const back = await df.select(F.to_json(F.from_json("v", "a INT, b STRING")).alias("s")).collect();
        assert.deepEqual(
          back.map((r) => JSON.parse(r.s as string)),
          objs.map((o) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== null))),
        );
      }),
      { numRuns: 50 },
    );
  });
});
