// Aggregates over window frames (the segment tree of partial buffers, the whole-partition pass,
// first/last/nth_value by position) must equal a naive reference that, for every row, collects
// the rows of its frame one by one from the definition: ROWS counts positions, RANGE compares
// ORDER BY values in the window's ordering (NULL a value that sorts first or last, a NULL
// current row's bound being NULL), on random partitions with ties and NULLs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Window } from "../../src/index.js";
import { utcSession } from "./helpers.js";

const s = utcSession();

interface R {
  id: number;
  k: number;
  o: number | null;
  x: number | null;
  /** A DOUBLE whose sums depend on the order of addition (the engine must fold as Spark does). */
  d: number | null;
  /** A STRING (min / max through the general segment tree). */
  t: string | null;
}
interface Spec {
  type: "rows" | "range";
  lower: number | null;
  upper: number | null;
  asc: boolean;
  nullsFirst: boolean;
}

const bound = fc.option(fc.integer({ min: -3, max: 3 }), { nil: null, freq: 4 });
const specArb = fc
  .record({
    type: fc.constantFrom("rows" as const, "range" as const),
    lower: bound,
    upper: bound,
    asc: fc.boolean(),
    nullsFirst: fc.boolean(),
  })
  .filter((f) => f.lower === null || f.upper === null || f.lower <= f.upper);
const rowsArb = fc
  .array(
    fc.record({
      k: fc.integer({ min: 0, max: 2 }),
      o: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null, freq: 5 }),
      x: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 4 }),
      d: fc.option(fc.constantFrom(0.1, 0.2, 0.3, 1e16, -1e16, 2.5, -0.7, 1 / 3), { nil: null, freq: 4 }),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((rs) => rs.map((r, id) => ({ id, ...r, t: r.x === null ? null : `s${r.x + 100}` })));

/** The window's ordering on o (NULL first or last), ties by input order as the engine keeps them. */
function cmpO(spec: Spec, a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : (a === null ? -1 : 1) * (spec.nullsFirst ? 1 : -1);
  return (a - b) * (spec.asc ? 1 : -1);
}

function frameOf(spec: Spec, part: R[], i: number): R[] {
  if (spec.type === "rows") {
    const lo = spec.lower === null ? 0 : Math.max(0, i + spec.lower);
    const hi = spec.upper === null ? part.length - 1 : Math.min(part.length - 1, i + spec.upper);
    return hi < lo ? [] : part.slice(lo, hi + 1);
  }
  const v = part[i]!.o;
  const dir = spec.asc ? 1 : -1;
  const target = (off: number) => (v === null ? null : v + dir * off);
  return part.filter(
    (r) =>
      (spec.lower === null || cmpO(spec, r.o, target(spec.lower)) >= 0) &&
      (spec.upper === null || cmpO(spec, r.o, target(spec.upper)) <= 0),
  );
}

function reference(rows: R[], spec: Spec): Map<number, Record<string, unknown>> {
  const out = new Map<number, Record<string, unknown>>();
  for (const k of new Set(rows.map((r) => r.k))) {
    const part = rows.filter((r) => r.k === k).sort((a, b) => cmpO(spec, a.o, b.o) || a.id - b.id);
    part.forEach((row, i) => {
      const f = frameOf(spec, part, i);
      const xs = f.map((r) => r.x).filter((x): x is number => x !== null);
      const nonNull = f.filter((r) => r.x !== null);
      const ds = f.map((r) => r.d).filter((d): d is number => d !== null);
      const ts = f
        .map((r) => r.t)
        .filter((t): t is string => t !== null)
        .sort();
      // Spark adds a frame's rows in order, starting from 0.
      const dsum = ds.reduce((a, b) => a + b, 0);
      out.set(row.id, {
        s: xs.length ? xs.reduce((a, b) => a + b, 0) : null,
        n: xs.length,
        mn: xs.length ? Math.min(...xs) : null,
        mx: xs.length ? Math.max(...xs) : null,
        a: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null,
        cl: xs,
        f: f.length ? f[0]!.x : null,
        lnn: nonNull.length ? nonNull[nonNull.length - 1]!.x : null,
        n2: f.length >= 2 ? f[1]!.x : null,
        n2nn: nonNull.length >= 2 ? nonNull[1]!.x : null,
        ds: ds.length ? dsum : null,
        da: ds.length ? dsum / ds.length : null,
        dmx: ds.length ? Math.max(...ds) : null,
        tmn: ts.length ? ts[0] : null,
        tmx: ts.length ? ts[ts.length - 1] : null,
      });
    });
  }
  return out;
}

describe("aggregates over window frames", () => {
  it("equal a naive per-row reference for ROWS and RANGE frames with ties and NULLs", async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, specArb, async (rows, spec) => {
        const df = s.createDataFrame(rows, "id INT, k INT, o INT, x INT, d DOUBLE, t STRING");
        const o = spec.asc
          ? spec.nullsFirst
            ? F.col("o").asc_nulls_first()
            : F.col("o").asc_nulls_last()
          : spec.nullsFirst
            ? F.col("o").desc_nulls_first()
            : F.col("o").desc_nulls_last();
        const base = Window.partitionBy("k").orderBy(o);
        const lo = spec.lower ?? Window.unboundedPreceding;
        const hi = spec.upper ?? Window.unboundedFollowing;
        const w = spec.type === "rows" ? base.rowsBetween(lo, hi) : base.rangeBetween(lo, hi);
        const got = await df
          .select(
            "id",
            F.sum("x").over(w).alias("s"),
            F.count("x").over(w).alias("n"),
            F.min("x").over(w).alias("mn"),
            F.max("x").over(w).alias("mx"),
            F.avg("x").over(w).alias("a"),
            F.collect_list("x").over(w).alias("cl"),
            F.first("x").over(w).alias("f"),
            F.last("x", true).over(w).alias("lnn"),
            F.nth_value("x", 2).over(w).alias("n2"),
            F.nth_value("x", 2, true).over(w).alias("n2nn"),
            F.sum("d").over(w).alias("ds"),
            F.avg("d").over(w).alias("da"),
            F.max("d").over(w).alias("dmx"),
            F.min("t").over(w).alias("tmn"),
            F.max("t").over(w).alias("tmx"),
          )
          .collect();
        const want = reference(rows, spec);
        assert.equal(got.length, rows.length);
        for (const g of got) {
          const { id, ...rest } = g as Record<string, unknown> & { id: number };
          const r = want.get(id)!;
          const a = rest.a as number | null;
          assert.ok(a === r.a || (a !== null && r.a !== null && Math.abs(a - (r.a as number)) < 1e-9), `avg of row ${id}`);
          assert.deepEqual({ ...rest, a: r.a }, r, `row ${id} of ${JSON.stringify(spec)}`);
        }
      }),
      { numRuns: 150 },
    );
  });
});
