/**
 * Batch ⇄ Apache Arrow, for interchange (Parquet via parquet-wasm, IPC, exports).
 *
 * Why hand-made: Arrow's builders take seconds per million strings (design/deps.md §2), so
 * strings are encoded to Utf8 by hand; Int32/Float64/Date columns are shared zero-copy; 64-bit
 * columns (BIGINT, TIMESTAMP) are converted through 32-bit halves, which is exact up to 2^53.
 * TIMESTAMP is written as Timestamp(MICROSECOND, "UTC"); any Arrow timestamp unit is read back
 * as microseconds.
 */

import { isUtf8 } from "node:buffer";
import * as arrow from "apache-arrow";
import { MILLIS_PER_DAY } from "../common/datetime/index.js";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  ByteType,
  type DataType,
  DateType,
  DoubleType,
  FloatType,
  field,
  IntegerType,
  IntervalType,
  LongType,
  MapOf,
  NullType,
  ShortType,
  StringType,
  StructOf,
  type StructType,
  TimestampType,
} from "../types/datatypes.js";
import { DecimalOf, MAX_PRECISION } from "../types/decimal.js";
import { arrowDecimalToVector, decimalWords, toArrowDecimal } from "./arrow-decimal.js";
import { type Batch, makeBatch } from "./batch.js";
import { canonical, checkedBig, isInt64Type, isWide, narrow } from "./int64.js";
import { type Utf8Values, utf8Of, utf8Vector } from "./utf8.js";
import { utf8Strings } from "./utf8-conf.js";
import { concatVectors, getValue, makeVector, physicalOf, take, type Vector, vectorFromValues } from "./vector.js";

// ---------------------------------------------------------------- types

export function toArrowType(t: DataType): arrow.DataType {
  switch (t.kind) {
    case "null":
      return new arrow.Null();
    case "boolean":
      return new arrow.Bool();
    case "tinyint":
      return new arrow.Int8();
    case "smallint":
      return new arrow.Int16();
    case "int":
      return new arrow.Int32();
    case "bigint":
      return new arrow.Int64();
    case "float":
      return new arrow.Float32();
    case "double":
      return new arrow.Float64();
    case "decimal":
      return toArrowDecimal(t);
    case "string":
      return new arrow.Utf8();
    case "binary":
      return new arrow.Binary();
    case "date":
      return new arrow.DateDay();
    case "timestamp":
      return new arrow.Timestamp(arrow.TimeUnit.MICROSECOND, "UTC");
    case "interval":
      return new arrow.Duration(arrow.TimeUnit.MICROSECOND);
    case "array":
      return new arrow.List(new arrow.Field("element", toArrowType(t.elementType), t.containsNull));
    case "map":
      return new arrow.Map_(
        new arrow.Field(
          "entries",
          new arrow.Struct<{ key: arrow.DataType; value: arrow.DataType }>([
            new arrow.Field("key", toArrowType(t.keyType), false),
            new arrow.Field("value", toArrowType(t.valueType), t.valueContainsNull),
          ] as arrow.Field[]),
          false,
        ),
      );
    case "struct":
      return new arrow.Struct(t.fields.map((f) => new arrow.Field(f.name, toArrowType(f.type), f.nullable)));
  }
}

export function toArrowSchema(schema: StructType): arrow.Schema {
  return new arrow.Schema(schema.fields.map((f) => new arrow.Field(f.name, toArrowType(f.type), f.nullable)));
}

/** Arrow type → ours (narrow integers widen to int/bigint, decimals and floats to double). */
export function fromArrowType(t: arrow.DataType): DataType {
  switch (t.typeId) {
    case arrow.Type.Null:
      return NullType;
    case arrow.Type.Bool:
      return BooleanType;
    case arrow.Type.Int: {
      const it = t as arrow.Int;
      if (it.isSigned && it.bitWidth === 8) return ByteType;
      if (it.isSigned && it.bitWidth === 16) return ShortType;
      return it.bitWidth < 32 || (it.bitWidth === 32 && it.isSigned) ? IntegerType : LongType;
    }
    case arrow.Type.Float:
      return (t as arrow.Float).precision === arrow.Precision.SINGLE ? FloatType : DoubleType;
    case arrow.Type.Decimal: {
      const dt = t as arrow.Decimal;
      return dt.precision <= MAX_PRECISION && dt.scale >= 0 && dt.scale <= dt.precision ? DecimalOf(dt.precision, dt.scale) : DoubleType;
    }
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8:
    case arrow.Type.Utf8View:
      return StringType;
    case arrow.Type.Binary:
    case arrow.Type.LargeBinary:
    case arrow.Type.BinaryView:
    case arrow.Type.FixedSizeBinary:
      return BinaryType;
    case arrow.Type.Date:
      return DateType;
    case arrow.Type.Timestamp:
      return TimestampType;
    case arrow.Type.Duration:
      return IntervalType;
    case arrow.Type.List:
    case arrow.Type.LargeList:
    case arrow.Type.FixedSizeList: {
      const child = (t as arrow.List).children[0]!;
      return ArrayOf(fromArrowType(child.type), child.nullable);
    }
    case arrow.Type.Struct:
      return StructOf((t as arrow.Struct).children.map((f) => field(f.name, fromArrowType(f.type), f.nullable)));
    case arrow.Type.Map: {
      const entries = (t as arrow.Map_).children[0]!.type as arrow.Struct;
      const [k, v] = entries.children;
      return MapOf(fromArrowType(k!.type), fromArrowType(v!.type), v!.nullable);
    }
    case arrow.Type.Dictionary:
      return fromArrowType((t as arrow.Dictionary).dictionary);
    default:
      throw new Error(`Unsupported Arrow type: ${String(t)}`);
  }
}

export function fromArrowSchema(s: arrow.Schema): StructType {
  return StructOf(s.fields.map((f) => field(f.name, fromArrowType(f.type), f.nullable)));
}

// ---------------------------------------------------------------- ours → Arrow

/** Packs a 0/1 validity byte map into an Arrow bitmap; null when nothing is null. */
function packValidity(valid: Uint8Array | null, n: number): { bitmap: Uint8Array | undefined; nulls: number } {
  if (valid === null) return { bitmap: undefined, nulls: 0 };
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (valid[i] === 1) bitmap[i >> 3]! |= 1 << (i & 7);
    else nulls++;
  }
  return nulls === 0 ? { bitmap: undefined, nulls: 0 } : { bitmap, nulls };
}

function packBits(values: Uint8Array, n: number): Uint8Array {
  const bits = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (values[i] === 1) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
}

const TWO32 = 4294967296;

/** Float64 integers → Int64 words without BigInt per value (exact within ±2^53); the wide lane as is. */
function toInt64(values: Float64Array | BigInt64Array, n: number): BigInt64Array {
  if (isWide(values)) return values.slice(0, n);
  const out = new BigInt64Array(n);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const hi = Math.floor(v / TWO32);
    words[2 * i] = v - hi * TWO32;
    words[2 * i + 1] = hi;
  }
  return out;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3; // BMP char, or a lone surrogate (encoded as U+FFFD, also 3 bytes)
  }
  return n;
}

const encoder = new TextEncoder();

/** Hand-built Utf8 buffers: one length pass, then ASCII written directly, the rest encodeInto. */
function encodeUtf8(values: readonly unknown[], n: number): { offsets: Int32Array; data: Uint8Array } {
  const offsets = new Int32Array(n + 1);
  const lens = new Int32Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const s = values[i];
    const len = typeof s === "string" ? utf8Length(s) : 0;
    lens[i] = len;
    total += len;
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < n; i++) {
    const s = values[i];
    if (typeof s !== "string" || s.length === 0) continue;
    const off = offsets[i]!;
    if (lens[i] === s.length) {
      for (let k = 0; k < s.length; k++) data[off + k] = s.charCodeAt(k);
    } else encoder.encodeInto(s, data.subarray(off, off + lens[i]!));
  }
  return { offsets, data };
}

function encodeBinary(values: readonly unknown[], n: number): { offsets: Int32Array; data: Uint8Array } {
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const b = values[i];
    total += b instanceof Uint8Array ? b.length : 0;
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < n; i++) {
    const b = values[i];
    if (b instanceof Uint8Array) data.set(b, offsets[i]!);
  }
  return { offsets, data };
}

/** One column vector → Arrow Data. */
export function vectorToArrowData(v: Vector): arrow.Data {
  const n = v.length;
  const t = v.type;
  const { bitmap, nulls } = packValidity(v.validity, n);
  const base = { length: n, nullCount: nulls, nullBitmap: bitmap };
  switch (t.kind) {
    case "null":
      return arrow.makeData({ type: new arrow.Null(), length: n });
    case "boolean":
      return arrow.makeData({ ...base, type: new arrow.Bool(), data: packBits(v.values as Uint8Array, n) });
    case "int":
      return arrow.makeData({ ...base, type: new arrow.Int32(), data: (v.values as Int32Array).subarray(0, n) });
    case "tinyint":
      return arrow.makeData({ ...base, type: new arrow.Int8(), data: Int8Array.from((v.values as Int32Array).subarray(0, n)) });
    case "smallint":
      return arrow.makeData({ ...base, type: new arrow.Int16(), data: Int16Array.from((v.values as Int32Array).subarray(0, n)) });
    case "float":
      return arrow.makeData({ ...base, type: new arrow.Float32(), data: Float32Array.from((v.values as Float64Array).subarray(0, n)) });
    case "decimal":
      return arrow.makeData({ ...base, type: toArrowDecimal(t), data: decimalWords(v, n) });
    case "date":
      return arrow.makeData({ ...base, type: new arrow.DateDay(), data: (v.values as Int32Array).subarray(0, n) });
    case "double":
      return arrow.makeData({ ...base, type: new arrow.Float64(), data: (v.values as Float64Array).subarray(0, n) });
    case "bigint":
      return arrow.makeData({ ...base, type: new arrow.Int64(), data: toInt64(v.values as Float64Array | BigInt64Array, n) });
    case "timestamp":
      return arrow.makeData({
        ...base,
        type: new arrow.Timestamp(arrow.TimeUnit.MICROSECOND, "UTC"),
        data: toInt64(v.values as Float64Array | BigInt64Array, n),
      });
    case "interval":
      return arrow.makeData({
        ...base,
        type: new arrow.Duration(arrow.TimeUnit.MICROSECOND),
        data: toInt64(v.values as Float64Array | BigInt64Array, n),
      });
    case "string": {
      const u = utf8Of(v);
      if (u !== undefined) {
        // UTF-8 vectors are Arrow's layout already: offsets rebased to 0, bytes shared
        const start = u.offsets[0]!;
        const offsets = start === 0 ? u.offsets.subarray(0, n + 1) : u.offsets.subarray(0, n + 1).map((o) => o - start);
        return arrow.makeData({ ...base, type: new arrow.Utf8(), valueOffsets: offsets, data: u.bytes.subarray(start, u.offsets[n]!) });
      }
      const { offsets, data } = encodeUtf8(v.values as unknown[], n);
      return arrow.makeData({ ...base, type: new arrow.Utf8(), valueOffsets: offsets, data });
    }
    case "binary": {
      const { offsets, data } = encodeBinary(v.values as unknown[], n);
      return arrow.makeData({ ...base, type: new arrow.Binary(), valueOffsets: offsets, data });
    }
    case "struct":
      return arrow.makeData({
        ...base,
        type: toArrowType(t) as arrow.Struct,
        children: (v.children ?? []).map(vectorToArrowData),
      });
    case "array": {
      const vals = v.values as unknown[];
      const offsets = new Int32Array(n + 1);
      const flat: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const a = vals[i];
        if (Array.isArray(a)) for (const x of a) flat.push(x);
        offsets[i + 1] = flat.length;
      }
      const child = vectorToArrowData(vectorFromValues(t.elementType, flat));
      return arrow.makeData({ ...base, type: toArrowType(t) as arrow.List, valueOffsets: offsets, child });
    }
    case "map": {
      const vals = v.values as unknown[];
      const offsets = new Int32Array(n + 1);
      const keys: unknown[] = [];
      const items: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const m = vals[i];
        if (m instanceof Map) {
          for (const [k, x] of m) {
            keys.push(k);
            items.push(x);
          }
        }
        offsets[i + 1] = keys.length;
      }
      const mt = toArrowType(t) as arrow.Map_;
      const entryType = mt.children[0]!.type as arrow.Struct;
      const entries = arrow.makeData({
        type: entryType,
        length: keys.length,
        nullCount: 0,
        children: [vectorToArrowData(vectorFromValues(t.keyType, keys)), vectorToArrowData(vectorFromValues(t.valueType, items))],
      });
      return arrow.makeData({ ...base, type: mt, valueOffsets: offsets, child: entries });
    }
  }
}

export function batchToArrow(schema: StructType, batch: Batch): arrow.RecordBatch {
  const arrowSchema = toArrowSchema(schema);
  const children = batch.columns.map(vectorToArrowData);
  const data = arrow.makeData({
    type: new arrow.Struct(arrowSchema.fields),
    length: batch.numRows,
    nullCount: 0,
    children,
  });
  return new arrow.RecordBatch(arrowSchema, data);
}

// ---------------------------------------------------------------- Arrow → ours

function unpackValidity(d: arrow.Data): Uint8Array | null {
  const n = d.length;
  if (d.typeId === arrow.Type.Null) return new Uint8Array(n);
  const bits = d.nullBitmap;
  if (!bits || bits.length === 0 || d.nullCount === 0) return null;
  const out = new Uint8Array(n);
  const off = d.offset;
  for (let i = 0; i < n; i++) {
    const j = off + i;
    out[i] = (bits[j >> 3]! >> (j & 7)) & 1;
  }
  return out;
}

/**
 * Int64/Uint64 words → a BIGINT/TIMESTAMP lane scaled by `mul` (unit change): doubles while every
 * value is a safe integer, else the exact wide lane (columnar/int64.ts). A value outside the long
 * range (a UINT64 past 2^63 − 1, seconds whose micros overflow) is an error, never a rounding.
 */
function fromInt64(words64: BigInt64Array | BigUint64Array, n: number, signed: boolean, mul = 1): Float64Array | BigInt64Array {
  const out = new Float64Array(n);
  const w = new Uint32Array(words64.buffer, words64.byteOffset, n * 2);
  let safe = true;
  for (let i = 0; i < n; i++) {
    const lo = w[2 * i]!;
    const hiU = w[2 * i + 1]!;
    const hi = signed && hiU >= 0x80000000 ? hiU - TWO32 : hiU;
    const x = (hi * TWO32 + lo) * mul;
    out[i] = x;
    if (!(x <= Number.MAX_SAFE_INTEGER && x >= -Number.MAX_SAFE_INTEGER)) safe = false;
  }
  if (safe) return out;
  const wide = new BigInt64Array(n);
  const m = BigInt(mul);
  for (let i = 0; i < n; i++) wide[i] = checkedBig(BigInt(words64[i]!) * m);
  return wide;
}

/** Nanoseconds → microseconds, floored, through BigInt (ns epochs exceed 2^53; so do µs after 2255). */
function nanosToMicros(words: BigInt64Array, n: number): Float64Array | BigInt64Array {
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const v = words[i]!;
    let q = v / 1000n;
    if (v < 0n && q * 1000n !== v) q -= 1n;
    out[i] = q;
  }
  return narrow(out, n);
}

function timeUnitFactor(unit: arrow.TimeUnit): number {
  switch (unit) {
    case arrow.TimeUnit.SECOND:
      return 1_000_000;
    case arrow.TimeUnit.MILLISECOND:
      return 1_000;
    default:
      return 1;
  }
}

/**
 * An Arrow Utf8 column as UTF-8 vector values (`arus.columnar.utf8Strings`), sharing its
 * buffers; null when its bytes are not valid UTF-8 row by row (then decoding replaces them).
 */
function utf8FromArrow(d: arrow.Data, n: number): Utf8Values | null {
  const bytes = d.values as Uint8Array;
  const offsets = (d.valueOffsets as Int32Array).subarray(0, n + 1);
  if (!isUtf8(bytes.subarray(offsets[0]!, offsets[n]!))) return null;
  let ascii = true;
  for (let i = 0; i < n; i++) {
    const a = offsets[i]!;
    if (a > offsets[i + 1]! || (a < offsets[i + 1]! && (bytes[a]! & 0xc0) === 0x80)) return null; // a row starting inside a character
  }
  for (let p = offsets[0]!; p < offsets[n]!; p++) {
    if (bytes[p]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  return { bytes, offsets, ascii };
}

function decodeStrings(d: arrow.Data, n: number, large: boolean): string[] {
  const out = new Array<string>(n);
  const bytes = d.values as Uint8Array;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const offs = d.valueOffsets as Int32Array | BigInt64Array;
  for (let i = 0; i < n; i++) {
    const s = large ? Number(offs[i]!) : (offs[i] as number);
    const e = large ? Number(offs[i + 1]!) : (offs[i + 1] as number);
    out[i] = s === e ? "" : buf.toString("utf8", s, e);
  }
  return out;
}

function decodeBinaries(d: arrow.Data, n: number, large: boolean): Uint8Array[] {
  const out = new Array<Uint8Array>(n);
  const bytes = d.values as Uint8Array;
  const offs = d.valueOffsets as Int32Array | BigInt64Array;
  for (let i = 0; i < n; i++) {
    const s = large ? Number(offs[i]!) : (offs[i] as number);
    const e = large ? Number(offs[i + 1]!) : (offs[i + 1] as number);
    out[i] = bytes.slice(s, e);
  }
  return out;
}

function clearNulls(values: unknown[], validity: Uint8Array | null): unknown[] {
  if (validity) for (let i = 0; i < values.length; i++) if (validity[i] === 0) values[i] = null;
  return values;
}

/** Element-wise fallback through Arrow's accessors for rare physical types. */
function viaAccessors(d: arrow.Data, type: DataType, validity: Uint8Array | null): Vector {
  const av = arrow.makeVector(d);
  const vals = new Array<unknown>(d.length);
  for (let i = 0; i < d.length; i++) {
    if (validity && validity[i] === 0) vals[i] = null;
    else {
      const x = av.get(i) as unknown;
      vals[i] =
        typeof x === "bigint"
          ? isInt64Type(type)
            ? canonical(x)
            : Number(x)
          : type.kind === "binary" || type.kind === "string"
            ? x
            : x == null
              ? null
              : Number(x);
    }
  }
  return vectorFromValues(type, vals);
}

/** One Arrow Data chunk → our vector of `type` (= fromArrowType(d.type)). */
export function arrowDataToVector(d: arrow.Data, type: DataType = fromArrowType(d.type)): Vector {
  const n = d.length;
  if (n === 0) return vectorFromValues(type, []); // empty chunks may lack buffers altogether
  const validity = unpackValidity(d);
  const t = d.type;
  switch (t.typeId) {
    case arrow.Type.Null:
      return makeVector(type, new Array(n).fill(null), validity, n);
    case arrow.Type.Bool: {
      const bits = d.values as Uint8Array;
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const j = d.offset + i;
        out[i] = (bits[j >> 3]! >> (j & 7)) & 1;
      }
      return makeVector(type, out, validity, n);
    }
    case arrow.Type.Int: {
      const it = t as arrow.Int;
      const vals = d.values as ArrayLike<number> | BigInt64Array | BigUint64Array;
      if (it.bitWidth === 64) return makeVector(type, fromInt64(vals as BigInt64Array, n, it.isSigned), validity, n);
      if (physicalOf(type) === "i32") {
        const src = vals as Int32Array;
        return makeVector(type, src instanceof Int32Array ? src.subarray(0, n) : Int32Array.from(src as ArrayLike<number>), validity, n);
      }
      return makeVector(type, Float64Array.from(vals as ArrayLike<number>), validity, n);
    }
    case arrow.Type.Float: {
      const vals = d.values;
      if (vals instanceof Float64Array) return makeVector(type, vals.subarray(0, n), validity, n);
      if (vals instanceof Float32Array) return makeVector(type, Float64Array.from(vals), validity, n);
      return viaAccessors(d, type, validity);
    }
    case arrow.Type.Date: {
      const dt = t as arrow.Date_;
      if (dt.unit === arrow.DateUnit.DAY) return makeVector(type, (d.values as Int32Array).subarray(0, n), validity, n);
      const ms = d.values instanceof BigInt64Array ? fromInt64(d.values, n, true) : Float64Array.from(d.values as ArrayLike<number>);
      return makeVector(
        type,
        Int32Array.from(ms as ArrayLike<number | bigint>, (x) => Math.floor(Number(x) / MILLIS_PER_DAY)),
        validity,
        n,
      );
    }
    case arrow.Type.Timestamp:
    case arrow.Type.Duration: {
      const unit = (t as arrow.Timestamp | arrow.Duration).unit;
      const words = d.values as BigInt64Array;
      const micros = unit === arrow.TimeUnit.NANOSECOND ? nanosToMicros(words, n) : fromInt64(words, n, true, timeUnitFactor(unit));
      return makeVector(type, micros, validity, n);
    }
    case arrow.Type.Decimal:
      if (type.kind === "decimal") return arrowDecimalToVector(d, type, validity);
      return viaAccessors(d, type, validity);
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8:
      if (t.typeId === arrow.Type.Utf8 && type.kind === "string" && utf8Strings()) {
        const u = utf8FromArrow(d, n);
        if (u !== null) return utf8Vector(type, u, validity, n);
      }
      return makeVector(type, clearNulls(decodeStrings(d, n, t.typeId === arrow.Type.LargeUtf8), validity), validity, n);
    case arrow.Type.Binary:
    case arrow.Type.LargeBinary:
      return makeVector(type, clearNulls(decodeBinaries(d, n, t.typeId === arrow.Type.LargeBinary), validity), validity, n);
    case arrow.Type.Dictionary: {
      const dict = d.dictionary!;
      const dictVec = concatVectors(
        type,
        dict.data.map((c) => arrowDataToVector(c, type)),
      );
      const idx = d.values as ArrayLike<number> | BigInt64Array;
      const indices = new Int32Array(n);
      for (let i = 0; i < n; i++) indices[i] = validity && validity[i] === 0 ? -1 : Number(idx[i]!);
      return take(dictVec, indices, n);
    }
    case arrow.Type.Struct: {
      const st = type as StructType;
      const children = d.children.map((c, k) => arrowDataToVector(c, st.fields[k]!.type));
      return makeVector(type, [], validity, n, children);
    }
    case arrow.Type.List:
    case arrow.Type.LargeList: {
      const elemType = type.kind === "array" ? type.elementType : NullType;
      const child = arrowDataToVector(d.children[0]!, elemType);
      const offs = d.valueOffsets as Int32Array | BigInt64Array;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        if (validity && validity[i] === 0) {
          out[i] = null;
          continue;
        }
        const s = Number(offs[i]!);
        const e = Number(offs[i + 1]!);
        const a = new Array<unknown>(e - s);
        for (let k = s; k < e; k++) a[k - s] = getValue(child, k);
        out[i] = a;
      }
      return makeVector(type, out, validity, n);
    }
    case arrow.Type.FixedSizeList: {
      const size = (t as arrow.FixedSizeList).listSize;
      const elemType = type.kind === "array" ? type.elementType : NullType;
      const child = arrowDataToVector(d.children[0]!, elemType);
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        if (validity && validity[i] === 0) out[i] = null;
        else out[i] = Array.from({ length: size }, (_, k) => getValue(child, i * size + k));
      }
      return makeVector(type, out, validity, n);
    }
    case arrow.Type.Map: {
      const mt = type.kind === "map" ? type : MapOf(StringType, StringType);
      const entries = d.children[0]!;
      const keys = arrowDataToVector(entries.children[0]!, mt.keyType);
      const vals = arrowDataToVector(entries.children[1]!, mt.valueType);
      const offs = d.valueOffsets as Int32Array;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        if (validity && validity[i] === 0) {
          out[i] = null;
          continue;
        }
        const m = new Map<unknown, unknown>();
        for (let k = offs[i]!; k < offs[i + 1]!; k++) m.set(getValue(keys, k), getValue(vals, k));
        out[i] = m;
      }
      return makeVector(type, out, validity, n);
    }
    default:
      return viaAccessors(d, type, validity);
  }
}

/** An Arrow RecordBatch or Table → our schema and one batch (chunks concatenated). */
export function arrowToBatch(rb: arrow.RecordBatch | arrow.Table): { schema: StructType; batch: Batch } {
  const schema = fromArrowSchema(rb.schema);
  const chunks: readonly arrow.RecordBatch[] = rb instanceof arrow.Table ? rb.batches : [rb];
  const columns = schema.fields.map((f, c) =>
    concatVectors(
      f.type,
      chunks.length === 0 ? [vectorFromValues(f.type, [])] : chunks.map((b) => arrowDataToVector(b.data.children[c]!, f.type)),
    ),
  );
  return { schema, batch: makeBatch(columns, rb.numRows) };
}
