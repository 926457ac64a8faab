// min/max of a struct column rank rows in the vectors (no object per row); they must pick what
// comparing the struct values one row at a time picks: field by field, NULL first, NaN
// largest, ties to the earliest row.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compareValues } from "../../src/functions/predicates.js";
import { functions as F } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";
import { utcSession } from "./helpers.js";

const s = utcSession();

type R = { g: number; a: number | null; d: number | null; t: string | null; b: boolean | null; nul: boolean };
const row = fc.record({
  g: fc.integer({ min: 0, max: 3 }),
  // Small domains, so that ties (-0 against 0 included) are common.
  a: fc.option(fc.integer({ min: -1, max: 1 }), { nil: null }),
  d: fc.option(fc.constantFrom(0, -0, 1.5, -1.5, Number.NaN, Number.POSITIVE_INFINITY), { nil: null }),
  t: fc.option(fc.constantFrom("", "a", "é"), { nil: null }),
  b: fc.option(fc.boolean(), { nil: null }),
  nul: fc.boolean(),
});

/** One row at a time, as the accumulator did before: replace only on a strictly better value. */
function reference(rows: R[], sign: 1 | -1): Map<number, unknown> {
  const out = new Map<number, { a: number | null; d: number | null; t: string | null; b: boolean | null } | null>();
  const cmpNullable = (x: unknown, y: unknown) => (x == null || y == null ? (x == null ? (y == null ? 0 : -1) : 1) : compareValues(x, y));
  for (const r of rows) {
    if (!out.has(r.g)) out.set(r.g, null);
    if (r.nul) continue;
    const v = { a: r.a, d: r.d, t: r.t, b: r.b };
    const cur = out.get(r.g);
    if (!cur) {
      out.set(r.g, v);
      continue;
    }
    let c = 0;
    for (const k of ["a", "d", "t", "b"] as const) {
      c = cmpNullable(v[k], cur[k]);
      if (c !== 0) break;
    }
    if (c * sign > 0) out.set(r.g, v);
  }
  return out;
}

describe("min/max over struct columns", () => {
  for (const [name, sign, withNulls] of [
    ["max", 1, false],
    ["min", -1, false],
    ["max", 1, true],
    ["min", -1, true],
  ] as const) {
    // F.struct gives a vector of field vectors (ranked in place); CASE WHEN with a NULL branch
    // gives struct values (ranked one by one): both must agree with the reference.
    it(`${name}(struct) equals the row-at-a-time reference${withNulls ? ", NULL structs" : ""}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 40 }), async (input) => {
          const rows = withNulls ? input : input.map((r) => ({ ...r, nul: false }));
          const st = F.struct("a", "d", "t", "b");
          const df = s
            .createDataFrame(rows, "g INT, a INT, d DOUBLE, t STRING, b BOOLEAN, nul BOOLEAN")
            .select("g", (withNulls ? F.when(F.col("nul"), F.lit(null)).otherwise(st) : st).alias("st"))
            .groupBy("g")
            .agg((sign === 1 ? F.max("st") : F.min("st")).alias("m"));
          const got = new Map((await df.collect()).map((r) => [r.g as number, r.m]));
          const want = reference(rows, sign);
          assert.equal(got.size, want.size);
          for (const [g, v] of want) assert.deepStrictEqual(got.get(g) ?? null, v, `group ${g}`);
        }),
        { numRuns: 300 },
      );
    });
  }

  // Read from a JSON-lines file, the STRING field is a UTF-8 vector (columnar/utf8.ts): ties on
  // `a` compare its bytes' strings row against row, and the winners alone are decoded.
  const tempDir = tempDirs("arus-struct-utf8-");
  it("max(struct) over a file's UTF-8 strings equals the reference", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 40 }), async (input) => {
        const rows = input.map((r) => ({ ...r, d: null, nul: false }));
        const dir = await tempDir();
        await writeFile(join(dir, "rows.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n"));
        const df = s.read
          .format("json")
          .schema("g INT, a INT, d DOUBLE, t STRING, b BOOLEAN, nul BOOLEAN")
          .load(dir)
          .groupBy("g")
          .agg(F.max(F.struct("a", "d", "t", "b")).alias("m"));
        const got = new Map((await df.collect()).map((r) => [r.g as number, r.m]));
        const want = reference(rows, 1);
        assert.equal(got.size, want.size);
        for (const [g, v] of want) assert.deepStrictEqual(got.get(g) ?? null, v, `group ${g}`);
      }),
      { numRuns: 60 },
    );
  });
});
