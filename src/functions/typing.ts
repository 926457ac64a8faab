/**
 * Type, nullability and output attributes of resolved expressions and plans, and which calls
 * are aggregates. They live with the function registry, not in the analyzer, because the type
 * of a call is its function's rule (functions own their types) and everything below the
 * analyzer (optimizer, execution, planner) asks them too; plan/ cannot hold them, being below
 * functions/.
 */

import { AnalysisException } from "../common/errors.js";
import { type Attribute, assertNever, attribute, type Expr, withQualifier } from "../plan/expressions.js";
import type { LogicalPlan } from "../plan/logical.js";
import { type DataType, NullType, WindowStructType } from "../types/datatypes.js";
import { lookupFunction } from "./index.js";

export function isAggregateCall(e: Expr): boolean {
  return e.kind === "call" && lookupFunction(e.name)?.kind === "aggregate";
}

export function typeOf(e: Expr): DataType {
  switch (e.kind) {
    case "attribute":
    case "literal":
      return e.type;
    case "lambdaVar":
      if (!e.resolved) throw new Error(`unresolved lambda variable ${e.name} reached typeOf`);
      return e.type;
    case "alias":
    case "sortOrder":
      return typeOf(e.child);
    case "cast":
      return e.to;
    case "caseWhen":
      return e.branches.length ? typeOf(e.branches[0]![1]) : e.otherwise ? typeOf(e.otherwise) : NullType;
    case "call": {
      const fn = lookupFunction(e.name);
      // window() / session_window() before the analyzer lifts them into their own column
      // (analyzer/time-windows.ts): `window(ts, '5 seconds').start` asks for the type first
      if (!fn && (e.name === "window" || e.name === "session_window")) return WindowStructType;
      if (!fn && e.name === "__year_month_interval") throw yearMonthOutsideArithmetic();
      if (!fn) throw new Error(`unresolved function ${e.name} reached typeOf`);
      const types = e.args.map(typeOf);
      return fn.kind === "aggregate" ? fn.resolve(e.args, types, e, e.distinct).type : fn.resolve(e.args, types, e).type;
    }
    case "windowExpr":
      return typeOf(e.fn);
    case "column":
    case "star":
    case "multiAlias":
      throw new Error(`unresolved expression ${e.kind} reached typeOf`);
    default:
      return assertNever(e);
  }
}

const NEVER_NULL = new Set([
  "count",
  "isnan",
  "isnull",
  "isnotnull",
  "<=>",
  "approx_count_distinct",
  "current_timestamp",
  "collect_list",
  "collect_set",
  "collect_union",
  "size",
  "row_number",
  "rank",
  "dense_rank",
  "percent_rank",
  "ntile",
  "cume_dist",
  "grouping",
  "grouping_id",
  "__grouping_bit",
  "__grouping_id",
]);

/** A year-month interval literal (analyzer/year-month.ts) anywhere but beside + or - and a DATE / TIMESTAMP. */
export function yearMonthOutsideArithmetic(): AnalysisException {
  return new AnalysisException(
    "UNSUPPORTED_FEATURE",
    "[UNSUPPORTED_FEATURE] A year-month interval (INTERVAL n MONTH / YEAR) can only be added to or subtracted from a DATE or TIMESTAMP in arus.",
  );
}

export function nullableOf(e: Expr): boolean {
  switch (e.kind) {
    case "attribute":
    case "lambdaVar":
      return e.nullable;
    case "literal":
      return e.value === null;
    case "alias":
    case "sortOrder":
      return nullableOf(e.child);
    case "cast":
      // Casting from STRING can fail (NULL); widening casts keep the child's nullability.
      return nullableOf(e.child) || typeOf(e.child).kind === "string";
    case "caseWhen":
      return true;
    case "windowExpr":
      return nullableOf(e.fn);
    case "call":
      if (NEVER_NULL.has(e.name)) return false;
      if (e.name === "window" || e.name === "session_window") return false;
      if (["+", "-", "*", "=", "<", ">", "<=", ">=", "!=", "and", "or", "not", "upper", "lower", "concat"].includes(e.name)) {
        return e.args.some(nullableOf);
      }
      return true;
    default:
      return true;
  }
}

/**
 * The column metadata an expression's value carries: an attribute's own, and for
 * `window_time(window)` the window column's without the window markers (Spark's
 * ResolveWindowTime), so the event-time marker (`spark.watermarkDelayMs`) survives and a
 * second windowed aggregation on it can run in append mode.
 */
export function carriedMetadata(e: Expr): Readonly<Record<string, unknown>> | undefined {
  if (e.kind === "attribute") return e.metadata;
  if (e.kind === "call" && e.name === "window_time" && e.args[0]?.kind === "attribute") {
    const { "spark.sessionWindow": _session, ...rest } = e.args[0].metadata;
    return rest;
  }
  return undefined;
}

/** The attribute a named expression produces. */
export function toAttribute(e: Expr): Attribute {
  if (e.kind === "attribute") return e;
  if (e.kind === "alias") {
    const childMeta = carriedMetadata(e.child);
    return attribute(e.name, typeOf(e.child), nullableOf(e.child), {
      exprId: e.exprId,
      metadata: { ...(childMeta ?? {}), ...(e.metadata ?? {}) },
      ...(e.qualifier ? { qualifier: e.qualifier } : {}),
    });
  }
  throw new Error(`expression of kind ${e.kind} is not named`);
}

/** Output attributes of a resolved plan. */
export function outputOf(p: LogicalPlan): readonly Attribute[] {
  switch (p.kind) {
    case "localRelation":
    case "range":
    case "fileRelation":
    case "streamingRelation":
    case "expand":
    case "transformWithState":
      return p.output;
    case "unresolvedRelation":
      throw new Error(`unresolved relation ${p.name} reached outputOf`);
    case "pivot":
    case "unpivot":
      throw new Error(`unexpanded ${p.kind} reached outputOf`);
    case "project":
      return p.projectList.map(toAttribute);
    case "window":
      return [...outputOf(p.child), ...p.windowExprs.map(toAttribute)];
    case "generate": {
      if (!p.generatorOutput) throw new Error(`unresolved generator ${p.generator.name} reached outputOf`);
      const dropped = new Set(p.unrequiredChildIndex);
      return [...outputOf(p.child).filter((_, i) => !dropped.has(i)), ...p.generatorOutput];
    }
    case "aggregate":
      return p.aggregateExprs.map(toAttribute);
    case "filter":
    case "sort":
    case "limit":
    case "distinct":
    case "deduplicate":
    case "collectMetrics":
      return outputOf(p.child);
    case "watermark":
      return outputOf(p.child).map((a) =>
        a.name.toLowerCase() === p.eventTime.toLowerCase() // names resolve case-insensitively
          ? Object.freeze({ ...a, metadata: Object.freeze({ ...a.metadata, "spark.watermarkDelayMs": p.delayMs }) })
          : a.metadata["spark.watermarkDelayMs"] !== undefined
            ? Object.freeze({ ...a, metadata: Object.freeze(withoutKey(a.metadata, "spark.watermarkDelayMs")) })
            : a,
      );
    case "subqueryAlias":
      return outputOf(p.child).map((a) => withQualifier(a, [p.alias]));
    case "setOperation":
      return outputOf(p.left);
    case "union": {
      const first = outputOf(p.children[0]!);
      return first.map((a, i) => {
        const nullable = p.children.some((c) => outputOf(c)[i]?.nullable);
        return nullable === a.nullable ? a : Object.freeze({ ...a, nullable });
      });
    }
    case "join": {
      const l = outputOf(p.left);
      const r = outputOf(p.right);
      switch (p.joinType) {
        case "left_semi":
        case "left_anti":
          return l;
        case "existence":
          return [...l, p.exists!];
        case "left_outer":
          return [...l, ...r.map((a) => ({ ...a, nullable: true }))];
        case "right_outer":
          return [...l.map((a) => ({ ...a, nullable: true })), ...r];
        case "full_outer":
          return [...l, ...r].map((a) => ({ ...a, nullable: true }));
        default:
          return [...l, ...r];
      }
    }
    default:
      return assertNever(p);
  }
}

function withoutKey(o: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  const r = { ...o };
  delete r[key];
  return r;
}
