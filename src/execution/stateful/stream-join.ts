/**
 * Stream-stream join (Spark's StreamingSymmetricHashJoinExec), per micro-batch:
 *   1. each side drops input at or below the late watermark (if it has an event-time column);
 *   2. new left rows are matched against stored right rows (flagging those `matched` for
 *      right/full outer joins), then stored (with a `matched` flag); new right rows are matched against stored left rows — which now include this
 *      batch's — and stored (unless this batch's eviction would remove them at once), so every
 *      new/new pair is produced exactly once. Left semi stores no left row that has matched:
 *      one matching on arrival is emitted and dropped, a stored one leaves the state on its
 *      first match (Spark 4.3);
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
import { extractEquiKeys } from "../../plan/join-keys.js";
import type { JoinType } from "../../plan/logical.js";
import { exprToSql } from "../../plan/sql-text.js";
import type { StateStore } from "../../state/store.js";
import { compileExpr, compilePredicate } from "../compile.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { eventTimeKeyIndex, eventTimeMicros, newMetrics, partitionOf } from "./common.js";
import { watermarksOf } from "./context.js";
import { allKeys, appendRows, joinKey, plainKey, removeKey, replaceRows, rowsOf, type Stored, setRow, totalRows } from "./join-state.js";

const NULL_KEY = "\u0000null";
/** A time (micros) or a window's end, as eviction compares them. */
const endOf = (v: unknown): number => (typeof v === "number" ? v : ((v as { end: number } | null)?.end ?? Number.NEGATIVE_INFINITY));
type Side = "left" | "right";
/** One side's input rows after the late-row filter, with their join keys. */
interface SideInput {
  rows: unknown[][];
  keys: string[];
  /** The key's event time (micros) when the side is evicted by its key, else NaN. */
  keyTimes: number[];
  /** Every key is made of finite numbers, strings, booleans and flat structs of these (plainKey). */
  plainKeys: boolean;
}
const NO_MATCHES: readonly Stored[] = [];

/** An output row: the input row and a stored row's values (its flag left out), in side order. */
function withStored(row: readonly unknown[], stored: Stored, inputLeft: boolean): unknown[] {
  const out = new Array<unknown>(row.length + stored.length - 1);
  const [a, b] = inputLeft ? [0, row.length] : [stored.length - 1, 0];
  for (let i = 0; i < row.length; i++) out[a + i] = row[i];
  for (let i = 1; i < stored.length; i++) out[b + i - 1] = stored[i];
  return out;
}

/**
 * A side's new rows of this batch, grouped by key and stored once the side's loop is done:
 * a key that gets several rows in one batch has its count read and written once.
 */
class PendingRows {
  private readonly byKey = new Map<string, Stored[]>();

  add(key: string, row: Stored): void {
    const rows = this.byKey.get(key);
    if (rows) rows.push(row);
    else this.byKey.set(key, [row]);
  }

  flush(stores: StateStore[]): void {
    for (const [key, rows] of this.byKey) appendRows(stores[partitionOf(key, stores.length)]!, key, rows);
    this.byKey.clear();
  }
}

export class StreamStreamJoinExec implements PhysicalOperator {
  readonly name = "StreamingSymmetricHashJoin";
  readonly children: PhysicalOperator[];
  private readonly cleanup: { left: SideCleanup | null; right: SideCleanup | null };
  private readonly condition;
  /** The condition without the key equalities (null: the keys are the whole condition). */
  private readonly residual;
  /**
   * Event time (micros) of each join key, for sides whose watermark is in the key: a pure
   * function of the key string, so it stays valid whatever state version is loaded. Filled as
   * keys arrive (or parsed once for restored keys), dropped as keys are evicted and pruned
   * to the live keys when it outgrows them.
   */
  private readonly keyEnds = { left: new Map<string, number>(), right: new Map<string, number>() };

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
    const { residual } = extractEquiKeys(fullCondition, left.output, right.output);
    this.residual = residual ? compilePredicate(residual, [...left.output, ...right.output]) : null;
  }

  /** Can the given side's rows ever be evicted? (Spark's check for outer joins.) */
  static cleanupOf(join: StreamStreamJoinExec): { left: boolean; right: boolean } {
    return { left: join.cleanup.left !== null, right: join.cleanup.right !== null };
  }

  /**
   * Spark's produceOutputWatermark: the minimum of the input watermark and both sides' state
   * watermarks (a key predicate: the input watermark; a value predicate: input + its offset, e.g.
   * -10 s - 1 ms for `a.t <= b.t + interval 10 seconds`), so downstream operators can rely on
   * either side's event time.
   */
  produceOutputWatermark(inputWatermarkMs: number): number {
    const state = [this.cleanup.left, this.cleanup.right].flatMap((c) =>
      c === null ? [] : [c.value ? inputWatermarkMs + c.value.offsetMs : inputWatermarkMs],
    );
    return Math.min(inputWatermarkMs, ...state);
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const metrics = newMetrics("symmetricHashJoin", st.numPartitions);
    const stores = { left: [] as StateStore[], right: [] as StateStore[] };
    for (let p = 0; p < st.numPartitions; p++) {
      stores.left.push(await st.store(this.operatorId, p, "left"));
      stores.right.push(await st.store(this.operatorId, p, "right"));
    }
    const wm = watermarksOf(st, this.operatorId);
    const [lb, rb] = [await this.left.execute(ctx), await this.right.execute(ctx)];
    const late = (side: Side, batches: Batch[]): SideInput => {
      const op = side === "left" ? this.left : this.right;
      const col = eventTimeKeyIndex(op.output);
      const cleanup = this.cleanup[side];
      const keyExprs = (side === "left" ? this.leftKeys : this.rightKeys).map((k) => compileExpr(k, op.output));
      const input: SideInput = { rows: [], keys: [], keyTimes: [], plainKeys: true };
      for (const b of batches) {
        const et = col >= 0 ? eventTimeMicros(b.columns[col]!, b.numRows) : null;
        // Keys come from the input batch's own columns: no per-row batch is rebuilt for them.
        const keyCols = keyExprs.map((k) => k(b, ctx.eval));
        for (let i = 0; i < b.numRows; i++) {
          if (et && et[i]! <= wm.lateMs * 1000) {
            metrics.numRowsDroppedByWatermark++;
            continue;
          }
          input.rows.push(rowValues(b, i));
          const vals = keyCols.map((c) => getValue(c, i));
          const key = vals.some((v) => v === null) ? NULL_KEY : joinKey(vals);
          if (key !== NULL_KEY && input.plainKeys && !plainKey(vals)) input.plainKeys = false;
          input.keys.push(key);
          if (cleanup?.keyIndex !== undefined && key !== NULL_KEY) {
            // The key's event time, read once here so eviction never parses the key back.
            const end = endOf(vals[cleanup.keyIndex]);
            input.keyTimes.push(end);
            this.keyEnds[side].set(key, end);
          } else input.keyTimes.push(Number.NaN);
        }
      }
      return input;
    };
    const leftIn = late("left", lb);
    const rightIn = late("right", rb);
    const leftRows = leftIn.rows;
    const rightRows = rightIn.rows;
    metrics.numLateInputRows = metrics.numRowsDroppedByWatermark;

    const out: unknown[][] = [];
    const nl = this.left.output.length;
    const nr = this.right.output.length;
    const semi = this.joinType === "left_semi";
    // Left input against the right state, then stored.
    const lk = leftIn.keys;
    const nullsRight = new Array<unknown>(nr).fill(null);
    const nullsLeft = new Array<unknown>(nl).fill(null);
    const emitLeft = this.joinType === "left_outer" || this.joinType === "full_outer";
    const emitRight = this.joinType === "right_outer" || this.joinType === "full_outer";
    // A stored right row a new left row matches is flagged, as Spark's getJoinedRows does
    // whichever side probes: only right/full outer read that flag (at eviction), so only they
    // pay for the write.
    const flagRight = emitRight
      ? (stored: Stored) => {
          stored[0] = 1;
          return false;
        }
      : undefined;
    const leftMatches = this.match(leftRows, lk, leftIn.plainKeys, stores.right, "left", ctx, flagRight);
    const pendingLeft = new PendingRows();
    const pendingRight = new PendingRows();
    // Left rows stored in this batch, per key (they are the last ones of the key's list).
    const newLeft = new Map<string, number>();
    leftRows.forEach((row, i) => {
      const hits = leftMatches[i] ?? NO_MATCHES;
      if (lk[i] === NULL_KEY) {
        // A NULL key never matches: an outer join emits the row now, nothing is stored.
        if (emitLeft) out.push([...row, ...nullsRight]);
        return;
      }
      if (semi) {
        // Left semi: a row that matches on arrival is emitted and never stored.
        if (hits.length) {
          out.push(row);
          return;
        }
        pendingLeft.add(lk[i]!, [0, ...row]);
      } else {
        for (const r of hits) out.push(withStored(row, r, true));
        pendingLeft.add(lk[i]!, [hits.length ? 1 : 0, ...row]);
      }
      newLeft.set(lk[i]!, (newLeft.get(lk[i]!) ?? 0) + 1);
      metrics.numRowsUpdated++;
    });
    pendingLeft.flush(stores.left);
    // Right input against the left state (including this batch's left rows), then stored.
    const rk = rightIn.keys;
    const rightMatches = this.match(rightRows, rk, rightIn.plainKeys, stores.left, "right", ctx, (stored, key, idx, listLength) => {
      if (!semi) {
        stored[0] = 1;
        return false;
      }
      // Left semi (Spark 4.3): a stored left row is emitted on its first match and leaves the
      // state. Removing a row stored earlier counts in numRowsRemoved; a row stored in this very
      // batch counts neither as updated nor as removed.
      if (stored[0] === 0) {
        out.push(stored.slice(1));
        if (idx >= listLength - (newLeft.get(key) ?? 0)) metrics.numRowsUpdated--;
        else metrics.numRowsRemoved++;
      }
      stored[0] = 1;
      return true;
    });
    const semiRemoved = metrics.numRowsRemoved;
    rightRows.forEach((row, i) => {
      const hits = rightMatches[i] ?? NO_MATCHES;
      if (rk[i] === NULL_KEY) {
        if (emitRight) out.push([...nullsLeft, ...row]);
        return;
      }
      if (!semi) for (const l of hits) out.push(withStored(row, l, false));
      // Spark stores a right row only if this batch's eviction would not remove it at once,
      // except an unmatched one of a right/full outer join (evicting it emits its outer row).
      if (this.evictsNow(this.cleanup.right, rightIn.keyTimes[i]!, row, wm.evictionMs) && !(emitRight && !hits.length)) return;
      pendingRight.add(rk[i]!, [hits.length ? 1 : 0, ...row]);
      metrics.numRowsUpdated++;
    });

    pendingRight.flush(stores.right);
    // Evict; outer joins emit the evicted rows that never matched.
    const evictMs = wm.evictionMs;
    // Spark 4.3 counts every evicted row in numRowsRemoved, the outer sides' too (4.1 left those out).
    const removedLeft = this.evict(
      "left",
      stores.left,
      this.cleanup.left,
      evictMs,
      (r) => emitLeft && !r[0] && out.push([...r.slice(1), ...nullsRight]),
    );
    const removedRight = this.evict(
      "right",
      stores.right,
      this.cleanup.right,
      evictMs,
      (r) => emitRight && !r[0] && out.push([...nullsLeft, ...r.slice(1)]),
    );
    metrics.numRowsRemoved = semiRemoved + removedLeft + removedRight;

    let total = 0;
    for (const s of [...stores.left, ...stores.right]) {
      await s.commit();
      total += totalRows(s);
    }
    metrics.numRowsTotal = total;
    metrics.numStateStoreInstances = st.numPartitions * 4;
    metrics.memoryUsedBytes = stores.left[0]?.memoryUsedBytes() ?? 0;
    st.report.addStateOperator(this.operatorId, metrics);
    return out.length
      ? [
          batchFromRows(
            this.output.map((a) => a.type),
            out,
          ),
        ]
      : [];
  }

  /**
   * For each input row, the stored rows of the other side it matches (full condition).
   * Rows of equal keys satisfy the key equalities when the keys are plain (`plainKeys`), so
   * then only the residual condition is evaluated, as Spark's join evaluates only what is left
   * of the condition after the keys; otherwise (NaN, infinities, nested NULLs...) the full one.
   * `onMatch` may flag a stored row (on a copy it is given, with its key, position and the key's
   * row count); returning true removes it from state.
   */
  private match(
    rows: unknown[][],
    keys: string[],
    plainKeys: boolean,
    other: StateStore[],
    side: Side,
    ctx: ExecContext,
    onMatch?: (stored: Stored, key: string, idx: number, listLength: number) => boolean,
  ): (Stored[] | undefined)[] {
    const n = other.length;
    // Per input row, the stored rows it matches (undefined: none; most rows match nothing).
    const result: (Stored[] | undefined)[] = new Array(rows.length);
    const condition = plainKeys ? this.residual : this.condition;
    const pairs: unknown[][] = [];
    // Candidate pairs as parallel arrays: input row, key, position in the key's list.
    const refRow: number[] = [];
    const refKey: string[] = [];
    const refIdx: number[] = [];
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
      for (let idx = 0; idx < list.length; idx++) {
        // Pairs are built only for a condition to read.
        if (condition) pairs.push(side === "left" ? [...row, ...list[idx]!.slice(1)] : [...list[idx]!.slice(1), ...row]);
        refRow.push(i);
        refKey.push(key);
        refIdx.push(idx);
      }
    });
    if (!refRow.length) return result;
    let keep: ArrayLike<number> | null = null;
    if (condition) {
      const types = [...this.left.output, ...this.right.output].map((a) => a.type);
      keep = condition(batchFromRows(types, pairs), ctx.eval);
    }
    const removed = new Map<string, Set<number>>();
    const kept = keep === null ? refRow.length : keep.length;
    for (let k = 0; k < kept; k++) {
      const j = keep === null ? k : keep[k]!;
      const key = refKey[j]!;
      const idx = refIdx[j]!;
      const list = lists.get(key)!;
      const before = list[idx]!;
      // The stored row itself: the caller skips its flag when it builds the output row.
      (result[refRow[j]!] ??= []).push(before);
      if (onMatch) {
        const copy = [...before] as Stored;
        const gone = onMatch(copy, key, idx, list.length);
        if (gone) removed.set(key, (removed.get(key) ?? new Set<number>()).add(idx));
        // onMatch only sets the matched flag: a row already flagged needs no write.
        if (gone || copy[0] !== before[0]) {
          list[idx] = copy;
          setRow(other[partitionOf(key, n)]!, key, idx, copy);
        }
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

  /** Would this batch's eviction remove a row of this side (key, row values) right away? */
  private evictsNow(cleanup: SideCleanup | null, keyTime: number, row: unknown[], evictMs: number): boolean {
    if (!cleanup) return false;
    if (cleanup.keyIndex !== undefined) return keyTime <= evictMs * 1000;
    return endOf(row[cleanup.value!.column]) <= (evictMs + cleanup.value!.offsetMs) * 1000;
  }

  private evict(side: Side, stores: StateStore[], cleanup: SideCleanup | null, evictMs: number, onEvict: (r: Stored) => unknown): number {
    if (!cleanup) return 0;
    const ends = this.keyEnds[side];
    const { keyIndex, value } = cleanup;
    let removed = 0;
    const live: string[] = [];
    for (const s of stores) {
      for (const key of allKeys(s)) {
        if (keyIndex !== undefined) {
          // A watermark in the join key settles all of the key's rows at once.
          let end = ends.get(key);
          if (end === undefined) {
            // A key stored before this process (restored state): parse it once.
            end = endOf((JSON.parse(key) as unknown[])[keyIndex]);
            ends.set(key, end);
          }
          if (end > evictMs * 1000) {
            live.push(key);
            continue;
          }
          ends.delete(key);
          removed += removeKey(s, key, onEvict);
          continue;
        }
        const list = rowsOf(s, key);
        const keep: Stored[] = [];
        let first = -1;
        list.forEach((r, i) => {
          if (endOf(r[value!.column + 1]) <= (evictMs + value!.offsetMs) * 1000) {
            onEvict(r);
            removed++;
            if (first < 0) first = i;
          } else keep.push(r);
        });
        if (first >= 0) replaceRows(s, key, keep, first);
      }
    }
    // Keys that left the state other than by eviction (or were never stored) leave the cache
    // once it holds many more keys than the state.
    if (ends.size > 2 * live.length + 1024) {
      const kept = live.map((k) => [k, ends.get(k)!] as const);
      ends.clear();
      for (const [k, e] of kept) ends.set(k, e);
    }
    return removed;
  }

  describe(): string {
    return `${this.joinType}, [${this.leftKeys.map(exprToSql).join(", ")}] = [${this.rightKeys.map(exprToSql).join(", ")}], operator ${this.operatorId}`;
  }
}
