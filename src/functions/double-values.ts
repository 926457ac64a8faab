/**
 * Aggregates Spark computes in doubles (percentile_approx's summary, histogram_numeric's bins):
 * a value of the column's type as a double, and a double result back in the column's type as
 * Spark converts it (Scala's toInt / toLong truncation, toFloat, Decimal(double) at the type's
 * scale).
 */
import type { DataType } from "../types/datatypes.js";
import { fromDouble, toDouble, unscaledOf } from "../types/decimal.js";
import { Decimal } from "../types/decimal-value.js";

export function asDouble(v: unknown, t: DataType): number {
  if (v instanceof Decimal) return v.toNumber();
  if (t.kind === "decimal") return toDouble(unscaledOf(v), t.scale);
  return Number(v);
}

export function fromDoubleAs(x: number, t: DataType): unknown {
  switch (t.kind) {
    case "tinyint":
    case "smallint":
    case "int":
    case "date":
      return Math.trunc(x) | 0;
    case "bigint":
    case "timestamp":
    case "interval":
      return Math.trunc(x);
    case "float":
      return Math.fround(x);
    case "decimal": {
      const u = fromDouble(x, t.precision, t.scale);
      return u === null ? null : t.precision <= 15 ? Number(u) : u;
    }
    default:
      return x;
  }
}
