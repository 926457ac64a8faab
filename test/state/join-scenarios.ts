/**
 * Random stream-stream join workloads for the join property tests (columnar vs row state,
 * main thread vs state threads): rows for either side — keys with NULLs, doubles with -0, NaN
 * and NULL, event times on window boundaries, whole seconds and milliseconds — and the join a
 * scenario names (type × shape × watermark delay).
 */
import fc from "fast-check";
import { type DataFrame, functions as F } from "../../src/index.js";

export const joinRow = fc.record({
  k: fc.constantFrom("a", "b", "c", "d", null),
  d: fc.constantFrom(0, -0, 1.5, Number.NaN, null),
  ms: fc.oneof(
    fc.integer({ min: 0, max: 11 }).map((x) => x * 5000),
    fc.integer({ min: 0, max: 59 }).map((x) => x * 1000),
    fc.integer({ min: 0, max: 59_999 }),
  ),
  v: fc.oneof(fc.integer({ min: -3, max: 9 }), fc.constant(null)),
});
export type JoinRow = typeof joinRow extends fc.Arbitrary<infer T> ? T : never;

/** The join's type, its condition's shape and the watermark delay of both sides. */
export const joinKind = {
  type: fc.constantFrom("inner", "left_outer", "right_outer", "full_outer", "left_semi"),
  shape: fc.constantFrom("window", "range", "range+residual", "plain", "double-key"),
  delayMs: fc.constantFrom(0, 2000, 5000),
};
export interface JoinKind {
  type: string;
  shape: string;
  delayMs: number;
}

export const LEFT_SCHEMA = "lk STRING, ld DOUBLE, lts TIMESTAMP, lv INT";
export const RIGHT_SCHEMA = "rk STRING, rd DOUBLE, rts TIMESTAMP, rv INT";
export const leftRow = (e: JoinRow) => ({ lk: e.k, ld: e.d, lts: new Date(e.ms), lv: e.v });
export const rightRow = (e: JoinRow) => ({ rk: e.k, rd: e.d, rts: new Date(e.ms), rv: e.v });

/** A row as a JSON line of a side (`l` or `r`, LEFT_SCHEMA / RIGHT_SCHEMA): NaN as Spark's JSON reader takes it, -0 kept. */
export function jsonLine(side: "l" | "r", e: JoinRow): string {
  const d = e.d === null ? "null" : Number.isNaN(e.d) ? '"NaN"' : Object.is(e.d, -0) ? "-0.0" : String(e.d);
  const k = e.k === null ? "null" : JSON.stringify(e.k);
  const v = e.v === null ? "null" : String(e.v);
  return `{"${side}k":${k},"${side}d":${d},"${side}ts":"${new Date(e.ms).toISOString()}","${side}v":${v}}`;
}

export const RANGE = "rts >= lts - interval 5 seconds AND rts <= lts + interval 5 seconds";

/** The join, or null where Spark refuses it (outer and semi joins need a bound on the state). */
export function joinQuery(l0: DataFrame, r0: DataFrame, sc: JoinKind): DataFrame | null {
  if (sc.shape === "plain" && sc.type !== "inner") return null;
  const plain = sc.shape === "plain";
  const l = plain ? l0 : l0.withWatermark("lts", `${sc.delayMs} milliseconds`);
  const r = plain ? r0 : r0.withWatermark("rts", `${sc.delayMs} milliseconds`);
  switch (sc.shape) {
    case "window": {
      // the window is each side's one event-time column (keeping lts too: MULTIPLE_EVENT_TIME_COLUMNS)
      const lw = l.select("lk", "lv", F.window("lts", "10 seconds").alias("lw"));
      const rw = r.select("rk", "rv", F.window("rts", "10 seconds").alias("rw"));
      return lw.join(rw, F.expr("lk = rk AND lw = rw"), sc.type);
    }
    case "range":
      return l.join(r, F.expr(`lk = rk AND ${RANGE}`), sc.type);
    case "range+residual":
      return l.join(r, F.expr(`lk = rk AND ${RANGE} AND lv < rv + 3`), sc.type);
    case "double-key":
      return l.join(r, F.expr(`ld = rd AND ${RANGE}`), sc.type);
    case "plain":
      return l.join(r, F.expr("lk = rk"), sc.type);
  }
  return null;
}

/** A join run, batch by batch: its output rows (sorted) and state metrics (total, updated, removed, dropped). */
export interface JoinRun {
  rows: string[][];
  stats: number[][];
}

interface ProgressLike {
  readonly batchId: number;
  readonly stateOperators: readonly {
    numRowsTotal: number;
    numRowsUpdated: number;
    numRowsRemoved: number;
    numRowsDroppedByWatermark: number;
  }[];
}

/** Each batch's state metrics of `q`'s recent progress into `out.stats`, by batch id. */
export function recordJoinStats(q: { readonly recentProgress: readonly ProgressLike[] }, out: JoinRun): void {
  for (const p of q.recentProgress) {
    const op = p.stateOperators[0];
    if (op) out.stats[p.batchId] = [op.numRowsTotal, op.numRowsUpdated, op.numRowsRemoved, op.numRowsDroppedByWatermark];
  }
}
