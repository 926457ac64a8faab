/**
 * Group mode's plan split (Kafka Streams' sub-topologies): a streaming plan with one keyed
 * stateful operator becomes two stages joined by a repartition topic.
 *
 *   stage A (source tasks)  the stateless part below the stateful operator — and below its
 *                           watermark, so event time is judged where the state lives;
 *                           its rows are routed by the operator's key to repartition partitions
 *   stage B (state tasks)   the rest of the plan over the rows of one repartition partition:
 *                           watermark, stateful operator, what is above it
 *
 * A stateless plan is stage A alone. What group mode cannot run yet (several streaming sources,
 * stream-stream joins, more than one stateful operator, global limits, sorts) is refused here,
 * before anything is created, with the reason.
 */
import { outputOf } from "../../analyzer/types.js";
import { ArusError } from "../../common/errors.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { type LogicalPlan, Plans, planChildren, type StreamingRelation, withPlanChildren } from "../../plan/logical.js";

/** The source id stage B's scan reads its rows under. */
export const REPARTITION_SOURCE_ID = "__arus_repartition";

export interface PlanSplit {
  /** The one streaming source (a Kafka topic subscription). */
  readonly source: StreamingRelation;
  /** Stage A: source rows → the rows stage B needs (or the query's output when `stageB` is null). */
  readonly stageA: LogicalPlan;
  /** Stage B over `REPARTITION_SOURCE_ID`, or null for a stateless query. */
  readonly stageB: LogicalPlan | null;
  /** Stage A's output columns (what a repartition record's rows hold); empty for a stateless query. */
  readonly repartitionOutput: readonly Attribute[];
  /** Positions in stage A's output that route a row (the stateful key); empty: one partition. */
  readonly routeColumns: readonly number[];
  /** What the stateful operator is, for messages and docs. */
  readonly statefulKind: string | null;
}

const KEYED = new Set(["aggregate", "deduplicate", "transformWithState"]);
const UNSUPPORTED: Record<string, string> = {
  join: "stream-stream joins",
  limit: "limit on a stream",
  sort: "sorting a stream",
  distinct: "distinct on a stream",
  window: "window functions",
};

function refuse(what: string): never {
  throw new ArusError(
    "UNSUPPORTED_IN_GROUP_MODE",
    `arus.cluster.group: ${what} cannot run in group mode yet (docs/scale-out.md lists what can); run the query without arus.cluster.group.`,
  );
}

function streamingSources(p: LogicalPlan, out: StreamingRelation[] = []): StreamingRelation[] {
  if (p.kind === "streamingRelation") out.push(p);
  for (const c of planChildren(p)) streamingSources(c, out);
  return out;
}

/** Does `p` (a node on the streaming path) keep state between batches? */
function isStateful(p: LogicalPlan): boolean {
  if (KEYED.has(p.kind)) return true;
  if (p.kind === "join") return planChildren(p).every((c) => streamingSources(c).length > 0);
  return p.kind === "limit" || p.kind === "sort" || p.kind === "distinct";
}

/** The path from the root to the streaming source, root first. */
function pathToSource(p: LogicalPlan): LogicalPlan[] {
  const path: LogicalPlan[] = [p];
  let node = p;
  while (node.kind !== "streamingRelation") {
    const next = planChildren(node).filter((c) => streamingSources(c).length > 0);
    if (next.length !== 1) refuse("a plan that joins or unions several streams");
    node = next[0]!;
    path.push(node);
  }
  return path;
}

function keyAttributes(p: LogicalPlan, input: readonly Attribute[]): readonly Attribute[] {
  const attrs = (exprs: readonly Expr[]) => exprs.filter((e): e is Attribute => e.kind === "attribute");
  switch (p.kind) {
    case "aggregate":
    case "transformWithState":
      return attrs(p.groupingExprs);
    case "deduplicate":
      return p.keys === null ? input : input.filter((a) => p.keys!.includes(a.name));
    default:
      return [];
  }
}

/** Replaces `target` (found by identity) in `root` with `replacement`. */
function replaceNode(root: LogicalPlan, target: LogicalPlan, replacement: LogicalPlan): LogicalPlan {
  if (root === target) return replacement;
  const kids = planChildren(root);
  const next = kids.map((k) => replaceNode(k, target, replacement));
  return next.some((k, i) => k !== kids[i]) ? withPlanChildren(root, next) : root;
}

export function splitPlan(plan: LogicalPlan): PlanSplit {
  const sources = streamingSources(plan);
  if (sources.length !== 1) refuse(`a query with ${sources.length} streaming sources (group mode reads one Kafka source)`);
  const source = sources[0]!;
  if (source.format !== "kafka") refuse(`a ${source.format} source (group mode reads Kafka topics)`);
  const path = pathToSource(plan);
  const stateful = path.filter(isStateful);
  for (const s of stateful) if (!KEYED.has(s.kind)) refuse(UNSUPPORTED[s.kind] ?? s.kind);
  if (stateful.length > 1) refuse("more than one stateful operator");
  if (stateful.length === 0) return { source, stageA: plan, stageB: null, repartitionOutput: [], routeColumns: [], statefulKind: null };
  const op = stateful[0]!;
  const below = path.slice(path.indexOf(op) + 1);
  // Cut under the watermark when there is one: stage B then sees event time where it judges it.
  const watermark = below.find((n) => n.kind === "watermark");
  const cut = watermark ? planChildren(watermark)[0]! : below[0]!;
  const cutOutput = outputOf(cut);
  const opInput = outputOf(below[0]!);
  const ids = new Set(cutOutput.map((a) => a.exprId));
  const keys = keyAttributes(op, opInput).filter((a) => ids.has(a.exprId));
  const routeColumns = keys.map((k) => cutOutput.findIndex((a) => a.exprId === k.exprId));
  const scan = Plans.streamingRelation(REPARTITION_SOURCE_ID, "arus-repartition", {}, cutOutput);
  return { source, stageA: cut, stageB: replaceNode(plan, cut, scan), repartitionOutput: cutOutput, routeColumns, statefulKind: op.kind };
}
