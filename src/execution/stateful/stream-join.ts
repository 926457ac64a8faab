/**
 * Stream-stream join (Spark's StreamingSymmetricHashJoinExec), per micro-batch:
 *   1. each side drops input at or below the late watermark (if it has an event-time column);
 *   2. new left rows are matched against stored right rows, then stored (with a `matched`
 *      flag); new right rows are matched against stored left rows — which now include this
 *      batch's — and stored, so every new/new pair is produced exactly once;
 *   3. rows that can no longer match are evicted (see join-conditions.ts); for outer joins the
 *      evicted rows that never matched are emitted with NULLs for the other side — which is
 *      why outer rows appear only once the watermark passes.
 * State: per side and partition one store, laid out as Spark's keyToNumValues +
 * keyWithIndexToValue (join-state.ts): a count per join key and one `[matched, ...row values]`
 * entry per row. Progress reports numStateStoreInstances as Spark's 4 × partitions.
 */

import { type Batch, batchFromRows, rowValues } from "../../columnar/batch.js";
import { getValue } from "../../columnar/vector.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { deriveCleanup, type SideCleanup } from "../../plan/join-cleanup.js";
import type { JoinType } from "../../plan/logical.js";
import { exprToSql } from "../../plan/sql-text.js";
import { encodeKey, type StateStore } from "../../state/store.js";
import { compileExpr, compilePredicate } from "../compile.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { eventTimeKeyIndex, eventTimeMicros, newMetrics, partitionOf } from "./common.js";
import { allKeys, appendRow, replaceRows, rowsOf, type Stored, setRow, totalRows } from "./join-state.js";

const NULL_KEY = "\u0000null";
type Side = "left" | "right";

export class StreamStreamJoinExec implements PhysicalOperator {
  readonly name = "StreamingSymmetricHashJoin";
  readonly children: PhysicalOperator[];
  private readonly cleanup: { left: SideCleanup | null; right: SideCleanup | null };
  private readonly condition;

  constructor(
    readonly operatorId: number,
    readonly leftKeys: readonly Expr[],
    readonly rightKeys: readonly Expr[],
    readonly joinType: JoinType,
    readonly fullCondition: Expr | null,
    readonly left: PhysicalOperator,
    readonly right: PhysicalOperator,
    readonly output: readonly Attribute[],
  ) {
    this.children = [left, right];
    this.cleanup = deriveCleanup(leftKeys, rightKeys, fullCondition, left.output, right.output);
    this.condition = fullCondition ? compilePredicate(fullCondition, [...left.output, ...right.output]) : null;
  }

  /** Can the given side's rows ever be evicted? (Spark's check for outer joins.) */
  static cleanupOf(join: StreamStreamJoinExec): { left: boolean; right: boolean } {
    return { left: join.cleanup.left !== null, right: join.cleanup.right !== null };
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const metrics = newMetrics("symmetricHashJoin", st.numPartitions);
    const stores = { left: [] as StateStore[], right: [] as StateStore[] };
    for (let p = 0; p < st.numPartitions; p++) {
      stores.left.push(await st.store(this.operatorId, p, "left"));
      stores.right.push(await st.store(this.operatorId, p, "right"));
    }
    const [lb, rb] = [await this.left.execute(ctx), await this.right.execute(ctx)];
    const late = (side: Side, batches: Batch[]) => {
      const op = side === "left" ? this.left : this.right;
      const col = eventTimeKeyIndex(op.output);
      const rows: unknown[][] = [];
      for (const b of batches) {
        const et = col >= 0 ? eventTimeMicros(b.columns[col]!, b.numRows) : null;
        for (let i = 0; i < b.numRows; i++) {
          if (et && et[i]! <= st.lateWatermarkMs * 1000) metrics.numRowsDroppedByWatermark++;
          else rows.push(rowValues(b, i));
        }
      }
      return rows;
    };
    const leftRows = late("left", lb);
    const rightRows = late("right", rb);
    metrics.numLateInputRows = metrics.numRowsDroppedByWatermark;

    const out: unknown[][] = [];
    const nl = this.left.output.length;
    const nr = this.right.output.length;
    const semi = this.joinType === "left_semi";
    // Left input against the right state, then stored.
    const lk = this.keysOf("left", leftRows, ctx);
    const leftMatches = this.match(leftRows, lk, stores.right, "left", ctx);
    const nullsRight = new Array<unknown>(nr).fill(null);
    const nullsLeft = new Array<unknown>(nl).fill(null);
    const emitLeft = this.joinType === "left_outer" || this.joinType === "full_outer";
    const emitRight = this.joinType === "right_outer" || this.joinType === "full_outer";
    leftRows.forEach((row, i) => {
      const hits = leftMatches[i]!;
      if (lk[i] === NULL_KEY) {
        // A NULL key never matches: an outer join emits the row now, nothing is stored.
        if (emitLeft) out.push([...row, ...nullsRight]);
        return;
      }
      if (semi) {
        if (hits.length) out.push(row);
        else this.store(stores.left, lk[i]!, [0, ...row], st.numPartitions);
      } else {
        for (const r of hits) out.push([...row, ...r]);
        this.store(stores.left, lk[i]!, [hits.length ? 1 : 0, ...row], st.numPartitions);
      }
      metrics.numRowsUpdated++;
    });
    // Right input against the left state (including this batch's left rows), then stored.
    const rk = this.keysOf("right", rightRows, ctx);
    const rightMatches = this.match(rightRows, rk, stores.left, "right", ctx, (stored) => {
      // A stored left row that matches is flagged; left semi emits it on its first match only
      // (the flag, kept in state, stops a second emission).
      if (semi && stored[0] === 0) out.push(stored.slice(1));
      stored[0] = 1;
      return false;
    });
    rightRows.forEach((row, i) => {
      const hits = rightMatches[i]!;
      if (rk[i] === NULL_KEY) {
        if (emitRight) out.push([...nullsLeft, ...row]);
        return;
      }
      if (!semi) for (const l of hits) out.push([...l, ...row]);
      this.store(stores.right, rk[i]!, [hits.length ? 1 : 0, ...row], st.numPartitions);
      metrics.numRowsUpdated++;
    });

    // Evict; outer joins emit the evicted rows that never matched.
    const evictMs = st.evictionWatermarkMs;
    // Spark counts numRowsRemoved only for the side(s) whose eviction produces no outer rows.
    const removedLeft = this.evict(
      stores.left,
      this.cleanup.left,
      evictMs,
      (r) => emitLeft && !r[0] && out.push([...r.slice(1), ...nullsRight]),
    );
    const removedRight = this.evict(
      stores.right,
      this.cleanup.right,
      evictMs,
      (r) => emitRight && !r[0] && out.push([...nullsLeft, ...r.slice(1)]),
    );
    metrics.numRowsRemoved = (emitLeft ? 0 : removedLeft) + (emitRight ? 0 : removedRight);

    let total = 0;
    for (const s of [...stores.left, ...stores.right]) {
      await s.commit();
      total += totalRows(s);
    }
    metrics.numRowsTotal = total;
    metrics.numStateStoreInstances = st.numPartitions * 4;
    metrics.memoryUsedBytes = stores.left[0]?.memoryUsedBytes() ?? 0;
    st.reportMetrics(this.operatorId, metrics);
    return out.length
      ? [
          batchFromRows(
            this.output.map((a) => a.type),
            out,
          ),
        ]
      : [];
  }

  private keysOf(side: Side, rows: unknown[][], ctx: ExecContext): string[] {
    if (!rows.length) return [];
    const op = side === "left" ? this.left : this.right;
    const keys = side === "left" ? this.leftKeys : this.rightKeys;
    const batch = batchFromRows(
      op.output.map((a) => a.type),
      rows,
    );
    const cols = keys.map((k) => compileExpr(k, op.output)(batch, ctx.eval));
    return rows.map((_, i) => {
      const vals = cols.map((c) => getValue(c, i));
      return vals.some((v) => v === null) ? NULL_KEY : encodeKey(vals);
    });
  }

  private store(stores: StateStore[], key: string, row: Stored, n: number): void {
    appendRow(stores[partitionOf(key, n)]!, key, row);
  }

  /**
   * For each input row, the stored rows of the other side it matches (full condition).
   * `onMatch` may flag a stored row (on a copy it is given); returning true removes it from state.
   */
  private match(
    rows: unknown[][],
    keys: string[],
    other: StateStore[],
    side: Side,
    ctx: ExecContext,
    onMatch?: (stored: Stored) => boolean,
  ): unknown[][][] {
    const n = other.length;
    const result: unknown[][][] = rows.map(() => []);
    const pairs: unknown[][] = [];
    const refs: { row: number; key: string; idx: number }[] = [];
    // Each key's rows, read once; kept current as matches flag them.
    const lists = new Map<string, Stored[]>();
    rows.forEach((row, i) => {
      const key = keys[i]!;
      if (key === NULL_KEY) return;
      let list = lists.get(key);
      if (!list) {
        list = rowsOf(other[partitionOf(key, n)]!, key);
        lists.set(key, list);
      }
      list.forEach((stored, idx) => {
        pairs.push(side === "left" ? [...row, ...stored.slice(1)] : [...stored.slice(1), ...row]);
        refs.push({ row: i, key, idx });
      });
    });
    if (!pairs.length) return result;
    let keep: ArrayLike<number> = Array.from({ length: pairs.length }, (_, i) => i);
    if (this.condition) {
      const types = [...this.left.output, ...this.right.output].map((a) => a.type);
      keep = this.condition(batchFromRows(types, pairs), ctx.eval);
    }
    const removed = new Map<string, Set<number>>();
    for (let k = 0; k < keep.length; k++) {
      const ref = refs[keep[k]!]!;
      const list = lists.get(ref.key)!;
      result[ref.row]!.push(list[ref.idx]!.slice(1));
      if (onMatch) {
        const copy = [...list[ref.idx]!] as Stored;
        if (onMatch(copy)) removed.set(ref.key, (removed.get(ref.key) ?? new Set<number>()).add(ref.idx));
        list[ref.idx] = copy;
        setRow(other[partitionOf(ref.key, n)]!, ref.key, ref.idx, copy);
      }
    }
    for (const [key, gone] of removed) {
      const list = lists.get(key)!;
      replaceRows(
        other[partitionOf(key, n)]!,
        key,
        list.filter((_, i) => !gone.has(i)),
        Math.min(...gone),
      );
    }
    return result;
  }

  private evict(stores: StateStore[], cleanup: SideCleanup | null, evictMs: number, onEvict: (r: Stored) => unknown): number {
    if (!cleanup) return 0;
    const { keyIndex, value } = cleanup;
    const endOf = (v: unknown): number => (typeof v === "number" ? v : ((v as { end: number } | null)?.end ?? Number.NEGATIVE_INFINITY));
    let removed = 0;
    for (const s of stores) {
      for (const key of allKeys(s)) {
        // A watermark in the join key settles all of the key's rows at once.
        const keyGone = keyIndex !== undefined && endOf((JSON.parse(key) as unknown[])[keyIndex]) <= evictMs * 1000;
        if (keyIndex !== undefined && !keyGone) continue;
        const list = rowsOf(s, key);
        const keep: Stored[] = [];
        let first = -1;
        list.forEach((r, i) => {
          if (keyGone || endOf(r[value!.column + 1]) <= (evictMs + value!.offsetMs) * 1000) {
            onEvict(r);
            removed++;
            if (first < 0) first = i;
          } else keep.push(r);
        });
        if (first >= 0) replaceRows(s, key, keep, first);
      }
    }
    return removed;
  }

  describe(): string {
    return `${this.joinType}, [${this.leftKeys.map(exprToSql).join(", ")}] = [${this.rightKeys.map(exprToSql).join(", ")}], operator ${this.operatorId}`;
  }
}
