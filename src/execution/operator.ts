/**
 * The physical operator contract. Every operator turns its children's batches into output
 * batches; `execute` is the only required step. Stateful streaming operators additionally
 * read and write their state through `ctx.state` (see src/execution/stateful/).
 */
import type { Batch } from "../columnar/batch.js";
import type { EvalContext } from "../functions/index.js";
import type { Attribute } from "../plan/expressions.js";
import type { StateMove } from "./parallel/state-move.js";
import type { StatefulContext } from "./stateful/context.js";

export interface ExecContext {
  readonly eval: EvalContext;
  /** Present while a streaming micro-batch runs; absent for batch queries. */
  readonly state?: StatefulContext;
}

export interface PhysicalOperator {
  /** Spark-style name, e.g. `HashAggregate`, shown by explain(). */
  readonly name: string;
  readonly output: readonly Attribute[];
  readonly children: readonly PhysicalOperator[];
  execute(ctx: ExecContext): Promise<Batch[]>;
  /** One-line description for explain(), without the name. */
  describe(): string;
  /*
   * Optional reporting. An operator declares what it can tell the runtime; the runtime asks
   * these, never an operator's class.
   */
  /** A stateful aggregation: the groups it keeps open until the watermark passes them (explainWatermark()). */
  openGroups?(): OpenGroups;
  /**
   * True for an operator that may run its state on the state threads: the runtime starts them
   * with the query, unless `stateMove` says the state starts on the main thread (then they start
   * when it moves).
   */
  readonly usesStateThreads?: boolean;
  /** With `usesStateThreads`: when the state moves there from the main thread (parallel/state-move.ts). */
  readonly stateMove?: StateMove | null;
  /** What explain() shows below this operator, when it differs from `children` (a step run elsewhere). */
  explainChildren?(): readonly PhysicalOperator[];
}

export interface OpenGroups {
  readonly operatorId: number;
  /** Event times (micros) of the open groups: window ends or timestamps. */
  readonly eventTimesMicros: readonly number[];
}

/** Visits `op` and every operator below it, parents first, each with its parent (null at the root). */
export function forEachOperator(
  op: PhysicalOperator,
  visit: (op: PhysicalOperator, parent: PhysicalOperator | null) => void,
  parent: PhysicalOperator | null = null,
): void {
  visit(op, parent);
  for (const c of op.children) forEachOperator(c, visit, op);
}

export function explainPhysical(op: PhysicalOperator, indent = 0): string {
  const pad = indent === 0 ? "" : `${"   ".repeat(indent - 1)}+- `;
  const line = `${pad}${op.name} ${op.describe()}`.trimEnd();
  const children = op.explainChildren?.() ?? op.children;
  return [line, ...children.map((c) => explainPhysical(c, indent + 1))].join("\n");
}
