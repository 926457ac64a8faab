/**
 * Key coding for the columnar state table (table.ts): a batch's key vectors become per-lane
 * codes (dictionary ids for STRING and STRUCT keys, values for numeric ones), the row hashes
 * that place them in the index, and the comparison of a coded row with a stored entry.
 *
 * The coder owns the lane layout and the dictionaries; the table aliases them (the arrays never
 * change after construction) and keeps the entries. Everything here works a column at a time
 * over typed arrays: no closure or object per row.
 */
import { hashInt64, isInt64Type, isWide, MAX_SAFE } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";
import { fmix, hashNumber, mix, NULL_HASH, SEED } from "../../common/hash.js";
import { StringDict, TupleDict } from "./dictionary.js";
import { numberCodes, stringCodes, tupleCodes } from "./lane-codes.js";
import type { KeyColumn } from "./schema.js";

/** Where key column c lives: an int lane, an f64 lane, or nowhere (NULL type). */
export interface LaneRef {
  readonly lane: "i" | "f" | "none";
  readonly index: number;
}

/** Codes of one batch's keys, lane by lane. */
export interface Codes {
  ints: Int32Array[];
  /** BIGINT/TIMESTAMP lanes may be wide (columnar/int64.ts); the table aligns them with its columns. */
  f64s: (Float64Array | BigInt64Array)[];
  /** Per lane (ints first, then f64s), null = all valid. */
  valid: (Uint8Array | null)[];
}

export class KeyCoder {
  readonly lanes: readonly LaneRef[];
  readonly nInt: number;
  readonly nF64: number;
  /** Dictionary of int lane j (STRING / STRUCT keys), or null for inline values. */
  readonly strDicts: readonly (StringDict | null)[];
  readonly tupleDicts: readonly (TupleDict | null)[];
  /** Per f64 lane: does it hold BIGINT/TIMESTAMP values (hashed by exact value beyond ±2^53 − 1)? */
  readonly int64Lanes: readonly boolean[];

  constructor(private readonly keys: readonly KeyColumn[]) {
    let nInt = 0;
    let nF64 = 0;
    const strDicts: (StringDict | null)[] = [];
    const tupleDicts: (TupleDict | null)[] = [];
    this.lanes = keys.map((k): LaneRef => {
      if (k.kind === "null") return { lane: "none", index: -1 };
      if (k.kind === "num" && k.phys === "f64") return { lane: "f", index: nF64++ };
      strDicts.push(k.kind === "str" ? new StringDict() : null);
      tupleDicts.push(k.kind === "struct" ? new TupleDict(k.fields.length) : null);
      return { lane: "i", index: nInt++ };
    });
    this.nInt = nInt;
    this.nF64 = nF64;
    this.int64Lanes = keys.filter((k) => k.kind === "num" && k.phys === "f64").map((k) => isInt64Type(k.type));
    this.strDicts = strDicts;
    this.tupleDicts = tupleDicts;
  }

  /** Per-lane codes for n rows of key vectors; `add`: add unseen dictionary values (else they get -2, "absent"). */
  codesOf(keys: readonly Vector[], n: number, add: boolean): Codes {
    const ints: Int32Array[] = new Array(this.nInt);
    const f64s: (Float64Array | BigInt64Array)[] = new Array(this.nF64);
    const valid: (Uint8Array | null)[] = new Array(this.nInt + this.nF64).fill(null);
    this.keys.forEach((k, c) => {
      const ref = this.lanes[c]!;
      if (ref.lane === "none") return;
      const v = keys[c]!;
      if (ref.lane === "f") {
        const vals = v.values as Float64Array | BigInt64Array;
        const val = v.validity;
        if (val === null) f64s[ref.index] = vals.length === n ? vals : vals.subarray(0, n);
        else if (isWide(vals)) {
          const out = new BigInt64Array(n);
          for (let i = 0; i < n; i++) out[i] = val[i] === 0 ? 0n : vals[i]!;
          f64s[ref.index] = out;
          valid[this.nInt + ref.index] = val;
        } else {
          const out = new Float64Array(n);
          for (let i = 0; i < n; i++) out[i] = val[i] === 0 ? 0 : vals[i]!;
          f64s[ref.index] = out;
          valid[this.nInt + ref.index] = val;
        }
        return;
      }
      ints[ref.index] = this.intCodes(k, ref.index, v, n, add, valid);
    });
    return { ints, f64s, valid };
  }

  /**
   * Int lane j's codes. One method per kind of key, each with its own loop: one method for all
   * three was recompiled (with all three loops inlined, 30–65 ms each time) whenever a query
   * of another key shape first reached it (--trace-opt: 10 compiles over the benchmark's queries).
   */
  private intCodes(k: KeyColumn, j: number, v: Vector, n: number, add: boolean, valid: (Uint8Array | null)[]): Int32Array {
    const out = new Int32Array(n);
    if (k.kind === "num") {
      numberCodes(v, n, out);
      valid[j] = v.validity;
    } else if (k.kind === "str") stringCodes(this.strDicts[j]!, v, n, add, out);
    else tupleCodes(this.tupleDicts[j]!, v, n, add, out);
    return out;
  }

  /** Each row's hash over its lanes (the index's probe start); the two common shapes take a loop of their own. */
  rowHashes(codes: Codes, n: number): Int32Array {
    const allValid = codes.valid.every((v) => v === null || v === undefined);
    if (this.nF64 === 0 && this.nInt <= 2 && this.nInt > 0 && allValid) {
      // the common shape (window + string key, string key, ...)
      return this.nInt === 1 ? hashOneInt(codes.ints[0]!, n) : hashTwoInts(codes.ints[0]!, codes.ints[1]!, n);
    }
    const f0 = this.nF64 === 1 ? codes.f64s[0]! : null;
    if (this.nInt === 1 && f0 !== null && !isWide(f0) && allValid) {
      // a window and a numeric key (Nexmark q5's window and auction): the same hashes as below
      return hashIntAndNumber(codes.ints[0]!, f0, this.int64Lanes[0]!, n);
    }
    const h = new Int32Array(n).fill(SEED);
    for (let j = 0; j < this.nInt; j++) mixInts(h, codes.ints[j]!, codes.valid[j] ?? null, n);
    for (let j = 0; j < this.nF64; j++) {
      const c = codes.f64s[j]!;
      const v = codes.valid[this.nInt + j] ?? null;
      if (this.int64Lanes[j]) {
        // Equal values hash alike on either lane (columnar/int64.ts); safe doubles as before.
        if (isWide(c)) mixWideInt64s(h, c, v, n);
        else mixInt64s(h, c, v, n);
        continue;
      }
      if (isWide(c)) throw new Error("a DOUBLE key lane cannot be wide");
      mixDoubles(h, c, v, n);
    }
    for (let i = 0; i < n; i++) h[i] = fmix(h[i]!);
    return h;
  }
}

// rowHashes' loops, one per function (docs/architecture.md, "Hot path rules")

function hashOneInt(c0: Int32Array, n: number): Int32Array {
  const h = new Int32Array(n);
  for (let i = 0; i < n; i++) h[i] = fmix(mix(SEED, c0[i]!));
  return h;
}

function hashTwoInts(c0: Int32Array, c1: Int32Array, n: number): Int32Array {
  const h = new Int32Array(n);
  for (let i = 0; i < n; i++) h[i] = fmix(mix(mix(SEED, c0[i]!), c1[i]!));
  return h;
}

function hashIntAndNumber(c0: Int32Array, f0: Float64Array, int64: boolean, n: number): Int32Array {
  const h = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = f0[i]!;
    const hx = int64 && !(x <= MAX_SAFE && x >= -MAX_SAFE) ? hashInt64(x) : hashNumber(x);
    h[i] = fmix(mix(mix(SEED, c0[i]!), hx));
  }
  return h;
}

function mixInts(h: Int32Array, c: Int32Array, v: Uint8Array | null, n: number): void {
  if (v === null) for (let i = 0; i < n; i++) h[i] = mix(h[i]!, c[i]!);
  else for (let i = 0; i < n; i++) h[i] = mix(h[i]!, v[i] === 0 ? NULL_HASH : c[i]!);
}

function mixWideInt64s(h: Int32Array, c: BigInt64Array, v: Uint8Array | null, n: number): void {
  for (let i = 0; i < n; i++) h[i] = mix(h[i]!, v !== null && v[i] === 0 ? NULL_HASH : hashInt64(c[i]!));
}

function mixInt64s(h: Int32Array, c: Float64Array, v: Uint8Array | null, n: number): void {
  for (let i = 0; i < n; i++) {
    const x = c[i]!;
    h[i] = mix(h[i]!, v !== null && v[i] === 0 ? NULL_HASH : x <= MAX_SAFE && x >= -MAX_SAFE ? hashNumber(x) : hashInt64(x));
  }
}

function mixDoubles(h: Int32Array, c: Float64Array, v: Uint8Array | null, n: number): void {
  if (v === null) for (let i = 0; i < n; i++) h[i] = mix(h[i]!, hashNumber(c[i]!));
  else for (let i = 0; i < n; i++) h[i] = mix(h[i]!, v[i] === 0 ? NULL_HASH : hashNumber(c[i]!));
}

/**
 * Does stored entry e (key lanes `ik`, `fk`, lane validity `kv` of the table) hold row i's key?
 * NaN equals NaN; a lane without a validity column is all valid.
 */
export function entryMatches(
  ik: readonly Int32Array[],
  fk: readonly (Float64Array | BigInt64Array)[],
  kv: readonly (Uint8Array | null)[],
  e: number,
  codes: Codes,
  i: number,
): boolean {
  for (let j = 0; j < ik.length; j++) if (ik[j]![e] !== codes.ints[j]![i]) return false;
  for (let j = 0; j < fk.length; j++) {
    // the table aligned the lanes (both doubles or both bigints): === compares values
    const a = fk[j]![e]!;
    const b = codes.f64s[j]![i]!;
    if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) return false;
  }
  for (let l = 0; l < kv.length; l++) {
    const ev = kv[l];
    const rv = codes.valid[l];
    const a = ev === null ? 1 : ev[e]!;
    const b = rv === null || rv === undefined ? 1 : rv[i]!;
    if (a !== b) return false;
  }
  return true;
}

/** A key lane's values: an int lane's codes or an f64 lane's doubles (never the wide lane here). */
export type LaneValues = Int32Array | Float64Array;

/**
 * The batch's lanes when rows can be matched on at most two lanes by value alone (int codes or
 * doubles; no wide lane, no NULL validity in the batch nor, `kv`, in the table's entries):
 * ints first, then f64s, as the table stores them; null otherwise. A window and a BIGINT id
 * (Nexmark q5) or a window and a string's code (checkout seed queries) qualify.
 */
export function simpleLanes(codes: Codes, kv: readonly (Uint8Array | null)[]): LaneValues[] | null {
  const lanes = codes.ints.length + codes.f64s.length;
  if (lanes === 0 || lanes > 2) return null;
  for (const v of kv) if (v !== null) return null;
  for (const v of codes.valid) if (v !== null && v !== undefined) return null;
  const out: LaneValues[] = [...codes.ints];
  for (const f of codes.f64s) {
    if (isWide(f)) return null;
    out.push(f);
  }
  return out;
}

/** Lane values equal as key values: `===`, but NaN equals NaN (as `entryMatches` has it). */
export function laneEquals(x: number, y: number): boolean {
  return x === y || (Number.isNaN(x) && Number.isNaN(y));
}
