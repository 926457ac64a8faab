/**
 * The value columns of the columnar join state (docs/state.md, "Columnar join state"): one
 * column per field of a side's rows, indexed by row id. Numbers live in a `Float64Array` with a
 * validity byte, windows and other structs of numbers in one `Float64Array` per field, anything
 * else (strings, booleans, wide BIGINTs, arrays, maps...) in a plain array. A numeric column
 * that meets a value it cannot hold (a BIGINT beyond ±2^53 − 1 arrives as a bigint) becomes a
 * plain column for good, so no value is ever changed on the way in or out.
 */
import { isInt64Type, isSafe } from "../../columnar/int64.js";
import { getValue, makeVector, physicalOf, type Vector, vectorFromValues } from "../../columnar/vector.js";
import { setField } from "../../common/row-object.js";
import type { DataType } from "../../types/datatypes.js";
import { decodeKeyField, encodeKeyField } from "../codec.js";

/** Column kinds, as written in state files (format.ts). */
export const F64 = 0;
export const STRUCT = 1;
export const ANY = 2;

export interface JoinColumn {
  readonly kind: typeof F64 | typeof STRUCT | typeof ANY;
  get(i: number): unknown;
  /** Stores `v` at row `i`; false when this kind cannot hold it (the table then widens the column). */
  set(i: number, v: unknown): boolean;
  /** Stores row `j` of vector `v` (of this column's type) at row `i`, as `set(i, getValue(v, j))` would. */
  setFrom(i: number, v: Vector, j: number): boolean;
  /** Makes room for rows `0 .. cap - 1`. */
  grow(cap: number): void;
  /** Row `from`'s value moves to row `to` (compaction, to <= from). */
  move(to: number, from: number): void;
  /** Rows from `n` on are gone: drop what they reference. */
  truncate(n: number): void;
  /** Keeps room for `cap` rows only (after a compaction shrank the state). */
  shrink(cap: number): void;
  /** The column of rows `ids`, as state files hold it (format.ts). */
  encode(ids: ArrayLike<number>): unknown[];
  bytes(): number;
}

const numeric = (t: DataType): boolean => {
  const p = physicalOf(t);
  return p === "f64" || p === "i32";
};

/** What column a field of this type starts as. */
export function columnFor(t: DataType): JoinColumn {
  if (numeric(t)) return new F64Column();
  if (
    t.kind === "struct" &&
    t.fields.length > 0 &&
    t.fields.every((f) => numeric(f.type)) &&
    new Set(t.fields.map((f) => f.name)).size === t.fields.length
  )
    return new StructColumn(t.fields.map((f) => f.name));
  return new AnyColumn();
}

function grown<T extends Float64Array | Uint8Array>(a: T, cap: number, make: (n: number) => T): T {
  if (a.length >= cap) return a;
  const b = make(cap);
  b.set(a);
  return b;
}

export class F64Column implements JoinColumn {
  readonly kind = F64;
  values: Float64Array = new Float64Array(0);
  valid: Uint8Array = new Uint8Array(0);

  get(i: number): unknown {
    return this.valid[i] ? this.values[i] : null;
  }
  set(i: number, v: unknown): boolean {
    if (typeof v === "number") {
      this.values[i] = v;
      this.valid[i] = 1;
      return true;
    }
    if (v === null || v === undefined) {
      this.valid[i] = 0;
      return true;
    }
    return false;
  }
  setFrom(i: number, v: Vector, j: number): boolean {
    if (v.validity !== null && v.validity[j] === 0) {
      this.valid[i] = 0;
      return true;
    }
    const vals = v.values;
    if (vals instanceof Float64Array || vals instanceof Int32Array) {
      const x = vals[j]!;
      // A BIGINT beyond ±2^53 - 1 reads back as a bigint: leave it to set (which refuses it).
      if (!isInt64Type(v.type) || isSafe(x) || !Number.isInteger(x)) {
        this.values[i] = x;
        this.valid[i] = 1;
        return true;
      }
    }
    return this.set(i, getValue(v, j));
  }
  grow(cap: number): void {
    this.values = grown(this.values, cap, (n) => new Float64Array(n));
    this.valid = grown(this.valid, cap, (n) => new Uint8Array(n));
  }
  move(to: number, from: number): void {
    this.values[to] = this.values[from]!;
    this.valid[to] = this.valid[from]!;
  }
  truncate(): void {}
  shrink(cap: number): void {
    this.values = this.values.slice(0, cap);
    this.valid = this.valid.slice(0, cap);
  }
  encode(ids: ArrayLike<number>): unknown[] {
    const v = new Float64Array(ids.length);
    const ok = new Uint8Array(ids.length);
    for (let j = 0; j < ids.length; j++) {
      v[j] = this.values[ids[j]!]!;
      ok[j] = this.valid[ids[j]!]!;
    }
    return [F64, v, ok];
  }
  bytes(): number {
    return this.values.byteLength + this.valid.byteLength;
  }
}

/** A struct of numeric fields (a window): one Float64Array per field; rows read back as fresh objects. */
export class StructColumn implements JoinColumn {
  readonly kind = STRUCT;
  valid: Uint8Array = new Uint8Array(0);
  readonly fields: F64Column[];

  constructor(readonly names: readonly string[]) {
    this.fields = names.map(() => new F64Column());
  }
  get(i: number): unknown {
    if (!this.valid[i]) return null;
    const o: Record<string, unknown> = {};
    for (let f = 0; f < this.names.length; f++) setField(o, this.names[f]!, this.fields[f]!.get(i));
    return o;
  }
  set(i: number, v: unknown): boolean {
    if (v === null || v === undefined) {
      this.valid[i] = 0;
      return true;
    }
    if (typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype) return false;
    const o = v as Record<string, unknown>;
    // Exactly the declared fields, each a number or NULL: anything else keeps the object as is.
    let n = 0;
    for (const k in o) {
      if (!Object.hasOwn(o, k)) return false;
      n++;
    }
    if (n !== this.names.length) return false;
    for (let f = 0; f < this.names.length; f++) {
      const name = this.names[f]!;
      if (!Object.hasOwn(o, name)) return false;
      const x = o[name];
      if (x !== null && typeof x !== "number") return false;
    }
    for (let f = 0; f < this.names.length; f++) this.fields[f]!.set(i, o[this.names[f]!]);
    this.valid[i] = 1;
    return true;
  }
  setFrom(i: number, v: Vector, j: number): boolean {
    const children = v.children;
    if (!children || children.length !== this.fields.length) return this.set(i, getValue(v, j));
    if (v.validity !== null && v.validity[j] === 0) {
      this.valid[i] = 0;
      return true;
    }
    for (let f = 0; f < this.fields.length; f++) if (!this.fields[f]!.setFrom(i, children[f]!, j)) return this.set(i, getValue(v, j));
    this.valid[i] = 1;
    return true;
  }
  grow(cap: number): void {
    this.valid = grown(this.valid, cap, (n) => new Uint8Array(n));
    for (const f of this.fields) f.grow(cap);
  }
  move(to: number, from: number): void {
    this.valid[to] = this.valid[from]!;
    for (const f of this.fields) f.move(to, from);
  }
  truncate(): void {}
  shrink(cap: number): void {
    this.valid = this.valid.slice(0, cap);
    for (const f of this.fields) f.shrink(cap);
  }
  encode(ids: ArrayLike<number>): unknown[] {
    const ok = new Uint8Array(ids.length);
    for (let j = 0; j < ids.length; j++) ok[j] = this.valid[ids[j]!]!;
    return [STRUCT, ok, this.fields.map((f) => f.encode(ids).slice(1))];
  }
  bytes(): number {
    return this.valid.byteLength + this.fields.reduce((n, f) => n + f.bytes(), 0);
  }
}

/** Any value, kept as the row held it. */
export class AnyColumn implements JoinColumn {
  readonly kind = ANY;
  values: unknown[] = [];

  get(i: number): unknown {
    return this.values[i] ?? null;
  }
  set(i: number, v: unknown): boolean {
    this.values[i] = v;
    return true;
  }
  setFrom(i: number, v: Vector, j: number): boolean {
    this.values[i] = getValue(v, j);
    return true;
  }
  grow(): void {}
  move(to: number, from: number): void {
    this.values[to] = this.values[from];
  }
  truncate(n: number): void {
    if (this.values.length > n) this.values.length = n;
  }
  shrink(): void {}
  encode(ids: ArrayLike<number>): unknown[] {
    const v = new Array<unknown>(ids.length);
    for (let j = 0; j < ids.length; j++) {
      const x = this.values[ids[j]!] ?? null;
      // A string with a lone surrogate goes as its code units (UTF-8 would turn it into U+FFFD).
      v[j] = typeof x === "string" ? encodeKeyField(x) : x;
    }
    return [ANY, v];
  }
  bytes(): number {
    // An estimate: a slot, plus a small string or object per value.
    return this.values.length * 40;
  }
}

/** A plain column holding the values rows `0 .. n - 1` of `c` hold. */
export function widened(c: JoinColumn, n: number): AnyColumn {
  const a = new AnyColumn();
  a.values = new Array<unknown>(n);
  for (let i = 0; i < n; i++) a.values[i] = c.get(i);
  return a;
}

function decodeF64(v: unknown, ok: unknown, n: number): ((j: number) => unknown) | null {
  if (!(v instanceof Float64Array) || !(ok instanceof Uint8Array) || v.length !== n || ok.length !== n) return null;
  return (j) => (ok[j] ? v[j] : null);
}

/**
 * A reader of column `x` of a file chunk of `n` rows (as `encode` wrote it); null if malformed.
 * `names`: the field names of the column's struct type (the file's shape was checked against it).
 */
export function decodeColumn(x: unknown, n: number, names: readonly string[] | null): ((j: number) => unknown) | null {
  if (!Array.isArray(x)) return null;
  if (x[0] === F64) return decodeF64(x[1], x[2], n);
  if (x[0] === STRUCT) {
    const [, ok, fields] = x as [number, unknown, unknown];
    if (!names || !(ok instanceof Uint8Array) || ok.length !== n || !Array.isArray(fields) || fields.length !== names.length) return null;
    const readers = fields.map((f) => (Array.isArray(f) ? decodeF64(f[0], f[1], n) : null));
    if (readers.some((r) => r === null)) return null;
    return (j) => {
      if (!ok[j]) return null;
      const o: Record<string, unknown> = {};
      for (let f = 0; f < names.length; f++) setField(o, names[f]!, readers[f]!(j));
      return o;
    };
  }
  if (x[0] === ANY) {
    const v = x[1];
    if (!Array.isArray(v) || v.length !== n) return null;
    // No value of a row is a Uint16Array but a string written as its code units.
    return (j) => {
      const e = v[j] ?? null;
      return e instanceof Uint16Array ? decodeKeyField(e) : e;
    };
  }
  return null;
}

/**
 * Rows `refs` of a column kept in `parts` partitions (a ref is `row * parts.length + partition`,
 * -1: NULL) as a vector of `type`: numbers and structs of numbers straight from the typed
 * arrays, anything else through the values (`vectorFromValues`).
 */
export function gatherColumn(parts: readonly JoinColumn[], type: DataType, refs: readonly number[]): Vector {
  const n = refs.length;
  const p = parts.length;
  const phys = physicalOf(type);
  if ((phys === "f64" || phys === "i32") && parts.every((c) => c instanceof F64Column)) {
    const values = phys === "f64" ? new Float64Array(n) : new Int32Array(n);
    const validity = gatherNumbers(parts as F64Column[], refs, values);
    return makeVector(type, values, validity, n);
  }
  if (type.kind === "struct" && parts.every((c) => c instanceof StructColumn && c.fields.length === type.fields.length)) {
    const cols = parts as StructColumn[];
    const validity = structValidity(cols, refs);
    // A NULL struct's fields are NULL too, as vectorFromValues makes them.
    const fieldRefs = validity === null ? refs : refs.map((r, k) => (validity[k] === 0 ? -1 : r));
    const children = type.fields.map((f, i) =>
      gatherColumn(
        cols.map((c) => c.fields[i]!),
        f.type,
        fieldRefs,
      ),
    );
    return makeVector(type, [], validity, n, children);
  }
  return vectorFromValues(
    type,
    refs.map((r) => (r < 0 ? null : parts[r % p]!.get(Math.floor(r / p)))),
  );
}

// gatherColumn's loops, each ending its own function (docs/architecture.md, "Hot path rules"):
// optimized on the stack, the loop deopted on leaving into code that had not run yet, call after call.

/** Writes the rows `refs` of numeric columns into `values`; their validity, null when none is NULL. */
function gatherNumbers(cols: readonly F64Column[], refs: readonly number[], values: Float64Array | Int32Array): Uint8Array | null {
  const n = refs.length;
  const p = cols.length;
  let validity: Uint8Array | null = null;
  for (let k = 0; k < n; k++) {
    const r = refs[k]!;
    const c = cols[r < 0 ? 0 : r % p]!;
    const id = r < 0 ? -1 : Math.floor(r / p);
    if (id < 0 || !c.valid[id]) {
      validity ??= new Uint8Array(n).fill(1);
      validity[k] = 0;
    } else values[k] = c.values[id]!;
  }
  return validity;
}

/** The validity of the struct rows `refs`, null when none is NULL. */
function structValidity(cols: readonly StructColumn[], refs: readonly number[]): Uint8Array | null {
  const n = refs.length;
  const p = cols.length;
  let validity: Uint8Array | null = null;
  for (let k = 0; k < n; k++) {
    const r = refs[k]!;
    if (r < 0 || !cols[r % p]!.valid[Math.floor(r / p)]) {
      validity ??= new Uint8Array(n).fill(1);
      validity[k] = 0;
    }
  }
  return validity;
}
