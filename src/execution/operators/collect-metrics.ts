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
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { HashAggregateExec } from "./aggregate.js";
import { LocalScanExec } from "./basic.js";

export class CollectMetricsExec implements PhysicalOperator {
  readonly name = "CollectMetrics";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  private readonly metricAttrs: readonly Attribute[];

  constructor(
    readonly metricsName: string,
    readonly metrics: readonly Expr[],
    private readonly sink: MetricsSink | null,
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
    this.metricAttrs = metrics.map(toAttribute);
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const batches = await this.child.execute(ctx);
    const aggregate = new HashAggregateExec([], this.metrics, this.metricAttrs, new LocalScanExec(this.child.output, batches));
    const [row] = await aggregate.execute({ eval: ctx.eval });
    const metrics = { names: this.metricAttrs.map((a) => a.name), types: this.metricAttrs.map((a) => a.type), row: row! };
    if (ctx.state) ctx.state.report.addObservedMetrics(this.metricsName, metrics);
    else this.sink?.complete(metrics);
    return batches;
  }

  describe(): string {
    return `${this.metricsName}, [${this.metrics.map(exprToSql).join(", ")}]`;
  }
}
