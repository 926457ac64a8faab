/**
 * ColumnPruning: file scans read only the columns the query uses (projection push-down), for
 * batch file relations and for streaming json / parquet sources. Walks the plan top-down
 * carrying the set of attribute ids still needed; a node it does not know needs all of its
 * children's columns.
 *
 * A streaming source is created once per source id from the optimized relation's output (its
 * schema is what the file source decodes), but one source can appear several times in a plan
 * (a stream joined with itself). So relations are narrowed in a second pass, each to the union
 * of the column positions any of its occurrences needs.
 *
 * A streaming query that hands late rows to the user keeps its stateful operators' inputs
 * whole: a late row is delivered with all the columns it had (docs/late-data.md).
 */

import { outputOf, toAttribute } from "../analyzer/types.js";
import { corruptColumnName, SourceOptions } from "../connectors/files/options.js";
import { type Attribute, collectAttributes, type Expr } from "../plan/expressions.js";
import { isStreamingPlan, type LogicalPlan, Plans, planChildren, withPlanChildren } from "../plan/logical.js";
import { eventTimeColumns } from "./event-time-column.js";
import type { Rule } from "./rule.js";

/**
 * Streaming formats whose reader picks fields by name, so a narrower schema reads less; and CSV,
 * whose source keeps every column but converts only those read (`convert`, as a batch scan).
 */
const PRUNABLE_STREAM_FORMATS = new Set(["json", "parquet", "csv"]);

/** Column positions each streaming source id needs (null: all of them). */
type StreamNeeds = Map<string, Set<number> | null>;

interface PruneState {
  readonly streams: StreamNeeds;
  /** Late rows go to the user with all their columns: keep stateful operators' inputs whole. */
  readonly keepStatefulInputs: boolean;
}

function idsOf(exprs: readonly Expr[]): Set<number> {
  const s = new Set<number>();
  for (const e of exprs) for (const a of collectAttributes(e)) s.add(a.exprId);
  return s;
}

function plus(needed: Set<number>, exprs: readonly Expr[]): Set<number> {
  return new Set([...needed, ...idsOf(exprs)]);
}

/**
 * A CSV scan of the columns `keep` only, as Spark's CSV column pruning: every column is still
 * tokenized (they are found by position) but only the kept ones converted, so a row is
 * malformed only for a kept column that does not parse, and its token count no longer matters;
 * no column kept (`count()`) converts nothing. The corrupt-record column, when read, then holds
 * the records whose kept columns failed. With every data column read nothing is pruned (then a
 * record with too few or too many tokens is malformed), as in Spark.
 */
function prunedCsv(p: LogicalPlan & { kind: "fileRelation" }, keep: readonly Attribute[]): LogicalPlan {
  if (readsEveryDataColumn(p.options, keep, p.output)) return p;
  return Plans.fileRelation(p.format, p.paths, { ...p.options }, keep, p.output);
}

/** Does `keep` hold every column of `all` but the corrupt-record one? (Then Spark prunes nothing.) */
function readsEveryDataColumn(options: Readonly<Record<string, string>>, keep: readonly Attribute[], all: readonly Attribute[]): boolean {
  const corrupt = corruptColumnName(new SourceOptions(options));
  const data = (as: readonly Attribute[]) => as.filter((a) => a.name !== corrupt).length;
  return data(keep) === data(all);
}

function prune(p: LogicalPlan, needed: Set<number> | null, st: PruneState): LogicalPlan {
  switch (p.kind) {
    case "fileRelation": {
      if (!needed || p.format === "text" || p.dataOutput) return p;
      const keep = p.output.filter((a) => needed.has(a.exprId));
      if (p.format === "csv") return prunedCsv(p, keep);
      if (keep.length === p.output.length) return p;
      // no column read (`count()`): a Parquet file's row counts are in its footer; JSON still
      // parses each record (a syntax error is a malformed record, a field of the wrong type is
      // not), as Spark's reader with an empty schema
      if (keep.length === 0 && p.format !== "json" && p.format !== "parquet") return p;
      return Plans.fileRelation(p.format, p.paths, { ...p.options }, keep);
    }
    case "streamingRelation": {
      const streams = st.streams;
      const prev = streams.get(p.sourceId);
      if (!needed || prev === null || !PRUNABLE_STREAM_FORMATS.has(p.format)) streams.set(p.sourceId, null);
      else {
        const positions = prev ?? new Set<number>();
        p.output.forEach((a, i) => {
          if (needed.has(a.exprId)) positions.add(i);
        });
        streams.set(p.sourceId, positions);
      }
      return p;
    }
    case "project": {
      // Drop items nobody above reads (the window rewrite projects every column through).
      const kept = needed ? p.projectList.filter((e) => needed.has(toAttribute(e).exprId)) : p.projectList;
      // A batch plan may project nothing (`select("x").count()` reads no column, as Spark's);
      // a streaming one keeps an item for its sources' decoders.
      const list = kept.length > 0 || !isStreamingPlan(p) ? kept : p.projectList.slice(0, 1);
      return Plans.project(list, prune(p.child, idsOf(list), st));
    }
    case "filter": {
      if (!needed) return withPlanChildren(p, [prune(p.child, null, st)]);
      return Plans.filter(p.condition, prune(p.child, plus(needed, [p.condition]), st));
    }
    case "aggregate": {
      const whole = st.keepStatefulInputs && isStreamingPlan(p.child);
      return Plans.aggregate(
        p.groupingExprs,
        p.aggregateExprs,
        prune(p.child, whole ? null : idsOf([...p.groupingExprs, ...p.aggregateExprs]), st),
      );
    }
    case "watermark": {
      if (!needed) break;
      // The event-time column is named, not referenced: keep whichever child column it names.
      // The event-time column is named, not referenced: keep it though nothing above reads it.
      return withPlanChildren(p, [prune(p.child, plus(needed, eventTimeColumns(p)), st)]);
    }
    case "sort":
      if (!needed) break;
      return withPlanChildren(p, [
        prune(
          p.child,
          plus(
            needed,
            p.orders.map((o) => o.child),
          ),
          st,
        ),
      ]);
    case "limit":
      if (!needed) break;
      return withPlanChildren(p, [prune(p.child, needed, st)]);
    case "collectMetrics":
      if (!needed) break;
      return withPlanChildren(p, [prune(p.child, plus(needed, p.metrics), st)]);
    case "expand": {
      // Sliding windows: drop output columns nobody reads from every projection.
      if (!needed) break;
      const keep = p.output.flatMap((a, j) => (needed.has(a.exprId) ? [j] : []));
      if (keep.length === 0) break;
      const projections = p.projections.map((row) => keep.map((j) => row[j]!));
      return Plans.expand(
        projections,
        keep.map((j) => p.output[j]!),
        prune(p.child, idsOf(projections.flat()), st),
      );
    }
    case "generate": {
      // Child columns nobody above reads are not copied onto every generated row (Spark's
      // unrequiredChildIndex): `explode(split(value, " "))` does not repeat `value` per word.
      if (!needed || !p.generatorOutput) break;
      const child = prune(p.child, plus(needed, p.generator.args), st);
      const unrequired = outputOf(child).flatMap((a, i) => (needed.has(a.exprId) ? [] : [i]));
      return Plans.generate(p.generator, p.outer, p.names, p.qualifier, p.generatorOutput, child, unrequired);
    }
    case "join": {
      if (!needed || p.usingColumns) break;
      if (st.keepStatefulInputs && isStreamingPlan(p.left) && isStreamingPlan(p.right)) break;
      const n = p.condition ? plus(needed, [p.condition]) : needed;
      return withPlanChildren(p, [prune(p.left, n, st), prune(p.right, n, st)]);
    }
    default:
      break;
  }
  // Other nodes keep all their children's columns.
  return withPlanChildren(
    p,
    planChildren(p).map((c) => prune(c, null, st)),
  );
}

/** A CSV source converting only the columns at `keep` (the rule of `prunedCsv`). */
function csvStream(p: LogicalPlan & { kind: "streamingRelation" }, keep: ReadonlySet<number>): LogicalPlan {
  if (
    readsEveryDataColumn(
      p.options,
      p.output.filter((_, i) => keep.has(i)),
      p.output,
    )
  )
    return p;
  return Plans.streamingRelation(
    p.sourceId,
    p.format,
    { ...p.options },
    p.output,
    [...keep].sort((a, b) => a - b),
  );
}

/**
 * Narrows every streaming relation to the columns its source id needs. A Generate above a
 * narrowed relation has its unrequiredChildIndex (positions in its child's output) re-read
 * for the narrower child: the same columns, by id.
 */
function narrowStreams(plan: LogicalPlan, streams: StreamNeeds): LogicalPlan {
  const kids = planChildren(plan);
  const next = kids.map((k) => narrowStreams(k, streams));
  const p = next.some((k, i) => k !== kids[i]) ? withPlanChildren(plan, next) : plan;
  if (p.kind === "generate" && plan.kind === "generate" && p !== plan && p.generatorOutput) {
    const before = outputOf(plan.child);
    const dropped = new Set(plan.unrequiredChildIndex.map((i) => before[i]!.exprId));
    const unrequired = outputOf(p.child).flatMap((a, i) => (dropped.has(a.exprId) ? [i] : []));
    return Plans.generate(p.generator, p.outer, p.names, p.qualifier, p.generatorOutput, p.child, unrequired);
  }
  if (p.kind !== "streamingRelation") return p;
  const keep = streams.get(p.sourceId);
  if (p.format === "csv") return keep ? csvStream(p, keep) : p;
  if (!keep || keep.size === 0 || keep.size === p.output.length) return p;
  return Plans.streamingRelation(
    p.sourceId,
    p.format,
    { ...p.options },
    p.output.filter((_, i) => keep.has(i)),
  );
}

export const pruneColumns: Rule = {
  name: "ColumnPruning",
  apply: (plan, ctx) => {
    const streams: StreamNeeds = new Map();
    const pruned = prune(plan, new Set(outputOf(plan).map((a) => a.exprId)), { streams, keepStatefulInputs: ctx.keepStatefulInputs });
    return narrowStreams(pruned, streams);
  },
};
