/**
 * Joins. HashJoin builds a GroupIndex over the right side's keys and probes it with the left
 * side's, producing (left row, right row) index pairs, then applies any residual condition
 * and adds the unmatched rows outer joins need. NestedLoopJoin handles joins without equi-keys.
 */
import { type Batch, concatBatches, makeBatch } from "../../columnar/batch.js";
import { makeVector, take, type Vector } from "../../columnar/vector.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import type { JoinType } from "../../plan/logical.js";
import { exprToSql } from "../../plan/sql-text.js";
import { BooleanType } from "../../types/datatypes.js";
import { compileExpr, compilePredicate } from "../compile.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

function anyNullKey(keys: readonly Vector[], i: number): boolean {
  for (const k of keys) if (k.validity !== null && k.validity[i] === 0) return true;
  return false;
}

/** Pairs of matching row indices; -1 stands for "no row" (NULLs in outer joins). */
interface Pairs {
  left: number[];
  right: number[];
}

export class HashJoinExec implements PhysicalOperator {
  readonly name: string;
  readonly children: PhysicalOperator[];
  constructor(
    readonly leftKeys: readonly Expr[],
    readonly rightKeys: readonly Expr[],
    readonly joinType: JoinType,
    readonly residual: Expr | null,
    readonly left: PhysicalOperator,
    readonly right: PhysicalOperator,
    readonly output: readonly Attribute[],
  ) {
    this.children = [left, right];
    this.name = leftKeys.length ? "BroadcastHashJoin" : "BroadcastNestedLoopJoin";
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const [lb, rb] = await Promise.all([this.left.execute(ctx), this.right.execute(ctx)]);
    const L = concatBatches(
      this.left.output.map((a) => a.type),
      lb,
    );
    const R = concatBatches(
      this.right.output.map((a) => a.type),
      rb,
    );
    return this.joinBatches(L, R, ctx);
  }

  /** Join two materialized sides; also used by stream-static joins per micro-batch. */
  joinBatches(L: Batch, R: Batch, ctx: ExecContext): Batch[] {
    let pairs = this.leftKeys.length ? this.equiPairs(L, R, ctx) : crossPairs(L.numRows, R.numRows);
    if (this.residual) pairs = this.applyResidual(pairs, L, R, ctx);
    return [this.finish(pairs, L, R)];
  }

  private equiPairs(L: Batch, R: Batch, ctx: ExecContext): Pairs {
    const lk = this.leftKeys.map((k) => compileExpr(k, this.left.output)(L, ctx.eval));
    const rk = this.rightKeys.map((k) => compileExpr(k, this.right.output)(R, ctx.eval));
    const index = new GroupIndex(rk.map((k) => k.type));
    const rg = index.assign(rk, R.numRows);
    // CSR layout: rows of each right group, contiguous.
    const counts = new Int32Array(index.numGroups + 1);
    for (let i = 0; i < R.numRows; i++) if (!anyNullKey(rk, i)) counts[rg[i]! + 1]!++;
    for (let g = 0; g < index.numGroups; g++) counts[g + 1]! += counts[g]!;
    const rows = new Int32Array(R.numRows);
    const fill = counts.slice();
    for (let i = 0; i < R.numRows; i++) if (!anyNullKey(rk, i)) rows[fill[rg[i]!]!++] = i;
    const lg = index.probe(lk, L.numRows);
    const left: number[] = [];
    const right: number[] = [];
    for (let i = 0; i < L.numRows; i++) {
      const g = lg[i]!;
      if (g < 0 || anyNullKey(lk, i)) continue;
      for (let k = counts[g]!; k < counts[g + 1]!; k++) {
        left.push(i);
        right.push(rows[k]!);
      }
    }
    return { left, right };
  }

  private applyResidual(p: Pairs, L: Batch, R: Batch, ctx: ExecContext): Pairs {
    const joined = makeBatch([...L.columns.map((c) => take(c, p.left)), ...R.columns.map((c) => take(c, p.right))], p.left.length);
    const sel = compilePredicate(this.residual!, [...this.left.output, ...this.right.output])(joined, ctx.eval);
    return { left: Array.from(sel, (i) => p.left[i]!), right: Array.from(sel, (i) => p.right[i]!) };
  }

  private finish(p: Pairs, L: Batch, R: Batch): Batch {
    const jt = this.joinType;
    if (jt === "left_semi" || jt === "left_anti") {
      const matched = new Uint8Array(L.numRows);
      for (const i of p.left) matched[i] = 1;
      const keep: number[] = [];
      for (let i = 0; i < L.numRows; i++) if ((matched[i] === 1) === (jt === "left_semi")) keep.push(i);
      return makeBatch(
        L.columns.map((c) => take(c, keep)),
        keep.length,
      );
    }
    if (jt === "existence") {
      const matched = new Uint8Array(L.numRows);
      for (const i of p.left) matched[i] = 1;
      return makeBatch([...L.columns, makeVector(BooleanType, matched, null, L.numRows)], L.numRows);
    }
    const left = p.left.slice();
    const right = p.right.slice();
    if (jt === "left_outer" || jt === "full_outer") {
      const matched = new Uint8Array(L.numRows);
      for (const i of p.left) matched[i] = 1;
      for (let i = 0; i < L.numRows; i++) {
        if (!matched[i]) {
          left.push(i);
          right.push(-1);
        }
      }
    }
    if (jt === "right_outer" || jt === "full_outer") {
      const matched = new Uint8Array(R.numRows);
      for (const i of p.right) matched[i] = 1;
      for (let i = 0; i < R.numRows; i++) {
        if (!matched[i]) {
          left.push(-1);
          right.push(i);
        }
      }
    }
    return makeBatch([...L.columns.map((c) => take(c, left)), ...R.columns.map((c) => take(c, right))], left.length);
  }

  describe(): string {
    const keys = this.leftKeys.map((k, i) => `${exprToSql(k)} = ${exprToSql(this.rightKeys[i]!)}`);
    return `${this.joinType}, [${keys.join(", ")}]${this.residual ? `, ${exprToSql(this.residual)}` : ""}`;
  }
}

function crossPairs(nl: number, nr: number): Pairs {
  const left: number[] = [];
  const right: number[] = [];
  for (let i = 0; i < nl; i++) {
    for (let j = 0; j < nr; j++) {
      left.push(i);
      right.push(j);
    }
  }
  return { left, right };
}
