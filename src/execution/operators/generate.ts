/**
 * Generate (Spark's GenerateExec): runs a generator (functions/generators.ts) over each batch.
 * The generator returns the input row of every output row; the kept child columns are gathered
 * once by that index, so no per-row objects are made for them. Stateless: the same operator
 * runs in batch queries and in every micro-batch of a stream.
 */

import { type Batch, makeBatch } from "../../columnar/batch.js";
import { withRowOrigin } from "../../columnar/row-origin.js";
import { take } from "../../columnar/vector.js";
import { generatorOf } from "../../functions/generators.js";
import type { Attribute, Call } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { field, type StructField } from "../../types/datatypes.js";
import { bindIndex, type CompiledExpr, compileExpr } from "../compile.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

export class GenerateExec implements PhysicalOperator {
  readonly name = "Generate";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  private readonly args: readonly CompiledExpr[];
  private readonly keptColumns: readonly number[];
  private readonly fields: readonly StructField[];
  private readonly run;

  constructor(
    readonly generator: Call,
    readonly outer: boolean,
    readonly generatorOutput: readonly Attribute[],
    unrequiredChildIndex: readonly number[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    const dropped = new Set(unrequiredChildIndex);
    this.keptColumns = child.output.flatMap((_, i) => (dropped.has(i) ? [] : [i]));
    this.output = [...this.keptColumns.map((i) => child.output[i]!), ...generatorOutput];
    const index = bindIndex(child.output);
    this.args = generator.args.map((a) => compileExpr(a, child.output, index));
    this.fields = generatorOutput.map((a) => field(a.name, a.type, a.nullable));
    const def = generatorOf(generator.name)?.def;
    if (!def) throw new Error(`${generator.name} is not a generator`);
    this.run = def.generate;
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const out: Batch[] = [];
    for (const b of await this.child.execute(ctx)) {
      let g: ReturnType<typeof this.run>;
      try {
        const args = this.args.map((f) => f(b, ctx.eval));
        g = this.run(args, b.numRows, this.outer, this.fields, ctx.eval);
      } catch (e) {
        throw withRowOrigin(e, b);
      }
      const n = g.rows.length;
      if (n === 0) continue;
      const kept = this.keptColumns.map((i) => take(b.columns[i]!, g.rows, n));
      out.push(makeBatch([...kept, ...g.columns], n));
    }
    return out;
  }

  describe(): string {
    const kept = this.keptColumns.map((i) => this.child.output[i]!);
    const attrs = (as: readonly Attribute[]) => `[${as.map((a) => `${a.name}#${a.exprId}`).join(", ")}]`;
    return `${exprToSql(this.generator)}, ${attrs(kept)}, ${this.outer}, ${attrs(this.generatorOutput)}`;
  }
}
