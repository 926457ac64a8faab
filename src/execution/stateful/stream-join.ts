/**
 * Stream-stream join (Spark's StreamingSymmetricHashJoinExec), per micro-batch: each side drops
 * input at or below the late watermark (if it has an event-time column) and keys its rows
 * (join-input.ts); then the batch's matching, storing and eviction run over both sides' state
 * (join-batch.ts) — here, over every partition, or on the state threads, each over the
 * partitions it owns (`arus.state.threads`, parallel/join-routing.ts; columnar state only; under
 * "auto" after a while here, parallel/state-move.ts).
 * State: each side's rows over every partition, behind `JoinSide` (join-side.ts): the columnar
 * join tables (join-columnar-side.ts, src/state/join/) with `arus.state.join.columnar`, else the
 * row stores, one per side and partition, laid out as Spark's keyToNumValues +
 * keyWithIndexToValue (join-row-side.ts, join-state.ts). Progress reports
 * numStateStoreInstances as Spark's 4 × partitions.
 * Rows stay columnar: the input as vectors with per-row keys (join-input.ts), stored rows
 * appended from the vectors, output gathered column by column (join-output.ts).
 */

import { type Batch, takeBatch } from "../../columnar/batch.js";
import { type Attribute, type Expr, exprIdsInUse } from "../../plan/expressions.js";
import type { SideCleanup } from "../../plan/join-cleanup.js";
import type { JoinType } from "../../plan/logical.js";
import { exprToSql } from "../../plan/sql-text.js";
import type { StateStore } from "../../state/store.js";
import { compileExpr } from "../compile.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { type JoinOperatorDef, type RoutedSide, routedRows } from "../parallel/join-routing.js";
import { type MoveAfter, StateMove } from "../parallel/state-move.js";
import { rebuildableOnThread } from "../thread-portable.js";
import { eventTimeKeyIndex, lateRowsOf, newMetrics } from "./common.js";
import { type StatefulContext, watermarksOf } from "./context.js";
import { commitSides, type JoinPlan, joinBatch, joinPlanOf } from "./join-batch.js";
import { ColumnarJoinSide } from "./join-columnar-side.js";
import { type SideInput, sideInput } from "./join-input.js";
import { RowJoinSide } from "./join-row-side.js";
import type { JoinSide } from "./join-side.js";

type Side = "left" | "right";

export class StreamStreamJoinExec implements PhysicalOperator {
  readonly name = "StreamingSymmetricHashJoin";
  /** Operators created in this process, by state backend (tests check a setting took effect). */
  static readonly created = { row: 0, columnar: 0, threads: 0 };
  readonly children: PhysicalOperator[];
  private readonly plan: JoinPlan;
  /**
   * Event time (micros) of each join key, for sides whose watermark is in the key: a pure
   * function of the key string, so it stays valid whatever state version is loaded. Filled as
   * keys arrive (or parsed once for restored keys), dropped as keys are evicted and pruned
   * to the live keys when it outgrows them.
   */
  private readonly keyEnds = { left: new Map<string, number>(), right: new Map<string, number>() };
  /** The state is on the state threads (the runtime boots them for this plan). */
  readonly usesStateThreads: boolean;
  /** With the state on the state threads: when it moves there from the main thread (state-move.ts). */
  readonly stateMove: StateMove | null;

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
    /** State threads the columnar state may live on (`arus.state.threads`; 1: this thread). */
    stateThreads = 1,
    /** With the state on the state threads: how long each run joins on this thread first (`arus.state.threads.moveAfter`). */
    moveAfter?: MoveAfter,
  ) {
    this.children = [left, right];
    this.plan = joinPlanOf(leftKeys, rightKeys, joinType, fullCondition, left.output, right.output);
    // a thread rebuilds the condition: it must mean the same there (no user function)
    this.usesStateThreads = columnar && stateThreads > 1 && (fullCondition === null || rebuildableOnThread(fullCondition));
    this.stateMove = this.usesStateThreads ? new StateMove(operatorId, moveAfter ?? { ms: 0 }) : null;
    StreamStreamJoinExec.created[this.usesStateThreads ? "threads" : columnar ? "columnar" : "row"]++;
  }

  /** Can the given side's rows ever be evicted? (Spark's check for outer joins.) */
  static cleanupOf(join: StreamStreamJoinExec): { left: boolean; right: boolean } {
    return { left: join.plan.cleanup.left !== null, right: join.plan.cleanup.right !== null };
  }

  /**
   * Spark's produceOutputWatermark: the minimum of the input watermark and both sides' state
   * watermarks (a key predicate: the input watermark; a value predicate: input + its offset, e.g.
   * -10 s - 1 ms for `a.t <= b.t + interval 10 seconds`), so downstream operators can rely on
   * either side's event time.
   */
  produceOutputWatermark(inputWatermarkMs: number): number {
    const state = [this.plan.cleanup.left, this.plan.cleanup.right].flatMap((c: SideCleanup | null) =>
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
    const wm = watermarksOf(st, this.operatorId);
    const [lb, rb] = [await this.left.execute(ctx), await this.right.execute(ctx)];
    const onThreads = this.stateMove !== null && (await this.stateMove.onThreads(st));
    const input = (side: Side, batches: Batch[]): SideInput => {
      const op = side === "left" ? this.left : this.right;
      const keyExprs = (side === "left" ? this.leftKeys : this.rightKeys).map((k) => compileExpr(k, op.output));
      return sideInput(
        op.output.map((a) => a.type),
        batches,
        eventTimeKeyIndex(op.output),
        wm.lateMs * 1000,
        this.plan.cleanup[side],
        st.numPartitions,
        (b) => keyExprs.map((k) => k(b, ctx.eval)),
      );
    };
    // the rows a side dropped as late go to the query's late-rows handler, as other operators' do
    const reportLate = (side: Side, s: SideInput): void => {
      if (s.late === 0) return;
      const late = new Int32Array(s.late);
      for (let i = 0, j = 0, k = 0; i < s.batch.numRows; i++) {
        if (j < s.rows.length && s.rows[j] === i) j++;
        else late[k++] = i;
      }
      const op = side === "left" ? this.left : this.right;
      st.report.addLateRows(lateRowsOf(this.operatorId, metrics.operatorName, op.output, takeBatch(s.batch, late), wm.lateMs));
    };
    let output: Batch[];
    if (onThreads) {
      const threads = st.stateThreads;
      if (!threads) throw new Error(`operator ${this.operatorId}: the runtime started no state threads (arus.state.threads)`);
      // rows the decode threads split by owner go as they are: their threads key them
      const routedOr = (side: Side, batches: Batch[]): SideInput | RoutedSide => {
        const byOwner = routedRows(batches, threads.size);
        if (byOwner === null) {
          const s = input(side, batches);
          reportLate(side, s);
          return s;
        }
        const op = side === "left" ? this.left : this.right;
        return { byOwner, timeCol: eventTimeKeyIndex(op.output), lateMicros: wm.lateMs * 1000 };
      };
      const leftIn = routedOr("left", lb);
      const rightIn = routedOr("right", rb);
      const types = this.output.map((a) => a.type);
      const r = await threads.join(this.threadDef(), st.batchId, leftIn, rightIn, wm.evictionMs, ctx.eval, types);
      const lateOnMain = (s: SideInput | RoutedSide) => ("late" in s ? s.late : 0);
      metrics.numRowsDroppedByWatermark = lateOnMain(leftIn) + lateOnMain(rightIn) + r.lateRows;
      output = r.output;
      metrics.numRowsUpdated = r.numRowsUpdated;
      metrics.numRowsRemoved = r.numRowsRemoved;
      metrics.numRowsTotal = r.numRowsTotal;
      metrics.memoryUsedBytes = r.memoryUsedBytes;
    } else {
      const t0 = performance.now();
      const leftIn = input("left", lb);
      const rightIn = input("right", rb);
      reportLate("left", leftIn);
      reportLate("right", rightIn);
      metrics.numRowsDroppedByWatermark = leftIn.late + rightIn.late;
      const state = await this.sides(st);
      const r = joinBatch(this.plan, state, leftIn, rightIn, wm.evictionMs, ctx.eval);
      output = r.output;
      metrics.numRowsUpdated = r.numRowsUpdated;
      metrics.numRowsRemoved = r.numRowsRemoved;
      metrics.numRowsTotal = await commitSides(state, st.batchId);
      metrics.memoryUsedBytes = state.left.memoryUsedBytes() + state.right.memoryUsedBytes();
      this.stateMove?.ranOnMain(performance.now() - t0);
    }
    metrics.numLateInputRows = metrics.numRowsDroppedByWatermark;
    metrics.numStateStoreInstances = st.numPartitions * 4;
    st.report.addStateOperator(this.operatorId, metrics);
    return output;
  }

  /** What a state thread needs to rebuild this join. */
  private threadDef(): JoinOperatorDef {
    return {
      operatorId: this.operatorId,
      leftKeys: this.leftKeys,
      rightKeys: this.rightKeys,
      joinType: this.joinType,
      fullCondition: this.fullCondition,
      leftOutput: this.left.output,
      rightOutput: this.right.output,
      exprIdsInUse: exprIdsInUse(),
    };
  }

  describe(): string {
    return `${this.joinType}, [${this.leftKeys.map(exprToSql).join(", ")}] = [${this.rightKeys.map(exprToSql).join(", ")}], operator ${this.operatorId}`;
  }
}
