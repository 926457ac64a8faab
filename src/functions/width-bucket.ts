/**
 * width_bucket(value, min, max, n): which of n equal-width buckets over [min, max) holds value,
 * 0 below the range and n + 1 above it (a descending range, min > max, counts the other way).
 * NULL for n <= 0 (or Long.MAX_VALUE), min = max, and NaN or infinite bounds, as Spark's.
 */
import { DoubleType, LongType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction } from "./registry.js";

const LONG_MAX = 9223372036854775807n;

export function widthBucket(value: number, min: number, max: number, buckets: number | bigint): number | bigint | null {
  if (BigInt(buckets) <= 0n || BigInt(buckets) === LONG_MAX) return null;
  if (Number.isNaN(value) || min === max || !Number.isFinite(min) || !Number.isFinite(max)) return null;
  const n = Number(buckets);
  const lower = Math.min(min, max);
  const upper = Math.max(min, max);
  if (min < max) {
    if (value < lower) return 0;
    if (value >= upper) return BigInt(buckets) + 1n;
    return Math.trunc((n * (value - lower)) / (upper - lower)) + 1;
  }
  if (value > upper) return 0;
  if (value <= lower) return BigInt(buckets) + 1n;
  return Math.trunc((n * (upper - value)) / (upper - lower)) + 1;
}

const widthBucketFn: ScalarFunction = {
  kind: "scalar",
  name: "width_bucket",
  resolve(args, types) {
    checkArity("width_bucket", args, 4);
    return {
      args: [0, 1, 2].map((i) => castTo(args[i]!, types[i]!, DoubleType)).concat(castTo(args[3]!, types[3]!, LongType)),
      type: LongType,
    };
  },
  kernel: (args, n) =>
    mapRows(LongType, args, n, (v, lo, hi, k) => {
      const r = widthBucket(v as number, lo as number, hi as number, k as number | bigint);
      return typeof r === "bigint" ? (r <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(r) : r) : r;
    }),
};

register(widthBucketFn);
