/**
 * The output checksum both engines compute (bench/pyspark/canonical.py is the Python twin):
 * each row becomes a JSON array of canonical values, the lines are sorted (code-point order)
 * and hashed with SHA-256 joined by "\n".
 *
 *   BIGINT / INT   decimal digits              TIMESTAMP   epoch microseconds (integer)
 *   DOUBLE         shortest round-trip digits as "d.ddde<exp>" ("9.08e1", "1e7", "0e0")
 *   STRING         the JSON string             BOOLEAN     true / false        NULL  null
 */
import { createHash } from "node:crypto";

export type Canon = (v: unknown) => unknown;

export function canonDouble(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "Inf";
  if (x === Number.NEGATIVE_INFINITY) return "-Inf";
  if (x === 0) return "0e0";
  const [m, e] = x.toExponential().split("e") as [string, string];
  return `${m}e${Number(e)}`;
}

export function canonForType(kind: string): Canon {
  switch (kind) {
    case "timestamp":
      return (v) => (v === null || v === undefined ? null : ((v as Date & { micros?: number }).micros ?? (v as Date).getTime() * 1000));
    case "double":
      return (v) => (v === null || v === undefined ? null : canonDouble(v as number));
    case "int":
    case "bigint":
      return (v) => (v === null || v === undefined ? null : Number(v));
    default:
      return (v) => (v === undefined ? null : v);
  }
}

export class Checksum {
  private lines: string[] = [];
  private count = 0;
  add(line: string): void {
    this.lines.push(line);
    this.count++;
  }
  get rows(): number {
    return this.count;
  }
  /**
   * Sort, hash and drop the lines: the sink closure holding this object can outlive the query
   * (the session keeps the last terminated query), and millions of retained lines would slow
   * the next query's timed run with garbage collection.
   */
  digest(): string {
    // Code-point order, as Python sorts str (the lines are ASCII-only JSON).
    const lines = this.lines;
    this.lines = [];
    lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const h = createHash("sha256");
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) h.update("\n");
      h.update(lines[i]!);
    }
    return h.digest("hex");
  }
}
