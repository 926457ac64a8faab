/**
 * CollectMetrics (df.observe): the child's batches pass through unchanged; the metrics are one
 * global aggregate over them, handed to the micro-batch's report (progress `observedMetrics`)
 * or, in a batch query, to the observation waiting for them.
 */
import type { Batch } from "../../columnar/batch.js";
import { toAttribute } from "../../functions/typing.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import type { MetricsSink } from "../../plan/logical.js";
import { exprToSql } from "../../plan/sql-text.js";
import type { DataType } from "../../types/datatypes.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { HashAggregateExec } from "./aggregate.js";

export class CollectMetricsExec implements PhysicalOperator {
  readonly name = "CollectMetrics";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  private readonly names: readonly string[];
  private readonly types: readonly DataType[];
  /** The global aggregate, compiled once; it reads the batch passing through (`passing`). */
  private readonly aggregate: HashAggregateExec;
  private passing: Batch[] = [];

  constructor(
    readonly metricsName: string,
    readonly metrics: readonly Expr[],
    private readonly sink: MetricsSink | null,
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
    const attrs = metrics.map(toAttribute);
    this.names = attrs.map((a) => a.name);
    this.types = attrs.map((a) => a.type);
    const passing: PhysicalOperator = {
      name: "LocalTableScan",
      output: child.output,
      children: [],
      execute: async () => this.passing,
      describe: () => "",
    };
    this.aggregate = new HashAggregateExec([], metrics, attrs, passing);
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const batches = await this.child.execute(ctx);
    this.passing = batches;
    const [row] = await this.aggregate.execute({ eval: ctx.eval });
    this.passing = [];
    const metrics = { names: this.names, types: this.types, row: row! };
    if (ctx.state) ctx.state.report.addObservedMetrics(this.metricsName, metrics);
    else this.sink?.complete(metrics);
    return batches;
  }

  describe(): string {
    return `${this.metricsName}, [${this.metrics.map(exprToSql).join(", ")}]`;
  }
}
