/**
 * Stateless row operators: scans of in-memory data and ranges, project, filter, expand,
 * union and limit.
 */

import { type Batch, makeBatch, sliceBatch, takeBatch } from "../../columnar/batch.js";
import { carryInputFile, withInputFileOf } from "../../columnar/input-file.js";
import { checkedBig, isSafe, narrow } from "../../columnar/int64.js";
import { withRowOrigin } from "../../columnar/row-origin.js";
import { interleave, makeVector } from "../../columnar/vector.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { LongType } from "../../types/datatypes.js";
import { bindIndex, compileExpr, compilePredicate } from "../compile.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

const BATCH_ROWS = 65_536;

const attrList = (as: readonly Attribute[]) => `[${as.map((a) => `${a.name}#${a.exprId}`).join(", ")}]`;

export class LocalScanExec implements PhysicalOperator {
  readonly name = "LocalTableScan";
  readonly children = [];
  constructor(
    readonly output: readonly Attribute[],
    readonly batches: readonly Batch[],
  ) {}
  async execute(): Promise<Batch[]> {
    return [...this.batches];
  }
  describe(): string {
    return attrList(this.output);
  }
}

export class RangeExec implements PhysicalOperator {
  readonly name = "Range";
  readonly children = [];
  constructor(
    readonly output: readonly Attribute[],
    readonly start: number,
    readonly end: number,
    readonly step: number,
  ) {}
  async execute(): Promise<Batch[]> {
    const { start, end, step } = this;
    const total = Math.max(0, Math.ceil((end - start) / step));
    const out: Batch[] = [];
    // Ids past ±2^53 − 1 are computed exactly on the wide lane (columnar/int64.ts).
    const exact = !isSafe(start) || !isSafe(end) || !isSafe(start + total * step);
    for (let off = 0; off < total; off += BATCH_ROWS) {
      const n = Math.min(BATCH_ROWS, total - off);
      if (exact) {
        const w = new BigInt64Array(n);
        for (let i = 0; i < n; i++) w[i] = checkedBig(BigInt(start) + BigInt(off + i) * BigInt(step));
        out.push(makeBatch([makeVector(LongType, narrow(w, n), null, n)], n));
        continue;
      }
      const v = new Float64Array(n);
      for (let i = 0; i < n; i++) v[i] = start + (off + i) * step;
      out.push(makeBatch([makeVector(LongType, v, null, n)], n));
    }
    return out;
  }
  describe(): string {
    return `(${this.start}, ${this.end}, step=${this.step})`;
  }
}

export class ProjectExec implements PhysicalOperator {
  readonly name = "Project";
  readonly children: PhysicalOperator[];
  private readonly compiled;
  constructor(
    readonly exprs: readonly Expr[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    const index = bindIndex(child.output);
    this.compiled = exprs.map((e) => compileExpr(e, child.output, index));
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    return (await this.child.execute(ctx)).map((b) => this.apply(b, ctx));
  }
  apply(b: Batch, ctx: ExecContext): Batch {
    try {
      const columns = withInputFileOf(b, () => this.compiled.map((f) => f(b, ctx.eval)));
      return carryInputFile(b, makeBatch(columns, b.numRows));
    } catch (e) {
      throw withRowOrigin(e, b);
    }
  }
  describe(): string {
    return `[${this.exprs.map((e) => (e.kind === "alias" ? `${exprToSql(e.child)} AS ${e.name}#${e.exprId}` : exprToSql(e))).join(", ")}]`;
  }
}

export class FilterExec implements PhysicalOperator {
  readonly name = "Filter";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  private readonly predicate;
  constructor(
    readonly condition: Expr,
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
    this.predicate = compilePredicate(condition, child.output);
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const out: Batch[] = [];
    for (const b of await this.child.execute(ctx)) {
      let sel: Int32Array;
      try {
        sel = withInputFileOf(b, () => this.predicate(b, ctx.eval));
      } catch (e) {
        throw withRowOrigin(e, b);
      }
      if (sel.length === b.numRows) out.push(b);
      else if (sel.length > 0) out.push(carryInputFile(b, takeBatch(b, sel)));
    }
    return out;
  }
  describe(): string {
    return exprToSql(this.condition);
  }
}

export class ExpandExec implements PhysicalOperator {
  readonly name = "Expand";
  readonly children: PhysicalOperator[];
  private readonly compiled;
  constructor(
    readonly projections: readonly (readonly Expr[])[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    const index = bindIndex(child.output);
    this.compiled = projections.map((p) => p.map((e) => compileExpr(e, child.output, index)));
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const out: Batch[] = [];
    for (const b of await this.child.execute(ctx)) {
      // Interleave so each input row's projections are adjacent (newest window first).
      const parts = this.compiled.map((p) => p.map((f) => f(b, ctx.eval)));
      const columns = this.output.map((a, c) =>
        interleave(
          a.type,
          parts.map((p) => p[c]!),
        ),
      );
      out.push(makeBatch(columns, b.numRows * parts.length));
    }
    return out;
  }
  describe(): string {
    return `${this.projections.length} projections, ${attrList(this.output)}`;
  }
}

export class UnionExec implements PhysicalOperator {
  readonly name = "Union";
  readonly output: readonly Attribute[];
  constructor(readonly children: readonly PhysicalOperator[]) {
    this.output = children[0]!.output;
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const parts = await Promise.all(this.children.map((c) => c.execute(ctx)));
    return parts.flat();
  }
  describe(): string {
    return "";
  }
}

export class LimitExec implements PhysicalOperator {
  readonly name = "GlobalLimit";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  constructor(
    readonly n: number,
    readonly child: PhysicalOperator,
    /** Rows skipped before the first kept (OFFSET). */
    readonly offset = 0,
  ) {
    this.children = [child];
    this.output = child.output;
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const out: Batch[] = [];
    let skip = this.offset;
    let left = this.n;
    for (const b of await this.child.execute(ctx)) {
      if (left <= 0) break;
      const from = Math.min(skip, b.numRows);
      skip -= from;
      const take = Math.min(left, b.numRows - from);
      if (take <= 0) continue;
      out.push(from === 0 && take === b.numRows ? b : sliceBatch(b, from, from + take));
      left -= take;
    }
    return out;
  }
  describe(): string {
    return this.offset > 0 ? `${this.n}, offset ${this.offset}` : String(this.n);
  }
}
