/**
 * One micro-batch of a stream-stream join over its two sides' state (Spark's
 * StreamingSymmetricHashJoinExec.processPartitions), whoever holds the state: the operator on
 * the main thread over every partition (stream-join.ts), or a state thread over the partitions
 * it owns (parallel/join-thread.ts). Per batch:
 *   0. a row failing the part of the condition that reads its own side only (Spark's
 *      preJoinFilter) can match nothing: it is not stored, and a side an outer join preserves
 *      emits it at once with NULLs. A row with a NULL in its join key matches nothing either,
 *      but Spark drops it only where its optimizer adds `isnotnull(key)` (inner joins, the
 *      NULL-supplying side of an outer one): a preserved side stores it, and emits it when the
 *      watermark evicts it, as any unmatched row;
 *   1. new left rows are matched against stored right rows (flagging those `matched` for
 *      right/full outer joins), then stored (with a `matched` flag); new right rows are matched
 *      against stored left rows (flagging those for left/full outer joins) — which now include
 *      this batch's — and stored (unless this batch's eviction would remove them at once), so every
 *      new/new pair is produced exactly once. Left semi stores no left row that has matched:
 *      one matching on arrival is emitted and dropped, a stored one leaves the state on its
 *      first match (Spark 4.3);
 *   2. rows that can no longer match are evicted (see join-conditions.ts); for outer joins the
 *      evicted rows that never matched are emitted with NULLs for the other side — which is
 *      why outer rows appear only once the watermark passes.
 * The late rows were taken out of the input before (join-input.ts).
 */
import type { Batch } from "../../columnar/batch.js";
import { getValue, type Vector } from "../../columnar/vector.js";
import { crashPoint } from "../../common/crash-points.js";
import type { EvalContext } from "../../functions/registry.js";
import { type Attribute, collectAttributes, conjunction, conjuncts, type Expr } from "../../plan/expressions.js";
import { deriveCleanup, type SideCleanup } from "../../plan/join-cleanup.js";
import { extractEquiKeys } from "../../plan/join-keys.js";
import type { JoinType } from "../../plan/logical.js";
import { isVolatile } from "../../plan/volatile.js";
import type { DataType } from "../../types/datatypes.js";
import { compilePredicate } from "../compile.js";
import { isNullKey, type SideInput } from "./join-input.js";
import { JoinOutput, pairBatch } from "./join-output.js";
import { endOf, type JoinSide } from "./join-side.js";

type Predicate = (b: Batch, ctx: EvalContext) => Int32Array;

/** What a join's batches need of its definition, compiled once. */
export interface JoinPlan {
  readonly joinType: JoinType;
  readonly leftTypes: readonly DataType[];
  readonly rightTypes: readonly DataType[];
  readonly cleanup: { readonly left: SideCleanup | null; readonly right: SideCleanup | null };
  /** The whole condition (null: none). */
  readonly condition: Predicate | null;
  /** The condition without the key equalities (null: the keys are the whole condition). */
  readonly residual: Predicate | null;
  /** The residual's deterministic conjuncts over the left (right) side's columns only, over that side's rows. */
  readonly leftOnly: Predicate | null;
  readonly rightOnly: Predicate | null;
}

export function joinPlanOf(
  leftKeys: readonly Expr[],
  rightKeys: readonly Expr[],
  joinType: JoinType,
  fullCondition: Expr | null,
  leftOutput: readonly Attribute[],
  rightOutput: readonly Attribute[],
): JoinPlan {
  const both = [...leftOutput, ...rightOutput];
  const { residual } = extractEquiKeys(fullCondition, leftOutput, rightOutput);
  // Spark's JoinConditionSplitPredicates: a conjunct over one side's columns (or none) is that side's.
  const only = (cols: readonly Attribute[]): Predicate | null => {
    const ids = new Set(cols.map((a) => a.exprId));
    const mine = (residual ? conjuncts(residual) : []).filter(
      (c) => !isVolatile(c) && collectAttributes(c).every((a) => ids.has(a.exprId)),
    );
    return mine.length > 0 ? compilePredicate(conjunction(mine), cols) : null;
  };
  return {
    joinType,
    leftTypes: leftOutput.map((a) => a.type),
    rightTypes: rightOutput.map((a) => a.type),
    cleanup: deriveCleanup(leftKeys, rightKeys, fullCondition, leftOutput, rightOutput),
    condition: fullCondition ? compilePredicate(fullCondition, both) : null,
    residual: residual ? compilePredicate(residual, both) : null,
    leftOnly: only(leftOutput),
    rightOnly: only(rightOutput),
  };
}

export interface JoinBatchResult {
  /** Gathered before the commit, while every ref still names its row (removed ones too). */
  readonly output: Batch[];
  readonly numRowsUpdated: number;
  readonly numRowsRemoved: number;
}

/** Steps 1–2 above on `state`; the caller commits both sides after. */
export function joinBatch(
  plan: JoinPlan,
  state: { readonly left: JoinSide; readonly right: JoinSide },
  leftIn: SideInput,
  rightIn: SideInput,
  evictionMs: number,
  ctx: EvalContext,
): JoinBatchResult {
  const nl = plan.leftTypes.length;
  const nr = plan.rightTypes.length;
  const semi = plan.joinType === "left_semi";
  let updated = 0;
  let removed = 0;
  const out = new JoinOutput(plan.leftTypes, plan.rightTypes, semi);
  const emitLeft = plan.joinType === "left_outer" || plan.joinType === "full_outer";
  const emitRight = plan.joinType === "right_outer" || plan.joinType === "full_outer";
  // Left input against the right state, then stored.
  const lk = leftIn.keys;
  const lcols = leftIn.batch.columns;
  // A stored right row a new left row matches is flagged, as Spark's getJoinedRows does
  // whichever side probes: only right/full outer read that flag (at eviction), so only they
  // pay for the write.
  const flagRight = emitRight ? (ref: number) => state.right.setMatched(ref) : undefined;
  const leftHits = match(plan, leftIn, state.right, true, ctx, flagRight);
  const leftPasses = passing(plan.leftOnly, leftIn.batch, ctx);
  for (let i = 0; i < lk.length; i++) {
    const row = leftIn.rows[i]!;
    const from = leftHits.from[i]!;
    const to = leftHits.from[i + 1]!;
    if (leftPasses !== null && leftPasses[row] === 0) {
      if (emitLeft) out.pair(true, leftIn.batch, row, null, -1);
      continue;
    }
    if (!emitLeft && isNullKey(lk[i]!)) continue;
    if (semi) {
      // Left semi: a row that matches on arrival is emitted and never stored.
      if (to > from) {
        out.pair(true, leftIn.batch, row, null, -1);
        continue;
      }
      state.left.append(lk[i]!, leftIn.hashes[i]!, leftIn.parts[i]!, leftIn.keyTimes[i]!, lcols, row, false);
    } else {
      for (let j = from; j < to; j++) out.pair(true, leftIn.batch, row, state.right, leftHits.refs[j]!);
      state.left.append(lk[i]!, leftIn.hashes[i]!, leftIn.parts[i]!, leftIn.keyTimes[i]!, lcols, row, to > from);
    }
    updated++;
  }
  state.left.flush();
  // Right input against the left state (including this batch's left rows), then stored.
  const rk = rightIn.keys;
  const rcols = rightIn.batch.columns;
  // Likewise a stored left row is flagged only where a flag is read: left/full outer (at
  // eviction) and left semi (on its first match).
  const flagLeft = emitLeft ? (ref: number) => state.left.setMatched(ref) : undefined;
  const rightHits = match(
    plan,
    rightIn,
    state.left,
    false,
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
            if (state.left.isNew(ref)) updated--;
            else removed++;
          }
          state.left.setMatched(ref);
          state.left.remove(ref);
        },
  );
  const rightPasses = passing(plan.rightOnly, rightIn.batch, ctx);
  for (let i = 0; i < rk.length; i++) {
    const row = rightIn.rows[i]!;
    const from = rightHits.from[i]!;
    const to = rightHits.from[i + 1]!;
    if (rightPasses !== null && rightPasses[row] === 0) {
      if (emitRight) out.pair(false, rightIn.batch, row, null, -1);
      continue;
    }
    if (!emitRight && isNullKey(rk[i]!)) continue;
    if (!semi) for (let j = from; j < to; j++) out.pair(false, rightIn.batch, row, state.left, rightHits.refs[j]!);
    // Spark stores a right row only if this batch's eviction would not remove it at once,
    // except an unmatched one of a right/full outer join (evicting it emits its outer row).
    if (evictsNow(plan.cleanup.right, rightIn.keyTimes[i]!, rcols, row, evictionMs) && !(emitRight && to === from)) continue;
    state.right.append(rk[i]!, rightIn.hashes[i]!, rightIn.parts[i]!, rightIn.keyTimes[i]!, rcols, row, to > from);
    updated++;
  }
  state.right.flush();
  // Evict; outer joins emit the evicted rows that never matched.
  // Spark 4.3 counts every evicted row in numRowsRemoved, the outer sides' too (4.1 left those out).
  const evictSide = (side: JoinSide, cleanup: SideCleanup | null, emit: boolean, inputLeft: boolean): number =>
    cleanup === null
      ? 0
      : side.evict(cleanup, evictionMs, (ref) => {
          if (!emit || side.matched(ref)) return;
          const o = new Array<unknown>(nl + nr).fill(null);
          side.copyRow(ref, o, inputLeft ? 0 : nl);
          out.values(o);
        });
  removed += evictSide(state.left, plan.cleanup.left, emitLeft, true);
  removed += evictSide(state.right, plan.cleanup.right, emitRight, false);
  return { output: out.batches(), numRowsUpdated: updated, numRowsRemoved: removed };
}

/**
 * Commits both sides of batch `batchId` — left, then right, the crash points between and after
 * them as the crash tests expect (test/recovery/join-crash.test.ts) — and returns the rows the
 * state then holds.
 */
export async function commitSides(state: { readonly left: JoinSide; readonly right: JoinSide }, batchId: number): Promise<number> {
  const leftTotal = await state.left.commit();
  crashPoint("insideJoinCommit", batchId);
  const total = leftTotal + (await state.right.commit());
  crashPoint("afterStateCommit", batchId);
  return total;
}

/**
 * For each input row, the refs of the stored rows of the other side it matches (full
 * condition): row i's are `refs[from[i] .. from[i + 1] - 1]`. Rows of equal keys satisfy the
 * key equalities when the keys are plain (`plainKeys`), so then only the residual condition
 * is evaluated, as Spark's join evaluates only what is left of the condition after the keys;
 * otherwise (NaN, infinities, nested NULLs...) the full one. `onMatch` is called per match,
 * in input order (it may flag or remove the stored row).
 */
function match(
  plan: JoinPlan,
  input: SideInput,
  other: JoinSide,
  inputLeft: boolean,
  ctx: EvalContext,
  onMatch?: (ref: number) => void,
): { from: Int32Array; refs: number[] } {
  const keys = input.keys;
  const n = keys.length;
  const condition = input.plainKeys ? plan.residual : plan.condition;
  const from = new Int32Array(n + 1);
  const refs: number[] = [];
  for (let i = 0; i < n; i++) {
    from[i] = refs.length;
    if (!isNullKey(keys[i]!)) other.rowsOf(keys[i]!, input.hashes[i]!, input.parts[i]!, refs);
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
  const pairs = pairBatch(plan.leftTypes, plan.rightTypes, inputLeft, input.batch, batchRows, other, refs);
  // The selected candidates, ascending (selectionFromMask): each row's stay together, in order.
  const keep = condition(pairs, ctx);
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
function evictsNow(cleanup: SideCleanup | null, keyTime: number, cols: readonly Vector[], row: number, evictMs: number): boolean {
  if (!cleanup) return false;
  if (cleanup.keyIndex !== undefined) return keyTime <= evictMs * 1000;
  return endOf(getValue(cols[cleanup.value!.column]!, row)) <= (evictMs + cleanup.value!.offsetMs) * 1000;
}

/** Per row of `batch`, 1 where `predicate` holds (null: no predicate, every row passes). */
function passing(predicate: Predicate | null, batch: Batch, ctx: EvalContext): Uint8Array | null {
  if (predicate === null || batch.numRows === 0) return null;
  const mask = new Uint8Array(batch.numRows);
  const sel = predicate(batch, ctx);
  for (let k = 0; k < sel.length; k++) mask[sel[k]!] = 1;
  return mask;
}
