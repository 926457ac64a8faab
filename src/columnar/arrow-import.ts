/**
 * Apache Arrow → Batch (Parquet reads, `createDataFrameFromArrow`). Int32/Float64/Date buffers
 * are shared zero-copy; with `arus.columnar.utf8Strings` a Utf8 column whose bytes are valid
 * UTF-8 row by row becomes a UTF-8 vector sharing its buffers; 64-bit columns go through
 * arrow-int64.ts; physical types without a fast path go through Arrow's own accessors.
 */
import { isUtf8 } from "node:buffer";
import * as arrow from "apache-arrow";
import { MILLIS_PER_DAY } from "../common/datetime/index.js";
import { type DataType, MapOf, NullType, StringType, type StructType } from "../types/datatypes.js";
import { arrowDecimalToVector } from "./arrow-decimal.js";
import { fromInt64, nanosToMicros, timeUnitFactor } from "./arrow-int64.js";
import { fromArrowSchema, fromArrowType } from "./arrow-types.js";
import { type Batch, makeBatch } from "./batch.js";
import { canonical, isInt64Type } from "./int64.js";
import { type Utf8Values, utf8Vector } from "./utf8.js";
import { utf8Strings } from "./utf8-conf.js";
import { concatVectors, getValue, makeVector, physicalOf, take, type Vector, vectorFromValues } from "./vector.js";

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
