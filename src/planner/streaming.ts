/**
 * Planning a streaming query (Spark's IncrementalExecution): the same physical plan as a
 * batch query, except that streaming relations read the current micro-batch's rows,
 * watermark nodes report event-time stats, and aggregations / deduplications keep state.
 * Stateful operators get ids 0, 1, ... in plan order; they name the state directories.
 */
import type { Batch } from "../columnar/batch.js";
import { outputOf } from "../analyzer/types.js";
import type { ExecContext, PhysicalOperator } from "../execution/operator.js";
import { StatefulAggregateExec } from "../execution/stateful/aggregate.js";
import { StreamingDeduplicateExec } from "../execution/stateful/deduplicate.js";
import { WatermarkExec } from "../execution/stateful/watermark.js";
import { SessionWindowAggregateExec } from "../execution/stateful/session-window.js";
import type { Attribute } from "../plan/expressions.js";
import { anyPlan, isStreamingPlan, type LogicalPlan } from "../plan/logical.js";
import { dedupKeys, planPhysical } from "./planner.js";
import { resolveColumn } from "../analyzer/resolve-names.js";
import { exprToSql } from "../plan/sql-text.js";
import { simpleString } from "../types/datatypes.js";

export interface StatefulOperatorInfo {
  readonly id: number;
  /** Spark's operator name (progress `operatorName`). */
  readonly name: string;
  /** `name: type` of the state key and value columns, for change detection. */
  readonly keySchema: string[];
  readonly valueSchema: string[];
  readonly kind: "aggregate" | "dedupe" | "dedupeWithinWatermark";
  /** Does a watermark flow into this operator (no-data batches, eviction)? */
  readonly hasWatermark: boolean;
}

export interface StreamingPlan {
  readonly physical: PhysicalOperator;
  readonly watermarkNodes: readonly { id: number; delayMs: number; column: string }[];
  readonly statefulOperators: readonly StatefulOperatorInfo[];
}

class StreamingScanExec implements PhysicalOperator {
  readonly name = "StreamingScan";
  readonly children = [];
  constructor(
    readonly sourceId: string,
    readonly format: string,
    readonly output: readonly Attribute[],
  ) {}
  async execute(ctx: ExecContext): Promise<Batch[]> {
    return [...(ctx.state?.sourceData(this.sourceId) ?? [])];
  }
  describe(): string {
    return `${this.format} [${this.output.map((a) => `${a.name}#${a.exprId}`).join(", ")}]`;
  }
}

const columns = (as: readonly Attribute[]) => as.map((a) => `${a.name}: ${simpleString(a.type)}`);

export function planStreaming(plan: LogicalPlan): StreamingPlan {
  const watermarkNodes: { id: number; delayMs: number; column: string }[] = [];
  const stateful: StatefulOperatorInfo[] = [];
  const physical = planPhysical(plan, {
    plan(p, planChild) {
      switch (p.kind) {
        case "streamingRelation":
          return new StreamingScanExec(p.sourceId, p.format, p.output);
        case "watermark": {
          if (!isStreamingPlan(p.child)) return null;
          const id = watermarkNodes.length;
          watermarkNodes.push({ id, delayMs: p.delayMs, column: p.eventTime });
          const child = planChild(p.child);
          const attr = resolveColumn([p.eventTime], child.output) as Attribute;
          return new WatermarkExec(id, attr, p.delayMs, child);
        }
        case "aggregate": {
          if (!isStreamingPlan(p.child)) return null;
          const id = stateful.length;
          const hasWatermark = anyPlan(p.child, (n) => n.kind === "watermark");
          const session = p.groupingExprs.some((g) => g.kind === "attribute" && g.metadata["spark.sessionWindow"] === true);
          const exec = session
            ? new SessionWindowAggregateExec(id, p.groupingExprs, p.aggregateExprs, outputOf(p), planChild(p.child))
            : new StatefulAggregateExec(id, p.groupingExprs, p.aggregateExprs, outputOf(p), planChild(p.child), hasWatermark);
          stateful.push({
            id,
            kind: "aggregate",
            hasWatermark,
            name: session ? "sessionWindowStateStoreSaveExec" : "stateStoreSave",
            keySchema: columns(exec.spec.groupAttrs),
            valueSchema: exec.spec.aggCalls.flatMap((c, i) => exec.spec.bufferTypes()[i]!.map((t, k) => `${exprToSql(c.call)}[${k}]: ${simpleString(t)}`)),
          });
          return exec;
        }
        case "deduplicate": {
          if (!isStreamingPlan(p.child)) return null;
          const id = stateful.length;
          const hasWatermark = anyPlan(p.child, (n) => n.kind === "watermark");
          const keys = dedupKeys(p.keys, outputOf(p.child));
          const kind = p.withinWatermark ? "dedupeWithinWatermark" : "dedupe";
          stateful.push({ id, kind, hasWatermark, name: kind, keySchema: columns(keys), valueSchema: p.withinWatermark ? ["expiresAtMicros: bigint"] : [] });
          return new StreamingDeduplicateExec(id, keys, p.withinWatermark, planChild(p.child));
        }
        default:
          return null;
      }
    },
  });
  return { physical, watermarkNodes, statefulOperators: stateful };
}
