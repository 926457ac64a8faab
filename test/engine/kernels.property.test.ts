// Every vectorized kernel must agree with a one-row-at-a-time reference that spells out SQL's
// NULL rules, on random columns with NULLs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
s.conf.set("spark.sql.ansi.enabled", "false");
const num = fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null });
const dbl = fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null });
const bool = fc.option(fc.boolean(), { nil: null });

type R = { x: number | null; y: number | null; d: number | null; p: boolean | null; q: boolean | null };
const rows = fc.array(fc.record({ x: num, y: num, d: dbl, p: bool, q: bool }), { minLength: 1, maxLength: 40 });

const nn =
  <T>(f: (...a: number[]) => T) =>
  (...a: (number | null)[]) =>
    a.some((v) => v === null) ? null : f(...(a as number[]));
const cases: [string, string, (r: R) => unknown][] = [
  ["int +", "x + y", (r) => nn((a, b) => (a + b) | 0)(r.x, r.y)],
  ["int -", "x - y", (r) => nn((a, b) => (a - b) | 0)(r.x, r.y)],
  ["int *", "x * y", (r) => nn((a, b) => Math.imul(a, b))(r.x, r.y)],
  ["divide → double, NULL on 0", "x / y", (r) => (r.x === null || r.y === null || r.y === 0 ? null : r.x / r.y)],
  ["remainder sign of dividend", "x % y", (r) => (r.x === null || r.y === null || r.y === 0 ? null : (r.x % r.y) | 0)],
  ["double + int", "d + x", (r) => nn((a, b) => a + b)(r.d, r.x)],
  ["<", "x < y", (r) => nn((a, b) => a < b)(r.x, r.y)],
  [">=", "d >= x", (r) => nn((a, b) => a >= b)(r.d, r.x)],
  ["=", "x = y", (r) => nn((a, b) => a === b)(r.x, r.y)],
  ["<=> null-safe", "x <=> y", (r) => r.x === r.y],
  ["AND three-valued", "p AND q", (r) => (r.p === false || r.q === false ? false : r.p === null || r.q === null ? null : true)],
  ["OR three-valued", "p OR q", (r) => (r.p === true || r.q === true ? true : r.p === null || r.q === null ? null : false)],
  ["NOT", "NOT p", (r) => (r.p === null ? null : !r.p)],
  ["IS NULL", "x IS NULL", (r) => r.x === null],
  ["abs", "abs(x)", (r) => nn(Math.abs)(r.x)],
  ["negation", "-x", (r) => nn((a) => -a | 0)(r.x)],
  ["greatest skips NULLs", "greatest(x, y)", (r) => (r.x === null ? r.y : r.y === null ? r.x : Math.max(r.x, r.y))],
  ["coalesce", "coalesce(x, y, 0)", (r) => r.x ?? r.y ?? 0],
  ["CASE WHEN", "CASE WHEN p THEN x WHEN q THEN y ELSE -1 END", (r) => (r.p ? r.x : r.q ? r.y : -1)],
  [
    "IN with NULL in list",
    "x IN (1, 2, y)",
    (r) => (r.x === null ? null : r.x === 1 || r.x === 2 || r.x === r.y ? true : r.y === null ? null : false),
  ],
];

describe("vectorized kernels agree with a row-at-a-time reference", () => {
  for (const [name, sql, ref] of cases) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(rows, async (rs) => {
          const out = await s.createDataFrame(rs, "x INT, y INT, d DOUBLE, p BOOLEAN, q BOOLEAN").select(F.expr(sql).alias("r")).collect();
          assert.deepEqual(
            out.map((o) => o.r),
            rs.map(ref),
          );
        }),
        { numRuns: 40 },
      );
    });
  }
});
