/**
 * Sliding windows by panes: the aggregation of each slide-long pane's rows once, spread over the
 * pane's windows (when it applies and why the result is Spark's: pane-shape.ts).
 */

import { type Batch, makeBatch } from "../../columnar/batch.js";
import { ScratchInt32 } from "../../columnar/scratch.js";
import { identityIds, makeVector, take, type Vector } from "../../columnar/vector.js";
import type { EvalContext } from "../../functions/index.js";
import { WindowStructType } from "../../types/datatypes.js";
import type { AggregationSpec } from "../aggregation.js";
import type { CompiledExpr } from "../compile.js";
import { GroupIndex } from "../group-index.js";
import { type AggregateChunk, aggregateChunk } from "./aggregation-backend.js";
import type { PaneShape } from "./pane-shape.js";

// stage A (execution/partial/) imports these from here
export { mergesExactly, type PaneShape, paneShapeOf } from "./pane-shape.js";

export interface PreparedChunks {
  /** Partial buffers per (window, keys), ready for the aggregation backend. */
  readonly chunks: AggregateChunk[];
  /** Keys of the late (window, keys) pairs, to count distinct dropped groups. */
  readonly lateKeys: Vector[][];
  /** Late (row, window) pairs: Spark's expanded rows dropped by the watermark. */
  readonly lateInputRows: number;
  /** Late pairs as Expand output rows, one batch per input batch that had any. */
  readonly lateBatches: Batch[];
}

/** Window vector: the given windows moved back by `shift` slides each. */
function shifted(
  start: Float64Array,
  end: Float64Array,
  rows: ArrayLike<number>,
  shift: ArrayLike<number> | number,
  slide: number,
): Vector {
  const n = rows.length;
  const s = new Float64Array(n);
  const e = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const r = rows[k]!;
    const back = (typeof shift === "number" ? shift : shift[k]!) * slide;
    s[k] = start[r]! - back;
    e[k] = end[r]! - back;
  }
  return makeVector(WindowStructType, [], null, n, [
    makeVector(WindowStructType.fields[0]!.type, s, null, n),
    makeVector(WindowStructType.fields[1]!.type, e, null, n),
  ]);
}

/**
 * The start of each row's window, NULL where the window is; null when the starts are not all
 * the window kernel's (NULL fields of their own, or on the wide lane): then the whole window is the key.
 */
function windowStarts(win: Vector): Vector | null {
  const start = win.children![0]!;
  if (start.validity !== null || !(start.values instanceof Float64Array)) return null;
  return makeVector(start.type, start.values, win.validity, win.length);
}

/** Windows [start, start + length) from their starts (`windowStarts`' inverse: the end is the start plus the window's length). */
function windowsFrom(starts: Vector, length: number): Vector {
  const n = starts.length;
  const s = starts.values as Float64Array;
  const e = new Float64Array(n);
  for (let i = 0; i < n; i++) e[i] = s[i]! + length;
  return makeVector(WindowStructType, [], starts.validity, n, [
    makeVector(WindowStructType.fields[0]!.type, s, null, n),
    makeVector(WindowStructType.fields[1]!.type, e, null, n),
  ]);
}

/** What `paneChunks` builds up, batch by batch. */
interface PaneOutput {
  chunks: AggregateChunk[];
  lateKeys: Vector[][];
  lateInputRows: number;
  lateBatches: Batch[];
}

/**
 * Pre-aggregate the Expand's input batches per (pane, keys) and spread each group over its
 * windows, leaving out the late pairs (`watermarked`: pairs whose window ends at or below
 * `lateMicros`).
 *
 * Kept as small functions on purpose: this runs on the main thread every batch, and the rare
 * paths (late pairs) first run batches after V8 optimized the common one; a deopt then
 * recompiles only the small function that met the new path, not the whole loop.
 */
export function paneChunks(
  shape: PaneShape,
  spec: AggregationSpec,
  batches: readonly Batch[],
  ev: EvalContext,
  watermarked: boolean,
  lateMicros: number,
): PreparedChunks {
  const out: PaneOutput = { chunks: [], lateKeys: [], lateInputRows: 0, lateBatches: [] };
  for (const b of batches) if (b.numRows > 0) paneBatch(shape, spec, b, ev, watermarked, lateMicros, out);
  return out;
}

/** One input batch's pane groups: their keys (the window as the pane's newest), partial buffers and row counts. */
interface PaneGroups {
  /** Each row in the Expand's output layout, with its newest window. */
  readonly row0: Batch;
  /** Group of each row of row0 (scratch: valid during this batch's `paneBatch` only). */
  readonly gid: Int32Array;
  readonly numGroups: number;
  readonly keys: Vector[];
  readonly partial: Vector[][];
  /** Input rows per group (escapes into the chunks: never scratch). */
  readonly rowsPerGroup: Int32Array;
  /** Each group's newest window. */
  readonly start: Float64Array;
  readonly end: Float64Array;
}

/** Group ids of the batch being aggregated (never kept past `paneBatch`: columnar/scratch.ts). */
const gidScratch = new ScratchInt32();

function paneGroups(shape: PaneShape, spec: AggregationSpec, b: Batch, ev: EvalContext): PaneGroups {
  const n = b.numRows;
  const keyOfWindow = shape.windowKey;
  const row0 = makeBatch(projectAll(shape.projection, b, ev), n);
  const keys = spec.groupKeys(row0, ev);
  // grouped by the window's start alone (its end is start + window): half the leaves to hash and compare
  const starts = windowStarts(keys[keyOfWindow]!);
  if (starts !== null) keys[keyOfWindow] = starts;
  const groups = new GroupIndex(spec.groupAttrs.map((a, c) => (c === keyOfWindow && starts !== null ? starts.type : a.type)));
  const gid = groups.assign(keys, n, gidScratch.get(n));
  const G = groups.numGroups;
  const partial = partialBuffers(spec, row0, ev, gid, n, G);
  const groupKeys = groups.keyVectors();
  if (starts !== null) groupKeys[keyOfWindow] = windowsFrom(groupKeys[keyOfWindow]!, shape.windows * shape.slideMicros);
  const win = groupKeys[keyOfWindow]!;
  return {
    row0,
    gid,
    numGroups: G,
    keys: groupKeys,
    partial,
    rowsPerGroup: countPerGroup(gid, n, G),
    start: win.children![0]!.values as Float64Array,
    end: win.children![1]!.values as Float64Array,
  };
}

function projectAll(projection: readonly CompiledExpr[], b: Batch, ev: EvalContext): Vector[] {
  const out = new Array<Vector>(projection.length);
  for (let c = 0; c < projection.length; c++) out[c] = projection[c]!(b, ev);
  return out;
}

/** Each aggregate's partial buffers per group. */
function partialBuffers(spec: AggregationSpec, row0: Batch, ev: EvalContext, gid: Int32Array, n: number, G: number): Vector[][] {
  const accs = spec.newAccumulators();
  const inputs = spec.aggInputs(row0, ev);
  const out = new Array<Vector[]>(accs.length);
  for (let a = 0; a < accs.length; a++) {
    const acc = accs[a]!;
    acc.resize(G);
    acc.update(gid, n, inputs[a]!);
    out[a] = acc.buffers(G);
  }
  return out;
}

function countPerGroup(gid: Int32Array, n: number, G: number): Int32Array {
  const rows = new Int32Array(G);
  for (let i = 0; i < n; i++) rows[gid[i]!]!++;
  return rows;
}

/** One batch: its pane groups spread over their windows, newest first. */
function paneBatch(
  shape: PaneShape,
  spec: AggregationSpec,
  b: Batch,
  ev: EvalContext,
  watermarked: boolean,
  lateMicros: number,
  out: PaneOutput,
): void {
  const p = paneGroups(shape, spec, b, ev);
  const k = shape.windows;
  // late[i * G + g]: pair (group g, window i) is late
  const late = watermarked ? new Uint8Array(k * p.numGroups) : null;
  let anyLate = false;
  for (let i = 0; i < k; i++) {
    const lateHere = late !== null ? countLate(p.end, p.numGroups, i * shape.slideMicros, lateMicros) : 0;
    if (lateHere === 0) out.chunks.push(wholeWindowChunk(shape, p, i));
    else {
      anyLate = true;
      splitLate(shape, p, i, lateHere, lateMicros, late!, out);
    }
  }
  if (anyLate) out.lateBatches.push(lateRowsOf(p.row0, p.gid, late!, p.numGroups, k, shape, shape.slideMicros));
}

/** Groups whose window i (`back` micros before their newest) ends at or below `lateMicros`. */
function countLate(end: Float64Array, G: number, back: number, lateMicros: number): number {
  let nLate = 0;
  for (let g = 0; g < G; g++) if (end[g]! - back <= lateMicros) nLate++;
  return nLate;
}

/** Every group of the batch, in window i. */
function wholeWindowChunk(shape: PaneShape, p: PaneGroups, i: number): AggregateChunk {
  const all = identityIds(p.numGroups);
  const keys = p.keys.slice();
  keys[shape.windowKey] = shifted(p.start, p.end, all, i, shape.slideMicros);
  return aggregateChunk(keys, p.partial.slice(), p.numGroups, true, p.rowsPerGroup);
}

/** Window i with `nLate` late groups: those recorded as dropped (and marked in `late`), the rest as a chunk. */
function splitLate(shape: PaneShape, p: PaneGroups, i: number, nLate: number, lateMicros: number, late: Uint8Array, out: PaneOutput): void {
  const G = p.numGroups;
  const back = i * shape.slideMicros;
  const dropped = new Int32Array(nLate);
  const kept = new Int32Array(G - nLate);
  for (let g = 0, d = 0, kk = 0; g < G; g++) {
    if (p.end[g]! - back <= lateMicros) {
      late[i * G + g] = 1;
      dropped[d++] = g;
      out.lateInputRows += p.rowsPerGroup[g]!;
    } else kept[kk++] = g;
  }
  out.lateKeys.push(windowKeys(shape, p, dropped, i));
  if (kept.length === 0) return;
  const rows = new Int32Array(kept.length);
  for (let j = 0; j < kept.length; j++) rows[j] = p.rowsPerGroup[kept[j]!]!;
  const inputs = p.partial.map((bufs) => bufs.map((v) => take(v, kept)));
  out.chunks.push(aggregateChunk(windowKeys(shape, p, kept, i), inputs, kept.length, true, rows));
}

/** The keys of groups `sel` in window i. */
function windowKeys(shape: PaneShape, p: PaneGroups, sel: Int32Array, i: number): Vector[] {
  const out = new Array<Vector>(p.keys.length);
  for (let c = 0; c < p.keys.length; c++)
    out[c] = c === shape.windowKey ? shifted(p.start, p.end, sel, i, shape.slideMicros) : take(p.keys[c]!, sel);
  return out;
}

/** The late pairs as the Expand would have output them: row by row, newest window first. */
function lateRowsOf(row0: Batch, gid: Int32Array, late: Uint8Array, G: number, k: number, shape: PaneShape, slide: number): Batch {
  const rows: number[] = [];
  const back: number[] = [];
  for (let r = 0; r < row0.numRows; r++) {
    const g = gid[r]!;
    for (let i = 0; i < k; i++) {
      if (late[i * G + g] === 1) {
        rows.push(r);
        back.push(i);
      }
    }
  }
  const w = row0.columns[shape.windowColumn]!;
  const start = w.children![0]!.values as Float64Array;
  const end = w.children![1]!.values as Float64Array;
  return makeBatch(
    row0.columns.map((v, c) => (c === shape.windowColumn ? shifted(start, end, rows, back, slide) : take(v, rows))),
    rows.length,
  );
}
