/**
 * Growable column builders: readers append decoded values straight into typed arrays, so no
 * row objects exist between the parser and the finished Vector.
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import { isInt64Type, MAX_SAFE, needsWide, widen } from "../../columnar/int64.js";
import { allocValues, makeVector, physicalOf, type Vector, vectorFromValues } from "../../columnar/vector.js";
import type { DataType, StructType } from "../../types/datatypes.js";
import { Utf8Builder } from "./utf8-builder.js";
import { Validity } from "./validity.js";

export interface ColumnBuilder {
  readonly type: DataType;
  readonly length: number;
  /** Append an internal value (null = SQL NULL). */
  append(v: unknown): void;
  appendNull(): void;
  /**
   * Append the first `k` of `values` (a decoder's column buffer) with their validity (`valid[i]`
   * 0 = NULL; null = all present); NULL slots hold what appendNull would store. A builder may
   * take over a plain array of exactly `k` values: the caller hands it over for good.
   */
  appendMany(values: ArrayLike<unknown>, valid: Uint8Array | null, k: number): void;
  /** Build the vector of everything appended so far and start over. */
  finish(): Vector;
}

type Typed = Uint8Array | Int32Array | Float64Array;

/** The first `k` of `src` in a buffer of their own (not zero-filled first: every byte is written). */
function copyOf(src: Typed, k: number): Typed {
  const ctor = src.constructor as new (b: ArrayBuffer, at: number, n: number) => Typed;
  const out = new ctor(Buffer.allocUnsafeSlow(k * src.BYTES_PER_ELEMENT).buffer as ArrayBuffer, 0, k);
  out.set(src.length === k ? src : src.subarray(0, k));
  return out;
}

class TypedBuilder implements ColumnBuilder {
  length = 0;
  private values: Typed;
  private readonly validity = new Validity();
  constructor(readonly type: DataType) {
    this.values = allocValues(type, 64) as Typed;
  }
  append(v: unknown): void {
    if (v === null || v === undefined) {
      this.appendNull();
      return;
    }
    const i = this.length;
    if (i === this.values.length) this.grow();
    this.values[i] = typeof v === "boolean" ? (v ? 1 : 0) : (v as number);
    this.validity.mark(i, true, i + 1);
    this.length = i + 1;
  }
  appendNull(): void {
    const i = this.length;
    if (i === this.values.length) this.grow();
    this.values[i] = 0;
    this.validity.mark(i, false, this.values.length);
    this.length = i + 1;
  }
  appendMany(values: ArrayLike<unknown>, valid: Uint8Array | null, k: number): void {
    const i = this.length;
    const src = values as Typed;
    if (i === 0 && k >= this.values.length)
      this.values = copyOf(src, k); // one copy, no growing
    else {
      if (i + k > this.values.length) this.grow(i + k);
      this.values.set(src.length === k ? src : src.subarray(0, k), i);
    }
    this.validity.markMany(i, valid, k, i + k);
    this.length = i + k;
  }
  private grow(need = 0): void {
    const g = new (this.values.constructor as new (n: number) => Typed)(Math.max(this.values.length * 2, need));
    g.set(this.values);
    this.values = g;
  }
  finish(): Vector {
    const n = this.length;
    const values = this.values.length === n ? this.values : this.values.slice(0, n);
    const vec = makeVector(this.type, values, this.validity.take(n), n);
    this.values = allocValues(this.type, 64) as Typed;
    this.length = 0;
    return vec;
  }
}

/**
 * BIGINT/TIMESTAMP: the fast double lane until a value is not a safe integer, then the wide
 * lane (columnar/int64.ts) for the rest of the batch.
 */
class Int64Builder implements ColumnBuilder {
  private readonly fast: TypedBuilder;
  private wide: BigInt64Array | null = null;
  private wideValidity: Uint8Array | null = null;
  private n = 0;
  constructor(readonly type: DataType) {
    this.fast = new TypedBuilder(type);
  }
  get length(): number {
    return this.wide === null ? this.fast.length : this.n;
  }
  append(v: unknown): void {
    if (this.wide === null) {
      // the common case first: a safe integer (or a NULL) stays on the double lane
      if ((typeof v === "number" && v <= MAX_SAFE && v >= -MAX_SAFE) || v == null || !needsWide(v)) {
        this.fast.append(v);
        return;
      }
      this.toWide();
    }
    if (v === null || v === undefined) {
      this.appendNull();
      return;
    }
    this.ensure();
    this.wide![this.n] = typeof v === "bigint" ? v : BigInt(v as number);
    this.wideValidity![this.n++] = 1;
  }
  appendNull(): void {
    if (this.wide === null) {
      this.fast.appendNull();
      return;
    }
    this.ensure();
    this.wide[this.n] = 0n;
    this.wideValidity![this.n++] = 0;
  }
  appendMany(values: ArrayLike<unknown>, valid: Uint8Array | null, k: number): void {
    if (this.wide === null && (values instanceof Float64Array || values instanceof Int32Array)) {
      this.fast.appendMany(values, valid, k); // typed values of a decoder: safe integers (json-wasm.ts checks)
      return;
    }
    for (let j = 0; j < k; j++) {
      if (valid !== null && valid[j] === 0) this.appendNull();
      else this.append(values[j]);
    }
  }
  private toWide(): void {
    const done = this.fast.finish();
    this.n = done.length;
    this.wide = new BigInt64Array(Math.max(64, this.n * 2));
    this.wide.set(widen(done.values as Float64Array, this.n));
    this.wideValidity = new Uint8Array(this.wide.length).fill(1);
    if (done.validity) this.wideValidity.set(done.validity);
  }
  private ensure(): void {
    if (this.n < this.wide!.length) return;
    const g = new BigInt64Array(this.wide!.length * 2);
    g.set(this.wide!);
    this.wide = g;
    const gv = new Uint8Array(g.length);
    gv.set(this.wideValidity!);
    this.wideValidity = gv;
  }
  finish(): Vector {
    if (this.wide === null) return this.fast.finish();
    const n = this.n;
    const valid = this.wideValidity!.subarray(0, n);
    const vec = makeVector(this.type, this.wide.slice(0, n), valid.includes(0) ? valid.slice() : null, n);
    this.wide = null;
    this.wideValidity = null;
    this.n = 0;
    return vec;
  }
}

class ObjectBuilder implements ColumnBuilder {
  private values: unknown[] = [];
  private readonly validity = new Validity();
  constructor(readonly type: DataType) {}
  get length(): number {
    return this.values.length;
  }
  append(v: unknown): void {
    if (v === null || v === undefined) {
      this.appendNull();
      return;
    }
    const i = this.values.length;
    this.values.push(v);
    this.validity.mark(i, true, i + 1);
  }
  appendNull(): void {
    const i = this.values.length;
    this.values.push(null);
    this.validity.mark(i, false, i + 1);
  }
  /** Takes over `values` itself when it is a plain array of exactly `k` and nothing came before. */
  appendMany(values: ArrayLike<unknown>, valid: Uint8Array | null, k: number): void {
    const i = this.values.length;
    if (i === 0 && Array.isArray(values) && values.length === k) this.values = values;
    else for (let j = 0; j < k; j++) this.values.push(values[j]);
    this.validity.markMany(i, valid, k, i + k);
  }
  finish(): Vector {
    const n = this.values.length;
    const vec = makeVector(this.type, this.values, this.validity.take(n), n);
    this.values = [];
    return vec;
  }
}

class StructBuilder implements ColumnBuilder {
  length = 0;
  readonly children: ColumnBuilder[];
  private readonly validity = new Validity();
  constructor(readonly type: StructType) {
    this.children = type.fields.map((f) => columnBuilder(f.type));
  }
  /** Append a struct given as an object keyed by field name (internal values). */
  append(v: unknown): void {
    if (v === null || v === undefined) {
      this.appendNull();
      return;
    }
    const o = v as Record<string, unknown>;
    const fs = this.type.fields;
    for (let f = 0; f < fs.length; f++) this.children[f]!.append(o[fs[f]!.name] ?? null);
    this.validity.mark(this.length, true, this.length + 1);
    this.length++;
  }
  appendMany(values: ArrayLike<unknown>, valid: Uint8Array | null, k: number): void {
    for (let j = 0; j < k; j++) this.append(valid === null || valid[j] === 1 ? values[j] : null);
  }
  appendNull(): void {
    for (const c of this.children) c.appendNull();
    this.validity.mark(this.length, false, this.length + 1);
    this.length++;
  }
  finish(): Vector {
    const n = this.length;
    const vec = makeVector(
      this.type,
      [],
      this.validity.take(n),
      n,
      this.children.map((c) => c.finish()),
    );
    this.length = 0;
    return vec;
  }
}

class NullBuilder implements ColumnBuilder {
  length = 0;
  constructor(readonly type: DataType) {}
  append(): void {
    this.length++;
  }
  appendNull(): void {
    this.length++;
  }
  appendMany(_values: ArrayLike<unknown>, _valid: Uint8Array | null, k: number): void {
    this.length += k;
  }
  finish(): Vector {
    const n = this.length;
    this.length = 0;
    return vectorFromValues(this.type, new Array(n).fill(null));
  }
}

/** `utf8Strings`: STRING columns as UTF-8 bytes + offsets (utf8-builder.ts). */
export function columnBuilder(type: DataType, utf8Strings = false): ColumnBuilder {
  if (type.kind === "null") return new NullBuilder(type);
  if (utf8Strings && type.kind === "string") return new Utf8Builder(type);
  switch (physicalOf(type)) {
    case "struct":
      return new StructBuilder(type as StructType);
    case "obj":
      return new ObjectBuilder(type);
    default:
      return isInt64Type(type) ? new Int64Builder(type) : new TypedBuilder(type);
  }
}

/** Rows per batch a reader produces. */
export const BATCH_ROWS = 32_768;

/** Rows of internal values (in schema order) into column builders, a batch every BATCH_ROWS rows. */
export class RowBatches {
  private readonly builders: ColumnBuilder[];
  private readonly batches: Batch[] = [];
  private rows = 0;

  constructor(schema: StructType, utf8Strings = false) {
    this.builders = schema.fields.map((f) => columnBuilder(f.type, utf8Strings));
  }

  append(row: readonly unknown[]): void {
    const builders = this.builders;
    for (let i = 0; i < builders.length; i++) builders[i]!.append(row[i]);
    if (++this.rows === BATCH_ROWS) this.flush();
  }

  /** Rows appended to the batch being built (a bulk append must stop at BATCH_ROWS). */
  get pending(): number {
    return this.rows;
  }

  /** The column builders, for a decoder that appends `k` rows column by column (then `appended(k)`). */
  get columns(): readonly ColumnBuilder[] {
    return this.builders;
  }

  /** `k` rows went into every column builder directly; at most BATCH_ROWS - pending. */
  appended(k: number): void {
    this.rows += k;
    if (this.rows >= BATCH_ROWS) this.flush();
  }

  private flush(): void {
    if (this.rows === 0) return;
    this.batches.push(
      makeBatch(
        this.builders.map((b) => b.finish()),
        this.rows,
      ),
    );
    this.rows = 0;
  }

  /** Everything appended, as batches (the last one possibly short). */
  finish(): Batch[] {
    this.flush();
    return this.batches;
  }
}
