/**
 * `limit(n)` on a stream in append mode (Spark's StreamingGlobalLimitExec): the number of rows
 * already emitted is state, so the query emits at most n rows over its whole life.
 */
import { type Batch, sliceBatch } from "../../columnar/batch.js";
import type { Attribute } from "../../plan/expressions.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { newMetrics } from "./common.js";

export class StreamingLimitExec implements PhysicalOperator {
  readonly name = "StreamingGlobalLimit";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  constructor(
    readonly operatorId: number,
    readonly n: number,
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const store = await st.store(this.operatorId, 0);
    const metrics = newMetrics("globalLimit", 1);
    let emitted = (store.get("count")?.[0] as number | undefined) ?? 0;
    const out: Batch[] = [];
    for (const b of await this.child.execute(ctx)) {
      const left = this.n - emitted;
      if (left <= 0) break;
      const take = Math.min(left, b.numRows);
      out.push(take === b.numRows ? b : sliceBatch(b, 0, take));
      emitted += take;
    }
    if (out.length) {
      store.put("count", [emitted]);
      metrics.numRowsUpdated = 1;
    }
    await store.commit();
    metrics.numRowsTotal = store.numKeys;
    metrics.numShufflePartitions = 1;
    metrics.numStateStoreInstances = 1;
    st.report.addStateOperator(this.operatorId, metrics);
    return out;
  }
  describe(): string {
    return `${this.n}, operator ${this.operatorId}`;
  }
}
