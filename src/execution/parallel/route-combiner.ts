/**
 * Partial aggregation of the rows the main thread routes to the state threads (Spark's partial
 * HashAggregate before the exchange). Rows that reach a threads-backed aggregation on the main
 * thread (a chained aggregation's input, the output of a join, a scan that is not split on the
 * decode threads) would each be copied into a per-thread chunk and posted; grouping them
 * first posts one partial group per key instead. Nexmark q5's second aggregation (`max(struct)`
 * per window over every (window, auction) count the first one emits) routes a handful of groups
 * instead of every row.
 *
 * Adaptive, as stage A's (adaptive-skip.ts, the same `arus.exec.partialAggregation.*`
 * settings): the first `probeRows` rows are grouped and measured, and when their groups are more
 * than `maxGroupRatio` of them, the rest of the query run routes rows as they come.
 */

import type { EvalContext } from "../../functions/index.js";
import type { AggregationSpec } from "../aggregation.js";
import { GroupIndex } from "../group-index.js";
import type { SkipSettings } from "../partial/adaptive-skip.js";
import { type AggregateChunk, aggregateChunk } from "../stateful/aggregation-backend.js";

export class RouteCombiner {
  private rows = 0;
  private groups = 0;
  /** Null while probing; then whether grouping pays for the rest of the run. */
  private combine: boolean | null = null;
  /** Chunks grouped before they were routed, and query runs whose probe turned grouping off (tests read them). */
  static chunksCombined = 0;
  static probesDeclined = 0;

  constructor(
    private readonly spec: AggregationSpec,
    private readonly settings: SkipSettings,
  ) {}

  /** The chunks to route: rows grouped into partial groups where that pays, anything else as it is. */
  prepare(chunks: readonly AggregateChunk[], ev: EvalContext): readonly AggregateChunk[] {
    if (this.combine === false) return chunks;
    // stage A's partial groups (already grouped, or already split by owner) go as they are
    return chunks.map((c) => (c.partial || c.owner !== undefined || c.n === 0 ? c : this.grouped(c, ev)));
  }

  private grouped(c: AggregateChunk, ev: EvalContext): AggregateChunk {
    const spec = this.spec;
    // GroupIndex, not stage A's table grouping: a run of rows with the key of the row before
    // skips hashing, and an aggregation emits a window's rows together (q5: half the time).
    const groups = new GroupIndex(spec.groupAttrs.map((a) => a.type));
    const gid = groups.assign(c.keys, c.n);
    const G = groups.numGroups;
    const accs = spec.newAccumulators(ev);
    for (let a = 0; a < accs.length; a++) {
      accs[a]!.resize(G);
      accs[a]!.update(gid, c.n, c.inputs[a]!);
    }
    this.observe(c.n, G);
    RouteCombiner.chunksCombined++;
    return aggregateChunk(
      groups.keyVectors(),
      accs.map((a) => a.buffers(G)),
      G,
      true,
    );
  }

  private observe(rows: number, groups: number): void {
    if (this.combine !== null) return;
    this.rows += rows;
    this.groups += groups;
    if (this.rows < this.settings.probeRows) return;
    this.combine = this.groups <= this.settings.maxGroupRatio * this.rows;
    if (!this.combine) RouteCombiner.probesDeclined++;
  }
}
