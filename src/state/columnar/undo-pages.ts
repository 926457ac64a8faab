/**
 * The undo log of one batch of the columnar state table (table.ts): the buffer values of the
 * entries the batch changed, as they were before, so `abortBatch` can put them back.
 *
 * Saving is by page of 4096 entries: the first touch of an entry that existed before the batch
 * copies its whole page's buffer columns (sequential copies, where saving entry by entry would
 * mean random reads). Entries inserted by the batch need no undo: abort drops them.
 */
import { isWide, widen } from "../../columnar/int64.js";
import { grown, IntList } from "./arrays.js";

export const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;

type BufferColumns = readonly (Float64Array | Uint8Array | BigInt64Array)[];
type BufferValidity = readonly (Uint8Array | null)[];

export class UndoPages {
  /** Per page, 1 once this batch saved it. */
  private saved = new Uint8Array(0);
  private pages = new IntList();
  private vals: (Float64Array | Uint8Array | BigInt64Array)[][] = [];
  private valid: (Uint8Array | null)[][] = [];

  /** The per-page saved flags, long enough for entry ids below `capacity` (read by the touch loop). */
  savedFlags(capacity: number): Uint8Array {
    const n = (capacity >>> PAGE_BITS) + 1;
    if (this.saved.length < n) this.saved = grown(this.saved, n);
    return this.saved;
  }

  /** Save page p of the buffer columns (entries below `hwm`). */
  save(p: number, bv: BufferColumns, bvalid: BufferValidity, hwm: number): void {
    const start = p << PAGE_BITS;
    const end = Math.min(start + PAGE, hwm);
    this.saved[p] = 1;
    this.pages.push(p);
    this.vals.push(bv.map((a) => a.slice(start, end)));
    this.valid.push(bvalid.map((a) => (a ? a.slice(start, end) : null)));
  }

  /** Write the saved pages back into the buffer columns. */
  restore(bv: BufferColumns, bvalid: BufferValidity): void {
    const pages = this.pages.view();
    for (let k = 0; k < pages.length; k++) {
      const start = pages[k]! << PAGE_BITS;
      for (let c = 0; c < bv.length; c++) {
        const saved = this.vals[k]![c]!;
        // A column may have moved to the wide lane (columnar/int64.ts) after its page was saved.
        if (isWide(bv[c]) && !isWide(saved)) (bv[c] as BigInt64Array).set(widen(saved as Float64Array), start);
        else (bv[c] as Float64Array).set(saved as Float64Array, start);
        const v = bvalid[c];
        if (v !== null) v.set(this.valid[k]![c]!, start);
      }
    }
  }

  /** Forget the batch's pages. */
  clear(): void {
    const pages = this.pages.view();
    for (let k = 0; k < pages.length; k++) this.saved[pages[k]!] = 0;
    this.pages.reset();
    this.vals = [];
    this.valid = [];
  }

  bytes(): number {
    let n = this.saved.byteLength + this.pages.data.byteLength;
    for (const page of this.vals) for (const a of page) n += a.byteLength;
    for (const page of this.valid) for (const a of page) if (a) n += a.byteLength;
    return n;
  }
}
