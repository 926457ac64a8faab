/**
 * histogram_numeric(x, nb): Spark's NumericHistogram, its java.util.Random tie-breaks included —
 * every expected value is PySpark 4.3's (errors by class) — and the histogram's invariants:
 * at most nb bins, x ascending, the heights summing to the number of non-NULL values.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();

type Expected = { rows: unknown[][] } | { error: string };

const PYSPARK: [string, Expected][] = [
  [
    "SELECT to_json(named_struct('r', histogram_numeric(v, 3))), typeof(histogram_numeric(v, 3)) FROM VALUES (1), (2), (3), (4), (5), (6), (7) AS t(v)",
    { rows: [['{"r":[{"x":2,"y":3.0},{"x":4,"y":2.0},{"x":6,"y":2.0}]}', "array<struct<x:int,y:double>>"]] },
  ],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(v, 2))) FROM VALUES (1.5D), (2.5D), (10.0D), (11.0D), (NULL) AS t(v)",
    { rows: [['{"r":[{"x":2.0,"y":2.0},{"x":10.5,"y":2.0}]}']] },
  ],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(v, 4))) FROM range(100) AS t(v)",
    { rows: [['{"r":[{"x":13,"y":28.0},{"x":35,"y":16.0},{"x":56,"y":27.0},{"x":85,"y":29.0}]}']] },
  ],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(id % 7, 3))) FROM range(50)",
    { rows: [['{"r":[{"x":0,"y":22.0},{"x":3,"y":14.0},{"x":5,"y":14.0}]}']] },
  ],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(v, 5))) FROM VALUES (1), (1), (2) AS t(v)",
    { rows: [['{"r":[{"x":1,"y":2.0},{"x":2,"y":1.0}]}']] },
  ],
  ["SELECT to_json(named_struct('r', histogram_numeric(v, 3))) FROM VALUES (CAST(NULL AS INT)) AS t(v)", { rows: [["{}"]] }],
  ["SELECT histogram_numeric(v, 1) FROM VALUES (1) AS t(v)", { error: "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE" }],
  ["SELECT histogram_numeric(v, 'a') FROM VALUES (1) AS t(v)", { error: "CAST_INVALID_INPUT" }],
  ["SELECT histogram_numeric('x', 3)", { error: "CAST_INVALID_INPUT" }],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(v, 3))), typeof(histogram_numeric(v, 3)) FROM VALUES (CAST(1.5 AS DECIMAL(3,1))), (CAST(2.5 AS DECIMAL(3,1))) AS t(v)",
    { rows: [['{"r":[{"x":1.5,"y":1.0},{"x":2.5,"y":1.0}]}', "array<struct<x:decimal(3,1),y:double>>"]] },
  ],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(v, 2))), typeof(histogram_numeric(v, 2)) FROM VALUES (DATE'2024-01-01'), (DATE'2024-01-03'), (DATE'2024-01-10') AS t(v)",
    { rows: [['{"r":[{"x":"2024-01-02","y":2.0},{"x":"2024-01-10","y":1.0}]}', "array<struct<x:date,y:double>>"]] },
  ],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(CAST(v AS FLOAT), 2))) FROM VALUES (1), (2), (9) AS t(v)",
    { rows: [['{"r":[{"x":1.5,"y":2.0},{"x":9.0,"y":1.0}]}']] },
  ],
  [
    "SELECT to_json(named_struct('r', histogram_numeric(v, 3))) FROM (SELECT (id * 7919) % 101 AS v FROM range(300))",
    { rows: [['{"r":[{"x":13,"y":81.0},{"x":44,"y":105.0},{"x":81,"y":114.0}]}']] },
  ],
];

describe("histogram_numeric", () => {
  it("gives PySpark 4.3's bins", async () => {
    for (const [sql, expected] of PYSPARK) {
      if ("error" in expected) {
        await assert.rejects((async () => session.sql(sql).toArray())(), (e: Error) => e.message.startsWith(`[${expected.error}]`), sql);
      } else
        assert.deepEqual(
          (await session.sql(sql).toArray()).map((r) => [...r]),
          expected.rows,
          sql,
        );
    }
  });

  it("keeps at most nb bins, in ascending x, holding every value (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.integer({ min: -50, max: 50 }), { nil: null }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 2, max: 8 }),
        async (values, nb) => {
          const rows = values.map((v) => `(${v === null ? "CAST(NULL AS DOUBLE)" : `${v}D`})`).join(", ");
          const [bins] = (await session.sql(`SELECT histogram_numeric(v, ${nb}) FROM VALUES ${rows} AS t(v)`).toArray())[0]! as [
            { x: number; y: number }[] | null,
          ];
          const present = values.filter((v) => v !== null);
          if (present.length === 0) {
            assert.equal(bins, null);
            return;
          }
          assert.ok(bins!.length <= nb && bins!.length >= Math.min(nb, new Set(present).size));
          for (let i = 1; i < bins!.length; i++) assert.ok(bins![i - 1]!.x < bins![i]!.x);
          assert.equal(
            bins!.reduce((s, b) => s + b.y, 0),
            present.length,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
