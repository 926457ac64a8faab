/**
 * A join side over the columnar join tables (src/state/join/, `arus.state.join.columnar`), one
 * per partition. A ref is a row id and its partition, `id * partitions + partition`; rows are
 * appended straight into the table (nothing reads this side between an append and `flush`).
 */
import type { Vector } from "../../columnar/vector.js";
import type { SideCleanup } from "../../plan/join-cleanup.js";
import { gatherColumn } from "../../state/join/columns.js";
import type { ColumnarJoinStore, JoinSideTable } from "../../state/join/index.js";
import type { DataType } from "../../types/datatypes.js";
import type { JoinSide } from "./join-side.js";

export class ColumnarJoinSide implements JoinSide {
  private readonly tables: JoinSideTable[];
  private readonly n: number;

  constructor(private readonly stores: ColumnarJoinStore[]) {
    this.tables = stores.map((s) => s.table);
    this.n = stores.length;
  }

  private tableOf(ref: number): JoinSideTable {
    return this.tables[ref % this.n]!;
  }
  private idOf(ref: number): number {
    return Math.floor(ref / this.n);
  }

  rowsOf(key: string, hash: number, p: number, out: number[]): void {
    const from = out.length;
    this.tables[p]!.rowsOf(key, hash, out);
    for (let i = from; i < out.length; i++) out[i] = out[i]! * this.n + p;
  }

  copyRow(ref: number, out: unknown[], at: number): void {
    this.tableOf(ref).copyRow(this.idOf(ref), out, at);
  }

  value(ref: number, c: number): unknown {
    return this.tableOf(ref).value(this.idOf(ref), c);
  }

  column(c: number, type: DataType, refs: readonly number[]): Vector {
    return gatherColumn(
      this.tables.map((t) => t.cols[c]!),
      type,
      refs,
    );
  }

  matched(ref: number): boolean {
    return this.tableOf(ref).matched(this.idOf(ref));
  }

  setMatched(ref: number): void {
    this.tableOf(ref).setMatched(this.idOf(ref));
  }

  remove(ref: number): void {
    const t = this.tableOf(ref);
    const r = this.idOf(ref);
    if (t.isLive(r)) t.remove(r);
  }

  isNew(ref: number): boolean {
    return this.idOf(ref) >= this.tableOf(ref).batchStart;
  }

  endProbe(): void {}

  append(key: string, hash: number, p: number, keyTime: number, cols: readonly Vector[], i: number, matched: boolean): void {
    this.tables[p]!.appendFrom(key, hash, keyTime, cols, i, matched);
  }

  flush(): void {}

  evict(cleanup: SideCleanup, evictMs: number, onRow: (ref: number) => void): number {
    let removed = 0;
    for (let p = 0; p < this.n; p++) {
      const t = this.tables[p]!;
      const visit = (r: number) => onRow(r * this.n + p);
      if (cleanup.keyIndex !== undefined) removed += t.evictKeys(evictMs * 1000, visit);
      else removed += t.evictRows(cleanup.value!.column, (evictMs + cleanup.value!.offsetMs) * 1000, visit);
    }
    return removed;
  }

  async commit(): Promise<number> {
    await Promise.all(this.stores.map((s) => s.commit()));
    let total = 0;
    for (const s of this.stores) total += s.numRows;
    return total;
  }

  memoryUsedBytes(): number {
    let n = 0;
    for (const s of this.stores) n += s.memoryUsedBytes();
    return n;
  }
}
