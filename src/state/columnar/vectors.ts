/**
 * Reading entries of the columnar state table (table.ts) out by id: their key and buffer
 * columns as vectors of the schema's types (for deltas, snapshots and operator output), and the
 * partition each entry's key hashes to (stable across processes: it picks the file an entry's
 * records go to). One pass per column over the ids.
 */
import { hashInt64, isInt64Type, isWide } from "../../columnar/int64.js";
import { makeVector, type Vector } from "../../columnar/vector.js";
import { fmix, hashNumber, mix, NULL_HASH, SEED } from "../../common/hash.js";
import type { StructType } from "../../types/datatypes.js";
import { gatherF64, gatherI32, gatherInt64, gatherU8 } from "./arrays.js";
import type { TupleDict } from "./dictionary.js";
import type { ColumnarTable } from "./table.js";

/** Field f of the tuples with the given codes (0 for NULL tuples and NULL fields). */
function tupleField(dict: TupleDict, f: number, codes: Int32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  const vals = dict.vals;
  const w = dict.width;
  for (let i = 0; i < n; i++) {
    const code = codes[i]!;
    out[i] = code >= 0 ? vals[code * w + f]! : 0;
  }
  return out;
}

/** Key column `col` of the given entries, as a vector of the key's type. */
export function keyVector(t: ColumnarTable, col: number, ids: Int32Array, n: number): Vector {
  const k = t.schema.keys[col]!;
  const ref = t.lanes[col]!;
  if (k.kind === "null" || ref.lane === "none") return makeVector(k.type, new Array(n).fill(null), new Uint8Array(n), n);
  if (k.kind === "num") {
    const laneValid = t.laneValidity(ref);
    const validity = laneValid !== null ? gatherU8(laneValid, ids, n) : null;
    if (ref.lane === "f") return makeVector(k.type, gatherInt64(t.fk[ref.index]!, ids, n), validity, n);
    const vals = gatherI32(t.ik[ref.index]!, ids, n);
    return makeVector(k.type, k.phys === "u8" ? Uint8Array.from(vals) : vals, validity, n);
  }
  const codes = gatherI32(t.ik[ref.index]!, ids, n);
  const anyNull = t.nullCodes[ref.index]! > 0;
  let validity: Uint8Array | null = null;
  if (anyNull) {
    validity = new Uint8Array(n);
    for (let i = 0; i < n; i++) validity[i] = codes[i]! >= 0 ? 1 : 0;
  }
  if (k.kind === "str") {
    const strings = t.strDicts[ref.index]!.strings;
    const values: (string | null)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const code = codes[i]!;
      values[i] = code >= 0 ? strings[code]! : null;
    }
    return makeVector(k.type, values, validity, n);
  }
  const dict = t.tupleDicts[ref.index]!;
  const st = k.type as StructType;
  const children = k.fields.map((phys, f) => {
    const vals = tupleField(dict, f, codes, n);
    let fvalid: Uint8Array | null = null;
    if (anyNull || dict.anyNullField(f)) {
      fvalid = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const code = codes[i]!;
        fvalid[i] = code >= 0 && ((dict.masks[code]! >>> f) & 1) === 0 ? 1 : 0;
      }
    }
    const values = phys === "f64" ? vals : phys === "i32" ? Int32Array.from(vals) : Uint8Array.from(vals);
    return makeVector(st.fields[f]!.type, values, fvalid, n);
  });
  return makeVector(k.type, [], validity, n, children);
}

/** Buffer columns of the given entries, as vectors of the buffer types. */
export function bufferVectors(t: ColumnarTable, ids: Int32Array, n: number): Vector[] {
  return t.schema.buffers.map((b, c) => {
    const src = t.bv[c]!;
    let values: Float64Array | Int32Array | Uint8Array | BigInt64Array;
    if (src instanceof Uint8Array) values = gatherU8(src, ids, n);
    else if (isWide(src)) values = gatherInt64(src, ids, n);
    else {
      const f = gatherF64(src, ids, n);
      values = b.phys === "i32" ? Int32Array.from(f) : f;
    }
    const sv = t.bvalid[c];
    return makeVector(b.type, values, sv !== null ? gatherU8(sv, ids, n) : null, n);
  });
}

/** Partition of each entry (a hash of its key values, stable across processes). */
export function partitionsOf(t: ColumnarTable, ids: Int32Array, numPartitions: number, n: number): Int32Array {
  const out = new Int32Array(n);
  if (numPartitions <= 1) return out;
  const h = new Int32Array(n).fill(SEED);
  t.schema.keys.forEach((k, c) => {
    const ref = t.lanes[c]!;
    if (ref.lane === "none") {
      for (let i = 0; i < n; i++) h[i] = mix(h[i]!, NULL_HASH);
      return;
    }
    if (ref.lane === "f" || k.kind === "num") {
      // a value: hashed as a number, whichever lane holds it
      const vals = ref.lane === "f" ? t.fk[ref.index]! : t.ik[ref.index]!;
      const valid = t.laneValidity(ref);
      // BIGINT/TIMESTAMP: by exact value on either lane (the same as hashNumber while safe)
      const hash = isInt64Type(k.type) ? hashInt64 : (x: number | bigint) => hashNumber(x as number);
      for (let i = 0; i < n; i++) {
        const e = ids[i]!;
        h[i] = mix(h[i]!, valid !== null && valid[e] === 0 ? NULL_HASH : hash(vals[e]!));
      }
      return;
    }
    // a dictionary code: the dictionary keeps each value's hash
    const codes = t.ik[ref.index]!;
    const hashes = (t.strDicts[ref.index] ?? t.tupleDicts[ref.index])!.hashes;
    for (let i = 0; i < n; i++) {
      const code = codes[ids[i]!]!;
      h[i] = mix(h[i]!, code < 0 ? NULL_HASH : hashes[code]!);
    }
  });
  for (let i = 0; i < n; i++) out[i] = (fmix(h[i]!) >>> 0) % numPartitions;
  return out;
}
