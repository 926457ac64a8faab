/**
 * Stream-stream join (Spark's StreamingSymmetricHashJoinExec), per micro-batch:
 *   1. each side drops input at or below the late watermark (if it has an event-time column);
 *   2. new left rows are matched against stored right rows (flagging those `matched` for
 *      right/full outer joins), then stored (with a `matched` flag); new right rows are matched
 *      against stored left rows (flagging those for left/full outer joins) — which now include
 *      this batch's — and stored (unless this batch's eviction would remove them at once), so every
 *      new/new pair is produced exactly once. Left semi stores no left row that has matched:
 *      one matching on arrival is emitted and dropped, a stored one leaves the state on its
 *      first match (Spark 4.3);
 *   3. rows that can no longer match are evicted (see join-conditions.ts); for outer joins the
 *      evicted rows that never matched are emitted with NULLs for the other side — which is
 *      why outer rows appear only once the watermark passes.
 * State: each side's rows over every partition, behind `JoinSide` (join-side.ts): the columnar
 * join tables (join-columnar-side.ts, src/state/join/) with `arus.state.join.columnar`, else the
 * row stores, one per side and partition, laid out as Spark's keyToNumValues +
 * keyWithIndexToValue (join-row-side.ts, join-state.ts). Progress reports
 * numStateStoreInstances as Spark's 4 × partitions.
 * Rows stay columnar: the input as vectors with per-row keys (join-input.ts), stored rows
 * appended from the vectors, output gathered column by column (join-output.ts).
 */

import type { Batch } from "../../columnar/batch.js";
import { getValue, type Vector } from "../../columnar/vector.js";
import { crashPoint } from "../../common/crash-points.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { deriveCleanup, type SideCleanup } from "../../plan/join-cleanup.js";
import { extractEquiKeys } from "../../plan/join-keys.js";
import type { JoinType } from "../../plan/logical.js";
import { exprToSql } from "../../plan/sql-text.js";
import type { StateStore } from "../../state/store.js";
import { compileExpr, compilePredicate } from "../compile.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { eventTimeKeyIndex, newMetrics } from "./common.js";
import { type StatefulContext, watermarksOf } from "./context.js";
import { ColumnarJoinSide } from "./join-columnar-side.js";
import { NULL_KEY, type SideInput, sideInput } from "./join-input.js";
import { JoinOutput, pairBatch } from "./join-output.js";
import { RowJoinSide } from "./join-row-side.js";
import { endOf, type JoinSide } from "./join-side.js";

type Side = "left" | "right";

export class StreamStreamJoinExec implements PhysicalOperator {
  readonly name = "StreamingSymmetricHashJoin";
  /** Operators created in this process, by state backend (tests check a setting took effect). */
  static readonly created = { row: 0, columnar: 0 };
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
    /** Keep the state in the columnar join tables (`arus.state.join.columnar`) instead of the row stores. */
    readonly columnar = false,
  ) {
    this.children = [left, right];
    StreamStreamJoinExec.created[columnar ? "columnar" : "row"]++;
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

  /** Each side's state for this batch, in the backend the planner chose. */
  private async sides(st: StatefulContext): Promise<{ left: JoinSide; right: JoinSide }> {
    const n = st.numPartitions;
    if (this.columnar) {
      const open = st.columnarJoinStore;
      if (!open) throw new Error("the runtime offers no columnar join state (arus.state.join.columnar)");
      const types = (op: PhysicalOperator) => op.output.map((a) => a.type);
      const left = [];
      const right = [];
      for (let p = 0; p < n; p++) {
        left.push(await open.call(st, this.operatorId, p, "left", types(this.left)));
        right.push(await open.call(st, this.operatorId, p, "right", types(this.right)));
      }
      return { left: new ColumnarJoinSide(left), right: new ColumnarJoinSide(right) };
    }
    const stores = { left: [] as StateStore[], right: [] as StateStore[] };
    for (let p = 0; p < n; p++) {
      stores.left.push(await st.store(this.operatorId, p, "left"));
      stores.right.push(await st.store(this.operatorId, p, "right"));
    }
    return { left: new RowJoinSide(stores.left, this.keyEnds.left), right: new RowJoinSide(stores.right, this.keyEnds.right) };
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const metrics = newMetrics("symmetricHashJoin", st.numPartitions);
    const state = await this.sides(st);
    const wm = watermarksOf(st, this.operatorId);
    const [lb, rb] = [await this.left.execute(ctx), await this.right.execute(ctx)];
    const input = (side: Side, batches: Batch[]): SideInput => {
      const op = side === "left" ? this.left : this.right;
      const keyExprs = (side === "left" ? this.leftKeys : this.rightKeys).map((k) => compileExpr(k, op.output));
      return sideInput(
        op.output.map((a) => a.type),
        batches,
        eventTimeKeyIndex(op.output),
        wm.lateMs * 1000,
        this.cleanup[side],
        st.numPartitions,
        (b) => keyExprs.map((k) => k(b, ctx.eval)),
      );
    };
    const leftIn = input("left", lb);
    const rightIn = input("right", rb);
    metrics.numRowsDroppedByWatermark = leftIn.late + rightIn.late;
    metrics.numLateInputRows = metrics.numRowsDroppedByWatermark;

    const nl = this.left.output.length;
    const nr = this.right.output.length;
    const semi = this.joinType === "left_semi";
    const out = new JoinOutput(
      this.left.output.map((a) => a.type),
      this.right.output.map((a) => a.type),
      semi,
    );
    const emitLeft = this.joinType === "left_outer" || this.joinType === "full_outer";
    const emitRight = this.joinType === "right_outer" || this.joinType === "full_outer";
    // Left input against the right state, then stored.
    const lk = leftIn.keys;
    const lcols = leftIn.batch.columns;
    // A stored right row a new left row matches is flagged, as Spark's getJoinedRows does
    // whichever side probes: only right/full outer read that flag (at eviction), so only they
    // pay for the write.
    const flagRight = emitRight ? (ref: number) => state.right.setMatched(ref) : undefined;
    const leftHits = this.match(leftIn, state.right, "left", ctx, flagRight);
    for (let i = 0; i < lk.length; i++) {
      const row = leftIn.rows[i]!;
      const from = leftHits.from[i]!;
      const to = leftHits.from[i + 1]!;
      if (lk[i] === NULL_KEY) {
        // A NULL key never matches: an outer join emits the row now, nothing is stored.
        if (emitLeft) out.pair(true, leftIn.batch, row, null, -1);
        continue;
      }
      if (semi) {
        // Left semi: a row that matches on arrival is emitted and never stored.
        if (to > from) {
          out.pair(true, leftIn.batch, row, null, -1);
          continue;
        }
        state.left.append(lk[i]!, leftIn.parts[i]!, leftIn.keyTimes[i]!, lcols, row, false);
      } else {
        for (let j = from; j < to; j++) out.pair(true, leftIn.batch, row, state.right, leftHits.refs[j]!);
        state.left.append(lk[i]!, leftIn.parts[i]!, leftIn.keyTimes[i]!, lcols, row, to > from);
      }
      metrics.numRowsUpdated++;
    }
    state.left.flush();
    // Right input against the left state (including this batch's left rows), then stored.
    const rk = rightIn.keys;
    const rcols = rightIn.batch.columns;
    // Likewise a stored left row is flagged only where a flag is read: left/full outer (at
    // eviction) and left semi (on its first match).
    const flagLeft = emitLeft ? (ref: number) => state.left.setMatched(ref) : undefined;
    const rightHits = this.match(
      rightIn,
      state.left,
      "right",
      ctx,
      !semi
        ? flagLeft
        : (ref) => {
            // Left semi (Spark 4.3): a stored left row is emitted on its first match and leaves the
            // state. Removing a row stored earlier counts in numRowsRemoved; a row stored in this very
            // batch counts neither as updated nor as removed.
            if (!state.left.matched(ref)) {
              const row = new Array<unknown>(nl);
              state.left.copyRow(ref, row, 0);
              out.values(row);
              if (state.left.isNew(ref)) metrics.numRowsUpdated--;
              else metrics.numRowsRemoved++;
            }
            state.left.setMatched(ref);
            state.left.remove(ref);
          },
    );
    const semiRemoved = metrics.numRowsRemoved;
    for (let i = 0; i < rk.length; i++) {
      const row = rightIn.rows[i]!;
      const from = rightHits.from[i]!;
      const to = rightHits.from[i + 1]!;
      if (rk[i] === NULL_KEY) {
        if (emitRight) out.pair(false, rightIn.batch, row, null, -1);
        continue;
      }
      if (!semi) for (let j = from; j < to; j++) out.pair(false, rightIn.batch, row, state.left, rightHits.refs[j]!);
      // Spark stores a right row only if this batch's eviction would not remove it at once,
      // except an unmatched one of a right/full outer join (evicting it emits its outer row).
      if (this.evictsNow(this.cleanup.right, rightIn.keyTimes[i]!, rcols, row, wm.evictionMs) && !(emitRight && to === from)) continue;
      state.right.append(rk[i]!, rightIn.parts[i]!, rightIn.keyTimes[i]!, rcols, row, to > from);
      metrics.numRowsUpdated++;
    }
    state.right.flush();
    // Evict; outer joins emit the evicted rows that never matched.
    const evictMs = wm.evictionMs;
    // Spark 4.3 counts every evicted row in numRowsRemoved, the outer sides' too (4.1 left those out).
    const evictSide = (side: JoinSide, cleanup: SideCleanup | null, emit: boolean, inputLeft: boolean): number =>
      cleanup === null
        ? 0
        : side.evict(cleanup, evictMs, (ref) => {
            if (!emit || side.matched(ref)) return;
            const o = new Array<unknown>(nl + nr).fill(null);
            side.copyRow(ref, o, inputLeft ? 0 : nl);
            out.values(o);
          });
    const removedLeft = evictSide(state.left, this.cleanup.left, emitLeft, true);
    const removedRight = evictSide(state.right, this.cleanup.right, emitRight, false);
    metrics.numRowsRemoved = semiRemoved + removedLeft + removedRight;
    // Gathered before the commit, while every ref still names its row (removed ones too).
    const batches = out.batches();

    const leftTotal = await state.left.commit();
    crashPoint("insideJoinCommit", st.batchId);
    metrics.numRowsTotal = leftTotal + (await state.right.commit());
    crashPoint("afterStateCommit", st.batchId);
    metrics.numStateStoreInstances = st.numPartitions * 4;
    metrics.memoryUsedBytes = state.left.memoryUsedBytes();
    st.report.addStateOperator(this.operatorId, metrics);
    return batches;
  }

  /**
   * For each input row, the refs of the stored rows of the other side it matches (full
   * condition): row i's are `refs[from[i] .. from[i + 1] - 1]`. Rows of equal keys satisfy the
   * key equalities when the keys are plain (`plainKeys`), so then only the residual condition
   * is evaluated, as Spark's join evaluates only what is left of the condition after the keys;
   * otherwise (NaN, infinities, nested NULLs...) the full one. `onMatch` is called per match,
   * in input order (it may flag or remove the stored row).
   */
  private match(
    input: SideInput,
    other: JoinSide,
    side: Side,
    ctx: ExecContext,
    onMatch?: (ref: number) => void,
  ): { from: Int32Array; refs: number[] } {
    const keys = input.keys;
    const n = keys.length;
    const condition = input.plainKeys ? this.residual : this.condition;
    const from = new Int32Array(n + 1);
    const refs: number[] = [];
    for (let i = 0; i < n; i++) {
      from[i] = refs.length;
      if (keys[i] !== NULL_KEY) other.rowsOf(keys[i]!, input.parts[i]!, refs);
    }
    from[n] = refs.length;
    if (!condition || refs.length === 0) {
      if (onMatch) for (const r of refs) onMatch(r);
      other.endProbe();
      return { from, refs };
    }
    // Candidate pairs, one per ref: the input row of each, then the condition over them all.
    const candRow = new Int32Array(refs.length);
    const batchRows: number[] = new Array(refs.length);
    for (let i = 0; i < n; i++) {
      for (let j = from[i]!; j < from[i + 1]!; j++) {
        candRow[j] = i;
        batchRows[j] = input.rows[i]!;
      }
    }
    const pairs = pairBatch(
      this.left.output.map((a) => a.type),
      this.right.output.map((a) => a.type),
      side === "left",
      input.batch,
      batchRows,
      other,
      refs,
    );
    // The selected candidates, ascending (selectionFromMask): each row's stay together, in order.
    const keep = condition(pairs, ctx.eval);
    const kept: number[] = [];
    const count = new Int32Array(n + 1);
    for (let k = 0; k < keep.length; k++) {
      const j = keep[k]!;
      kept.push(refs[j]!);
      count[candRow[j]! + 1]!++;
      onMatch?.(refs[j]!);
    }
    for (let i = 0; i < n; i++) count[i + 1]! += count[i]!;
    other.endProbe();
    return { from: count, refs: kept };
  }

  /** Would this batch's eviction remove a row of this side (key, row values) right away? */
  private evictsNow(cleanup: SideCleanup | null, keyTime: number, cols: readonly Vector[], row: number, evictMs: number): boolean {
    if (!cleanup) return false;
    if (cleanup.keyIndex !== undefined) return keyTime <= evictMs * 1000;
    return endOf(getValue(cols[cleanup.value!.column]!, row)) <= (evictMs + cleanup.value!.offsetMs) * 1000;
  }

  describe(): string {
    return `${this.joinType}, [${this.leftKeys.map(exprToSql).join(", ")}] = [${this.rightKeys.map(exprToSql).join(", ")}], operator ${this.operatorId}`;
  }
}
