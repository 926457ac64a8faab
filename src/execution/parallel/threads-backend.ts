/**
 * Aggregation state in the columnar tables of the state threads (`arus.state.threads` > 1,
 * docs/parallel-execution.md): the operator's chunks are routed by key partition to the threads
 * that own them, each runs `ColumnarAggregation.run` on its partitions, and their answers are
 * merged (state-threads.ts).
 */
import { exprIdsInUse } from "../../plan/expressions.js";
import type { AggregateChunk, AggregateRunOptions, AggregationBackend, BackendRunResult } from "../stateful/aggregation-backend.js";
import type { ColumnarAggregation } from "../stateful/columnar-aggregation.js";
import type { StatefulContext } from "../stateful/context.js";
import type { RouteCombiner } from "./route-combiner.js";
import type { ColumnarOperatorDef } from "./state-threads.js";

export class StateThreadsBackend implements AggregationBackend {
  readonly kind = "threads";
  readonly usesStateThreads = true;
  /** Event times of the open groups as the state threads last reported them. */
  private eventTimes: number[] = [];

  constructor(
    readonly aggregation: ColumnarAggregation,
    /** What a state thread needs to rebuild this aggregation. */
    private readonly definition: Omit<ColumnarOperatorDef, "exprIdsInUse">,
    /** Groups the rows that come to the main thread before they are routed (null: route them as they are). */
    private readonly combiner: RouteCombiner | null = null,
  ) {}

  async run(st: StatefulContext, chunks: readonly AggregateChunk[], o: AggregateRunOptions): Promise<BackendRunResult> {
    if (!st.stateThreads)
      throw new Error(`operator ${this.definition.operatorId}: the runtime started no state threads (arus.state.threads)`);
    const { globalRow, ...options } = o;
    const def = { ...this.definition, exprIdsInUse: exprIdsInUse() };
    const routed = this.combiner ? this.combiner.prepare(chunks, o.eval) : chunks;
    const merged = await st.stateThreads.aggregate(def, this.aggregation.plan.schema, st.batchId, routed, options, globalRow);
    this.eventTimes = merged.openEventTimes;
    return merged;
  }

  openEventTimes(): number[] {
    return this.aggregation.eventTimeKey < 0 ? [] : this.eventTimes;
  }
}
