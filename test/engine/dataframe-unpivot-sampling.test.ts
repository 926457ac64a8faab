/**
 * DataFrame.unpivot / melt, sample / randomSplit, corr / cov and the Column spellings PySpark has
 * (ilike, startswith, endswith, isNaN). Names, values and errors from PySpark 4.3, except the
 * sampled rows (arus's random numbers are not Spark's): those are held to their invariants.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const wide = () =>
  session.createDataFrame(
    [
      [1, 11, 1.1],
      [2, 12, 1.2],
    ],
    "id bigint, int bigint, double double",
  );

describe("unpivot / melt", () => {
  it("gives one row per value column, values in their least common type", async () => {
    const u = wide().unpivot("id", ["int", "double"], "var", "val");
    assert.deepEqual(u.dtypes, [
      ["id", "bigint"],
      ["var", "string"],
      ["val", "double"],
    ]);
    const expected = [
      [1, "int", 11],
      [1, "double", 1.1],
      [2, "int", 12],
      [2, "double", 1.2],
    ];
    assert.deepEqual(await u.toArray(), expected);
    assert.deepEqual(await wide().unpivot(["id"], null, "var", "val").toArray(), expected);
    assert.deepEqual(await wide().melt(["id"], ["int"], "v", "x").toArray(), [
      [1, "int", 11],
      [2, "int", 12],
    ]);
  });

  it("refuses value columns without a common type, or none at all", () => {
    const df = session.createDataFrame([[1, "a", 2]], "id bigint, s string, n bigint");
    assert.throws(
      () => df.unpivot("id", ["s", "n"], "v", "x"),
      /\[UNPIVOT_VALUE_DATA_TYPE_MISMATCH\] Unpivot value columns must share a least common type, some types do not: \["BIGINT" \(`n`\), "STRING" \(`s`\)\]\./,
    );
    assert.throws(() => wide().unpivot("id", [], "v", "x"), /\[UNPIVOT_REQUIRES_VALUE_COLUMNS\]/);
  });
});

describe("sample / randomSplit", () => {
  it("randomSplit puts every row in exactly one part (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer(),
        async (weights, rows, seed) => {
          const parts = session.range(0, rows).randomSplit(weights, seed);
          const ids = (await Promise.all(parts.map((p) => p.toArray()))).flat().map(([id]) => id as number);
          assert.deepEqual(
            ids.sort((a, b) => a - b),
            Array.from({ length: rows }, (_, i) => i),
          );
        },
      ),
      { numRuns: 20 },
    );
  });

  it("sample keeps about the fraction, the same rows for the same seed", async () => {
    const df = session.range(0, 2000);
    const a = await df.sample(0.25, 3).toArray();
    assert.deepEqual(await df.sample(false, 0.25, 3).toArray(), a);
    assert.ok(a.length > 350 && a.length < 650, `${a.length} of 2000 rows at 0.25`);
  });

  it("with replacement: Poisson(fraction) copies of each row, the same for the same seed; fraction may pass 1", async () => {
    const df = session.range(0, 20000);
    const rows = (await df.sample(true, 0.5, 7).toArray()).map(([id]) => id as number);
    assert.deepEqual(
      (await df.sample(true, 0.5, 7).toArray()).map(([id]) => id as number),
      rows,
    );
    assert.deepEqual(await df.sample(true, 0.5, 7).columns, ["id"]);
    const copies = new Map<number, number>();
    for (const id of rows) copies.set(id, (copies.get(id) ?? 0) + 1);
    assert.ok([...copies.keys()].every((id) => Number.isInteger(id) && id >= 0 && id < 20000));
    // How many rows came out 0, 1, 2, 3 times against Poisson(0.5) × 20000: 12131, 6065, 1516, 253.
    const byCopies = [0, 1, 2, 3].map((k) => (k === 0 ? 20000 - copies.size : [...copies.values()].filter((c) => c === k).length));
    const expected = [0.6065, 0.3033, 0.0758, 0.0126].map((p) => p * 20000);
    for (const [k, got] of byCopies.entries()) {
      assert.ok(Math.abs(got - expected[k]!) < 4 * Math.sqrt(expected[k]!) + 5, `${got} rows ${k} times, ~${expected[k]}`);
    }
    const many = await df.sample(true, 3, 1).count();
    assert.ok(Math.abs(many - 60000) < 1000, `${many} rows at fraction 3`);
    const huge = await session.range(0, 1000).sample(true, 100, 1).count();
    assert.ok(Math.abs(huge - 100000) < 2000, `${huge} rows at fraction 100 (the normal stand-in)`);
    assert.equal(await df.sample(true, 0, 1).count(), 0);
    assert.throws(() => df.sample(true, -1), /fraction must be a number of 0 or more/);
  });

  it("with replacement on a stream: every sampled row is an input row", async () => {
    const ms = session.memoryStream("v INT");
    const q = await ms.toDF().sample(true, 2, 5).writeStream.format("memory").queryName("sample_repl").start();
    try {
      ms.addData(Array.from({ length: 300 }, (_, v) => ({ v })));
      await q.processAllAvailable();
      const out = (await session.table("sample_repl").collect()).map((r) => r.v as number);
      assert.ok(out.length > 450 && out.length < 750, `${out.length} rows from 300 at fraction 2`);
      assert.ok(out.every((v) => v >= 0 && v < 300));
      assert.ok(new Set(out).size < out.length, "some rows repeated");
    } finally {
      await q.stop();
    }
  });
});

describe("corr / cov and Column spellings", () => {
  it("corr and cov of two columns", async () => {
    assert.equal(await wide().corr("int", "double"), 1.000000000000001);
    assert.equal(await wide().cov("int", "double"), 0.050000000000000044);
  });

  it("ilike, startswith, endswith, isNaN", async () => {
    const df = session.createDataFrame([["Ab"], ["x"]], "s string");
    const out = df.select(F.col("s").ilike("a%"), F.col("s").startswith("A"), F.col("s").endswith("b"));
    assert.deepEqual(out.columns, ["ilike(s, a%)", "startswith(s, A)", "endswith(s, b)"]);
    assert.deepEqual(await out.toArray(), [
      [true, true, true],
      [false, false, false],
    ]);
    assert.deepEqual(session.createDataFrame([[Number.NaN]], "d double").select(F.col("d").isNaN()).columns, ["isnan(d)"]);
  });
});

describe("toLocalIterator, foreach, foreachPartition, toJSON", () => {
  const df = () =>
    session.createDataFrame(
      [
        [1, "a"],
        [2, null],
      ],
      "id int, s string",
    );

  it("hands the rows over one by one, in order", async () => {
    const seen: unknown[] = [];
    for await (const r of df().toLocalIterator()) seen.push(r);
    assert.deepEqual(seen, [
      { id: 1, s: "a" },
      { id: 2, s: null },
    ]);
    const ids: unknown[] = [];
    await df().foreach(async (r) => {
      await Promise.resolve();
      ids.push(r.id);
    });
    assert.deepEqual(ids, [1, 2]);
    let sizes: number[] = [];
    await df().foreachPartition((rows) => {
      sizes = [...sizes, [...rows].length];
    });
    assert.deepEqual(sizes, [2]);
  });

  it("toJSON gives each row as Spark's JSON text (NULL fields left out)", async () => {
    const j = df().toJSON();
    assert.deepEqual(j.columns, ["value"]);
    assert.deepEqual(await j.toArray(), [['{"id":1,"s":"a"}'], ['{"id":2}']]);
  });
});
