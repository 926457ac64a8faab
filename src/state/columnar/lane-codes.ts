/**
 * A batch's codes on the columnar table's int lanes (key-codes.ts), one function per kind of
 * key column: a number is its own code, a STRING and a STRUCT of numbers get their dictionary's
 * ids. Each loop is a function of its own (docs/architecture.md, "Hot path rules"): in one
 * function, a query of another key shape recompiled all of them.
 */
import { utf8Of } from "../../columnar/utf8.js";
import type { Vector } from "../../columnar/vector.js";
import type { StringDict, TupleDict } from "./dictionary.js";

/** A numeric int lane's values as its codes (NULL as 0: the lane's validity tells). */
export function numberCodes(v: Vector, n: number, out: Int32Array): void {
  const vals = v.values as Int32Array | Uint8Array;
  const val = v.validity;
  for (let i = 0; i < n; i++) out[i] = val !== null && val[i] === 0 ? 0 : vals[i]!;
}

/** A STRING lane's dictionary ids (NULL -1; unseen -2 unless `add`). */
export function stringCodes(dict: StringDict, v: Vector, n: number, add: boolean, out: Int32Array): void {
  const val = v.validity;
  const u = utf8Of(v);
  if (u !== undefined) {
    dict.idsOfUtf8(u, val, n, add, out);
    return;
  }
  const map = dict.index;
  const vals = v.values as string[];
  for (let i = 0; i < n; i++) {
    if (val !== null && val[i] === 0) {
      out[i] = -1;
      continue;
    }
    const s = vals[i]!;
    const id = map.get(s);
    out[i] = id !== undefined ? id : add ? dict.getOrAdd(s) : -2;
  }
}

/** A STRUCT-of-numbers lane's tuple ids (NULL -1; unseen -2 unless `add`). */
export function tupleCodes(dict: TupleDict, v: Vector, n: number, add: boolean, out: Int32Array): void {
  const kids = v.children!;
  const fv = kids.map((c) => c.values as Float64Array | Int32Array | Uint8Array);
  if (dict.width >= 1 && dict.width <= 2 && kids.every((c) => c.validity === null))
    pairCodes(dict, v.validity, fv[0]!, fv[dict.width - 1]!, n, add, out);
  else
    anyTupleCodes(
      dict,
      v.validity,
      fv,
      kids.map((c) => c.validity),
      n,
      add,
      out,
    );
}

/**
 * `tupleCodes` for structs of one or two fields without NULL fields (a window: the common
 * key), each tuple looked up once per call. Recently seen tuples are cached by their first field,
 * direct-mapped (16 slots): a sliding window's rows interleave its k windows (row i, window j
 * at i * k + j), but a handful of windows are live in a batch. Ids stay valid for the whole call.
 */
function pairCodes(
  dict: TupleDict,
  val: Uint8Array | null,
  f0: Float64Array | Int32Array | Uint8Array,
  f1: Float64Array | Int32Array | Uint8Array,
  n: number,
  add: boolean,
  out: Int32Array,
): void {
  const w = dict.width;
  const row = new Float64Array(w);
  const recent = new RecentTuples();
  for (let i = 0; i < n; i++) {
    if (val !== null && val[i] === 0) {
      out[i] = -1;
      continue;
    }
    const a = f0[i]!;
    const b = f1[i]!;
    let id = recent.get(a, b);
    if (id < 0) {
      row[0] = a;
      row[w - 1] = b;
      if (add) id = dict.getOrAdd(row, 0);
      else {
        id = dict.idOf(row, 0);
        if (id < 0) id = -2;
      }
      if (id >= 0) recent.set(a, b, id);
    }
    out[i] = id;
  }
}

/** `tupleCodes` for any other struct of numbers (NULL fields, more than two fields). */
function anyTupleCodes(
  dict: TupleDict,
  val: Uint8Array | null,
  fv: readonly (Float64Array | Int32Array | Uint8Array)[],
  fval: readonly (Uint8Array | null)[],
  n: number,
  add: boolean,
  out: Int32Array,
): void {
  const w = dict.width;
  const plain = fval.every((x) => x === null);
  const row = new Float64Array(w);
  for (let i = 0; i < n; i++) {
    if (val !== null && val[i] === 0) {
      out[i] = -1;
      continue;
    }
    // Runs of one tuple are the rule: reuse the previous row's code when its fields are equal.
    if (plain && i > 0 && out[i - 1]! >= 0) {
      let same = true;
      for (let f = 0; f < w; f++) {
        const col = fv[f]!;
        if (col[i] !== col[i - 1]) {
          same = false;
          break;
        }
      }
      if (same) {
        out[i] = out[i - 1]!;
        continue;
      }
    }
    let m = 0;
    for (let f = 0; f < w; f++) {
      const fvv = fval[f];
      if (fvv !== null && fvv !== undefined && fvv[i] === 0) {
        m |= 1 << f;
        row[f] = 0;
      } else row[f] = fv[f]![i]!;
    }
    if (add) out[i] = dict.getOrAdd(row, m);
    else {
      const id = dict.idOf(row, m);
      out[i] = id < 0 ? -2 : id;
    }
  }
}

/** A 16-slot direct-mapped cache from a (first, second) field pair to a tuple id. */
class RecentTuples {
  private readonly a = new Float64Array(16);
  private readonly b = new Float64Array(16);
  private readonly ids = new Int32Array(16).fill(-1);

  private static slot(x: number): number {
    const h = (x | 0) ^ ((x / 4294967296) | 0);
    return Math.imul(h, 0x9e3779b1) >>> 28;
  }

  /** The id cached for (x, y), or -1. */
  get(x: number, y: number): number {
    const s = RecentTuples.slot(x);
    return this.ids[s]! >= 0 && this.a[s] === x && this.b[s] === y ? this.ids[s]! : -1;
  }

  set(x: number, y: number, id: number): void {
    const s = RecentTuples.slot(x);
    this.a[s] = x;
    this.b[s] = y;
    this.ids[s] = id;
  }
}
