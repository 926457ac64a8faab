/**
 * A state thread's half of a stream-stream join (state-thread.ts serves it): the columnar join
 * tables of the partitions this thread owns, both sides, one provider per (query run, operator,
 * partition, side), loaded on first use and kept across batches; each batch runs `joinBatch`
 * (the code the main thread runs with one thread) on the rows routed here, commits both sides
 * and answers with the output rows, their typed arrays moved.
 */

import type { Batch } from "../../columnar/batch.js";
import { portableBatches } from "../../columnar/transfer.js";
import type { Vector } from "../../columnar/vector.js";
import type { EvalContext } from "../../functions/registry.js";
import { reserveExprIds } from "../../plan/expressions.js";
import { ColumnarJoinProvider } from "../../state/join/index.js";
import type { ProviderOptions } from "../../state/provider-base.js";
import { compileExpr } from "../compile.js";
import { commitSides, type JoinPlan, joinBatch, joinPlanOf } from "../stateful/join-batch.js";
import { ColumnarJoinSide } from "../stateful/join-columnar-side.js";
import type { SideInput } from "../stateful/join-input.js";
import { arrivedRows, arrivedSide, type JoinOperatorDef, type JoinThreadReply, type PostedRows, type PostedSide } from "./join-routing.js";

export interface JoinRequest {
  readonly query: string;
  readonly op: JoinOperatorDef;
  /** `<ckpt>/state/<op>/<p>/<side>` of every partition, per side (null without a checkpoint). */
  readonly dirs: { readonly left: readonly (string | null)[]; readonly right: readonly (string | null)[] };
  readonly owned: readonly number[];
  /** Per side and partition: the newest version <= `version` the commit log says has a file (0: none known). */
  readonly requiredHeads: { readonly left: readonly number[]; readonly right: readonly number[] };
  readonly version: number;
  /** Each side keyed on the main thread, or as split by the decode threads (keyed here). */
  readonly left: PostedSide | PostedRows;
  readonly right: PostedSide | PostedRows;
  readonly evictionMs: number;
  readonly eval: EvalContext;
}

interface JoinOperator {
  readonly plan: JoinPlan;
  /** Each side's join key columns of a batch (for rows this thread keys). */
  readonly keyColumns: { readonly left: (b: Batch, ev: EvalContext) => Vector[]; readonly right: (b: Batch, ev: EvalContext) => Vector[] };
  /** Per side, one provider per owned partition (in `owned` order). */
  readonly providers: { readonly left: ColumnarJoinProvider[]; readonly right: ColumnarJoinProvider[] };
  /** The request's required heads by dir, and the dirs the batch's commits wrote. */
  readonly heads: Map<string, number>;
  readonly written: string[];
}

/** By `<query>/<operator id>`. */
const joins = new Map<string, JoinOperator>();

type Options = Pick<ProviderOptions, "minDeltasForSnapshot" | "minBatchesToRetain" | "fs">;

function operatorOf(r: JoinRequest, options: Options): JoinOperator {
  const key = `${r.query}/${r.op.operatorId}`;
  let op = joins.get(key);
  if (!op) {
    reserveExprIds(r.op.exprIdsInUse);
    const d = r.op;
    const plan = joinPlanOf(d.leftKeys, d.rightKeys, d.joinType, d.fullCondition, d.leftOutput, d.rightOutput);
    const heads = new Map<string, number>();
    const written: string[] = [];
    const providerOptions: ProviderOptions = {
      ...options,
      requiredHead: (dir) => heads.get(dir) ?? 0,
      onDeltaWritten: (dir) => {
        written.push(dir);
      },
    };
    const sideOf = (dirs: readonly (string | null)[], types: JoinPlan["leftTypes"]) =>
      r.owned.map((p) => new ColumnarJoinProvider(dirs[p] ?? null, types, providerOptions));
    const keysOf = (keys: JoinOperatorDef["leftKeys"], output: JoinOperatorDef["leftOutput"]) => {
      const compiled = keys.map((k) => compileExpr(k, output));
      return (b: Batch, ev: EvalContext) => compiled.map((k) => k(b, ev));
    };
    op = {
      plan,
      keyColumns: { left: keysOf(d.leftKeys, d.leftOutput), right: keysOf(d.rightKeys, d.rightOutput) },
      providers: { left: sideOf(r.dirs.left, plan.leftTypes), right: sideOf(r.dirs.right, plan.rightTypes) },
      heads,
      written,
    };
    joins.set(key, op);
  }
  return op;
}

/** One batch of the join over this thread's partitions; both sides committed before the answer. */
export async function runJoin(r: JoinRequest, options: Options): Promise<JoinThreadReply> {
  const op = operatorOf(r, options);
  op.heads.clear();
  for (const side of ["left", "right"] as const)
    r.dirs[side].forEach((d, p) => {
      if (d && r.requiredHeads[side][p]) op.heads.set(d, r.requiredHeads[side][p]!);
    });
  op.written.length = 0;
  const left = await Promise.all(op.providers.left.map((p) => p.getStore(r.version)));
  const right = await Promise.all(op.providers.right.map((p) => p.getStore(r.version)));
  try {
    const state = { left: new ColumnarJoinSide(left), right: new ColumnarJoinSide(right) };
    const owner = r.owned[0] ?? 0;
    const input = (side: "left" | "right"): SideInput => {
      const posted = r[side];
      const types = side === "left" ? op.plan.leftTypes : op.plan.rightTypes;
      if (!("batches" in posted)) return arrivedSide(posted, types);
      return arrivedRows(posted, types, op.plan.cleanup[side], (b) => op.keyColumns[side](b, r.eval), owner);
    };
    const leftIn = input("left");
    const rightIn = input("right");
    const result = joinBatch(op.plan, state, leftIn, rightIn, r.evictionMs, r.eval);
    const numRowsTotal = await commitSides(state, r.version);
    return {
      output: portableBatches(result.output),
      lateRows: leftIn.late + rightIn.late,
      numRowsUpdated: result.numRowsUpdated,
      numRowsRemoved: result.numRowsRemoved,
      numRowsTotal,
      memoryUsedBytes: state.left.memoryUsedBytes() + state.right.memoryUsedBytes(),
      writtenDirs: [...op.written],
    };
  } catch (e) {
    for (const s of [...left, ...right]) s.abort();
    throw e;
  }
}

/** Every provider of the query's joins (maintenance, close). */
export function* joinProvidersOf(query: string): Generator<ColumnarJoinProvider> {
  for (const [key, op] of joins) if (key.startsWith(`${query}/`)) yield* [...op.providers.left, ...op.providers.right];
}

/** Forgets the query's joins (their providers are closed by the caller). */
export function dropJoins(query: string): void {
  for (const key of [...joins.keys()]) if (key.startsWith(`${query}/`)) joins.delete(key);
}
