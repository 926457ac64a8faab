/**
 * Batch dropDuplicates: keeps the first row of each key (all columns when no keys are given),
 * its DOUBLE / FLOAT key columns' -0.0 as 0.0: Spark runs a batch Deduplicate as an aggregate
 * grouped by the keys (ReplaceDeduplicateWithAggregate), whose keys are normalized; the other
 * columns are the first row's as they are. (A stream's Deduplicate keeps the row unchanged.)
 */
import { type Batch, takeBatch } from "../../columnar/batch.js";
import type { Attribute } from "../../plan/expressions.js";
import { normalizeZeros } from "../aggregation.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

export class DeduplicateExec implements PhysicalOperator {
  readonly name = "Deduplicate";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  constructor(
    readonly keys: readonly Attribute[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const positions = this.keys.map((k) => this.output.findIndex((a) => a.exprId === k.exprId));
    const index = new GroupIndex(this.keys.map((k) => k.type));
    const out: Batch[] = [];
    for (const b of await this.child.execute(ctx)) {
      const before = index.numGroups;
      const gids = index.assign(
        positions.map((p) => b.columns[p]!),
        b.numRows,
      );
      const keep: number[] = [];
      let next = before;
      for (let i = 0; i < b.numRows; i++) {
        if (gids[i] === next) {
          keep.push(i);
          next++;
        }
      }
      if (keep.length === 0) continue;
      const kept = takeBatch(b, keep);
      out.push({ ...kept, columns: kept.columns.map((c, p) => (positions.includes(p) ? normalizeZeros(c) : c)) });
    }
    return out;
  }
  describe(): string {
    return `[${this.keys.map((k) => k.name).join(", ")}]`;
  }
}
