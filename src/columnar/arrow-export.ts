/**
 * Batch → Apache Arrow, for interchange (Parquet via parquet-wasm, IPC, exports).
 *
 * Why hand-made: Arrow's builders take seconds per million strings (design/deps.md §2), so
 * strings are encoded to Utf8 by hand (a UTF-8 vector is Arrow's layout already and shares its
 * bytes); Int32/Float64/Date columns are shared zero-copy; 64-bit columns (BIGINT, TIMESTAMP)
 * are converted through 32-bit halves (arrow-int64.ts), which is exact up to 2^53.
 */
import * as arrow from "apache-arrow";
import type { StructType } from "../types/datatypes.js";
import { decimalWords, toArrowDecimal } from "./arrow-decimal.js";
import { toInt64 } from "./arrow-int64.js";
import { toArrowSchema, toArrowType } from "./arrow-types.js";
import type { Batch } from "./batch.js";
import { utf8Of } from "./utf8.js";
import { type Vector, vectorFromValues } from "./vector.js";

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
