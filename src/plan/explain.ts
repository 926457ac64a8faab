/** Logical plans as indented text, in the style of Spark's `explain(true)`. */
import type { Attribute, Expr } from "./expressions.js";
import { type LogicalPlan, planChildren } from "./logical.js";
import { exprToSql } from "./sql-text.js";

const attrs = (as: readonly Attribute[]) => `[${as.map((a) => `${a.name}#${a.exprId}`).join(", ")}]`;
const exprs = (es: readonly Expr[]) =>
  `[${es.map((e) => (e.kind === "alias" ? `${exprToSql(e.child)} AS ${e.name}#${e.exprId}` : e.kind === "attribute" ? `${e.name}#${e.exprId}` : exprToSql(e))).join(", ")}]`;

function describe(p: LogicalPlan): string {
  switch (p.kind) {
    case "localRelation":
      return `LocalRelation ${attrs(p.output)}`;
    case "range":
      return `Range (${p.start}, ${p.end}, step=${p.step})`;
    case "fileRelation":
      return `Relation [${p.output.map((a) => `${a.name}#${a.exprId}`).join(",")}] ${p.format}`;
    case "streamingRelation":
      return `StreamingRelation ${p.format}, ${attrs(p.output)}`;
    case "unresolvedRelation":
      return `'UnresolvedRelation [${p.name}]`;
    case "pivot":
      return `'Pivot ${exprs(p.pivotColumns)}, ${exprs(p.aggregates)}`;
    case "unpivot":
      return `'Unpivot [${p.valueColumns.join(", ")}], ${p.nameColumn}`;
    case "project":
      return `Project ${exprs(p.projectList)}`;
    case "filter":
      return `Filter ${exprToSql(p.condition)}`;
    case "aggregate":
      return `Aggregate ${exprs(p.groupingExprs)}, ${exprs(p.aggregateExprs)}`;
    case "join":
      return `Join ${p.joinType.replace("_", "").replace(/^./, (c) => c.toUpperCase())}${p.condition ? `, ${exprToSql(p.condition)}` : ""}`;
    case "sort":
      return `Sort [${p.orders.map(exprToSql).join(", ")}], true`;
    case "limit":
      if (p.offset > 0) return p.n === Number.POSITIVE_INFINITY ? `Offset ${p.offset}` : `GlobalLimitAndOffset ${p.n}, ${p.offset}`;
      return `GlobalLimit ${p.n}`;
    case "union":
      return `Union ${p.byName}, ${p.allowMissingColumns}`;
    case "setOperation":
      return `${p.op === "intersect" ? "Intersect" : "Except"} ${p.all}`;
    case "distinct":
      return "Distinct";
    case "deduplicate":
      return `Deduplicate${p.withinWatermark ? "WithinWatermark" : ""} [${(p.keys ?? ["*"]).join(", ")}]`;
    case "collectMetrics":
      return `CollectMetrics ${p.name}, ${exprs(p.metrics)}`;
    case "watermark":
      return `EventTimeWatermark ${p.eventTime}, ${p.delayMs} ms`;
    case "subqueryAlias":
      return `SubqueryAlias ${p.alias}`;
    case "transformWithState":
      return `${p.fn.kind === "transformWithState" ? "TransformWithState" : p.fn.kind === "mapGroupsWithState" ? "MapGroupsWithState" : "FlatMapGroupsWithState"} [${p.groupingExprs.map(exprToSql).join(", ")}], ${p.outputMode}, ${attrs(p.output)}`;
    case "generate":
      return `Generate ${exprToSql(p.generator)}, ${p.outer}, ${p.generatorOutput ? attrs(p.generatorOutput) : `[${p.names.join(", ")}]`}`;
    case "expand":
      return `Expand ${p.projections.length} projections, ${attrs(p.output)}`;
    case "window":
      return `Window ${exprs(p.windowExprs)}, [${p.partitionBy.map(exprToSql).join(", ")}], [${p.orderBy.map(exprToSql).join(", ")}]`;
  }
}

export function explainLogical(p: LogicalPlan, depth = 0): string {
  const pad = depth === 0 ? "" : `${"   ".repeat(depth - 1)}+- `;
  return [`${pad}${describe(p)}`, ...planChildren(p).map((c) => explainLogical(c, depth + 1))].join("\n");
}
