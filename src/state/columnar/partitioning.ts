/**
 * The state partition of each row of a batch, computed from its key vectors before the rows
 * reach a table: the same value `partitionsOf` (vectors.ts) gives the row's entry once it is
 * stored, so rows can be routed to the thread that owns their partition's files
 * (docs/parallel-execution.md). The two functions must agree exactly; the property test
 * test/state/columnar-partitioning.property.test.ts holds them together.
 */
import { hashInt64, isInt64Type } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";
import { fmix, hashNumber, hashString, mix, NULL_HASH, SEED } from "../../common/hash.js";
import type { ColumnarSchema } from "./schema.js";

/** Partition (0 ≤ p < numPartitions) of each of the n rows whose key columns are `keys`. */
export function keyPartitions(schema: ColumnarSchema, keys: readonly Vector[], n: number, numPartitions: number): Int32Array {
  const out = new Int32Array(n);
  if (numPartitions <= 1) return out;
  const h = new Int32Array(n).fill(SEED);
  schema.keys.forEach((k, c) => {
    const v = keys[c]!;
    const valid = v.validity;
    if (k.kind === "null") {
      for (let i = 0; i < n; i++) h[i] = mix(h[i]!, NULL_HASH);
    } else if (k.kind === "num") {
      const vals = v.values as Float64Array | Int32Array | Uint8Array | BigInt64Array;
      // BIGINT/TIMESTAMP by exact value on either lane, as partitionsOf (vectors.ts) does
      const hash = isInt64Type(k.type) ? hashInt64 : (x: number | bigint) => hashNumber(x as number);
      for (let i = 0; i < n; i++) h[i] = mix(h[i]!, valid !== null && valid[i] === 0 ? NULL_HASH : hash(vals[i]!));
    } else if (k.kind === "str") {
      const vals = v.values as (string | null)[];
      // consecutive rows often repeat a key: hash each run once
      let last: string | null = null;
      let lastHash = 0;
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) {
          h[i] = mix(h[i]!, NULL_HASH);
          continue;
        }
        const s = vals[i]!;
        if (s !== last) {
          last = s;
          lastHash = hashString(s);
        }
        h[i] = mix(h[i]!, lastHash);
      }
    } else {
      const tuples = structHashes(v, k.fields.length, n);
      for (let i = 0; i < n; i++) h[i] = mix(h[i]!, valid !== null && valid[i] === 0 ? NULL_HASH : tuples[i]!);
    }
  });
  for (let i = 0; i < n; i++) out[i] = (fmix(h[i]!) >>> 0) % numPartitions;
  return out;
}

/** The tuple dictionary's hash of each row's struct value (dictionary.ts `TupleDict.getOrAdd`). */
function structHashes(v: Vector, width: number, n: number): Int32Array {
  const kids = v.children!;
  const out = new Int32Array(n).fill(SEED);
  for (let f = 0; f < width; f++) {
    const vals = kids[f]!.values as Float64Array | Int32Array | Uint8Array;
    const valid = kids[f]!.validity;
    for (let i = 0; i < n; i++) out[i] = mix(out[i]!, valid !== null && valid[i] === 0 ? NULL_HASH : hashNumber(vals[i]!));
  }
  return out;
}

/**
 * Each of `n` rows' owning state thread (partition p belongs to thread p mod `owners`, as
 * StatePartitionThreads.owned assigns them) and the rows per thread: what `scatter` splits by.
 */
export function ownersOf(partitions: Int32Array, n: number, owners: number): { owner: Int32Array; counts: Int32Array } {
  const owner = new Int32Array(n);
  const counts = new Int32Array(owners);
  for (let i = 0; i < n; i++) {
    const w = partitions[i]! % owners;
    owner[i] = w;
    counts[w]!++;
  }
  return { owner, counts };
}
