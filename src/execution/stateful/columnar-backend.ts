/**
 * Aggregation state in the columnar table of `state/columnar/` on this thread
 * (`arus.state.aggregation.columnar`, docs/state.md): one store holding every partition, run by
 * `ColumnarAggregation.run` (columnar-aggregation.ts), the same code the state threads run.
 */
import type { ColumnarStateStore } from "../../state/columnar/index.js";
import type { AggregateChunk, AggregateRunOptions, AggregationBackend, BackendRunResult } from "./aggregation-backend.js";
import type { ColumnarAggregation } from "./columnar-aggregation.js";
import type { StatefulContext } from "./context.js";

export class ColumnarBackend implements AggregationBackend {
  readonly kind = "columnar";
  readonly usesStateThreads = false;
  private lastStore: ColumnarStateStore | null = null;

  constructor(
    readonly operatorId: number,
    readonly aggregation: ColumnarAggregation,
  ) {}

  async run(st: StatefulContext, chunks: readonly AggregateChunk[], o: AggregateRunOptions): Promise<BackendRunResult> {
    if (!st.columnarStore) throw new Error("the runtime offers no columnar state (arus.state.aggregation.columnar)");
    const store = await st.columnarStore(this.operatorId, this.aggregation.plan.schema);
    this.lastStore = store;
    const r = await this.aggregation.run(store, chunks, o);
    return { ...r, output: r.output ? [r.output] : [] };
  }

  /** Event times (micros) of the groups still in state: window ends or timestamps. */
  openEventTimes(): number[] {
    const key = this.aggregation.eventTimeKey;
    if (key < 0 || !this.lastStore) return [];
    return this.lastStore.table.eventTimes(key);
  }
}
