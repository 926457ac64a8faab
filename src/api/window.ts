/**
 * `Window` and `WindowSpec` (PySpark's pyspark.sql.Window): a window specification —
 * PARTITION BY, ORDER BY and an optional frame — for `column.over(spec)`.
 *
 * Frame bounds are numbers as in PySpark: `Window.unboundedPreceding` / `unboundedFollowing`
 * (or anything at or beyond ±2^63, or ±Infinity), `Window.currentRow` (0), and row counts
 * (`rowsBetween(-1, 1)`) or order-key distances (`rangeBetween(-10, 0)`).
 */
import { IllegalArgumentException } from "../common/errors.js";
import { type Expr, type SortOrder, sortOrder, type WindowFrame } from "../plan/expressions.js";
import { type ColumnOrName, toExpr } from "./column.js";

type Cols = (ColumnOrName | ColumnOrName[])[];

/** PySpark's -2^63 and 2^63 - 1, which as doubles are -2^63 and 2^63. */
const LONG_MIN = -(2 ** 63);
const LONG_MAX = 2 ** 63;

function bound(v: number | bigint, which: "start" | "end", type: "rows" | "range"): number | null {
  const x = typeof v === "bigint" ? Number(v) : v;
  if (typeof x !== "number" || Number.isNaN(x))
    throw new IllegalArgumentException(`Window frame ${which} must be a number, got ${String(v)}`);
  if (which === "start" && x <= LONG_MIN + 1) return null;
  if (which === "end" && x >= LONG_MAX - 1) return null;
  if (which === "start" && x >= LONG_MAX - 1) throw new IllegalArgumentException("Window frame start cannot be UNBOUNDED FOLLOWING");
  if (which === "end" && x <= LONG_MIN + 1) throw new IllegalArgumentException("Window frame end cannot be UNBOUNDED PRECEDING");
  if (type === "rows" && !Number.isInteger(x)) throw new IllegalArgumentException(`rowsBetween takes whole row counts, got ${x}`);
  return x;
}

function orders(cols: Cols): SortOrder[] {
  return (cols.flat() as ColumnOrName[]).map((c) => {
    const e = toExpr(c);
    return e.kind === "sortOrder" ? e : sortOrder(e, true);
  });
}

export class WindowSpec {
  /** @internal */
  constructor(
    readonly partitionSpec: readonly Expr[] = [],
    readonly orderSpec: readonly SortOrder[] = [],
    readonly frame: WindowFrame | null = null,
  ) {}
  partitionBy(...cols: Cols): WindowSpec {
    return new WindowSpec((cols.flat() as ColumnOrName[]).map(toExpr), this.orderSpec, this.frame);
  }
  orderBy(...cols: Cols): WindowSpec {
    return new WindowSpec(this.partitionSpec, orders(cols), this.frame);
  }
  /** ROWS BETWEEN start AND end, in rows relative to the current one (negative = preceding). */
  rowsBetween(start: number | bigint, end: number | bigint): WindowSpec {
    return this.between("rows", start, end);
  }
  /** RANGE BETWEEN start AND end, as distances from the current row's ORDER BY value. */
  rangeBetween(start: number | bigint, end: number | bigint): WindowSpec {
    return this.between("range", start, end);
  }
  private between(type: "rows" | "range", start: number | bigint, end: number | bigint): WindowSpec {
    const frame: WindowFrame = { type, lower: bound(start, "start", type), upper: bound(end, "end", type), numericBounds: true };
    return new WindowSpec(this.partitionSpec, this.orderSpec, frame);
  }
}

// biome-ignore lint/complexity/noStaticOnlyClass: PySpark's Window is a class of static builders
export class Window {
  static readonly unboundedPreceding = LONG_MIN;
  static readonly unboundedFollowing = LONG_MAX;
  static readonly currentRow = 0;
  static partitionBy(...cols: Cols): WindowSpec {
    return new WindowSpec().partitionBy(...cols);
  }
  static orderBy(...cols: Cols): WindowSpec {
    return new WindowSpec().orderBy(...cols);
  }
  static rowsBetween(start: number | bigint, end: number | bigint): WindowSpec {
    return new WindowSpec().rowsBetween(start, end);
  }
  static rangeBetween(start: number | bigint, end: number | bigint): WindowSpec {
    return new WindowSpec().rangeBetween(start, end);
  }
}
