import assert from "node:assert/strict";
import type { Batch } from "../../src/columnar/batch.js";
import { utf8Of } from "../../src/columnar/utf8.js";

/**
 * Each UTF-8 column's bytes are the UTF-8 encoding of its decoded strings (byte equality,
 * hashing and length rely on it; decoding alone would hide invalid bytes as U+FFFD).
 */
export function assertCanonicalUtf8(batches: readonly Batch[]): void {
  for (const b of batches) {
    for (const c of b.columns) {
      const u = utf8Of(c);
      if (u === undefined) continue;
      for (let i = 0; i < c.length; i++) {
        const s = c.values[i];
        const own: Buffer = Buffer.from(u.bytes.subarray(u.offsets[i]!, u.offsets[i + 1]!));
        assert.deepStrictEqual(own, Buffer.from(typeof s === "string" ? s : ""), `row ${i}: ${JSON.stringify(s)}`);
      }
    }
  }
}

/** A UTF-8 vector's rows have been decoded into JS strings (its lazy `values` was read). */
export function decoded(v: object): boolean {
  const key = Object.getOwnPropertySymbols(v).find((k) => k.description === "arus.utf8.values");
  assert.ok(key !== undefined, "not a UTF-8 vector");
  return (v as Record<symbol, unknown>)[key] !== null;
}
