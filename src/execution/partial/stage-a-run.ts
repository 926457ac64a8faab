/**
 * Runs stage A (stage-a.ts) over decoded rows — on a decode thread for its share of a file, or
 * on the main thread for a file a thread could not take — and returns its partial groups: one
 * row per distinct (grouping keys) with the aggregates' partial buffers, the input rows behind
 * each, and the watermark's event-time statistics of the rows, in file order.
 *
 * With adaptive skipping (partial-read.ts) it may run the operators only and return their rows.
 *
 * Nothing is filtered by the watermark here: the event time is a grouping key, so a row is late
 * exactly when its group is, and the main thread drops late groups with the batch's own W(N-1)
 * (partial-merge.ts). Files read ahead therefore need no watermark.
 */
import type { Batch } from "../../columnar/batch.js";
import { scatter, type Vector } from "../../columnar/vector.js";
import type { EvalContext } from "../../functions/index.js";
import type { Attribute } from "../../plan/expressions.js";
import { keyPartitions, ownersOf } from "../../state/columnar/partitioning.js";
import { AggregationSpec } from "../aggregation.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { ExpandExec, FilterExec, LocalScanExec, ProjectExec } from "../operators/basic.js";
import { rowsByOwner } from "../parallel/join-routing.js";
import type { AggregateChunk } from "../stateful/aggregation-backend.js";
import type { BatchReport } from "../stateful/batch-report.js";
import { eventTimeMicros } from "../stateful/common.js";
import { paneChunks, paneShapeOf } from "../stateful/pane-aggregation.js";
import type { WatermarkExec } from "../stateful/watermark.js";
import { partialGrouping } from "./partial-grouping.js";
import type { StageASpec } from "./stage-a.js";

/**
 * The event time (ms, floored; NULL as 0, as in WatermarkExec) of each row reaching the
 * watermark, in file order: the main thread folds them into the watermark's statistics and its
 * running maximum (`WatermarkExec.recordEventTimes`) with the same additions in the same order.
 */
export interface EventTimeRange {
  readonly ms: Float64Array;
}

/** Partial groups: keys, the aggregates' buffers, and the input rows behind each group. */
export interface PartialChunk {
  readonly keys: Vector[];
  /** Per aggregate call, its buffer vectors. */
  readonly buffers: Vector[][];
  /** Input rows behind each group (the rows reaching the aggregation; (row, window) pairs for a sliding window). */
  readonly rows: Float64Array | Int32Array;
  readonly n: number;
  /** With routing: the state thread owning these keys, of `owners`. */
  readonly owner?: number;
  readonly owners?: number;
}

/**
 * Stage A's result for one range of a file: its partial groups — one chunk of distinct keys,
 * or for a sliding window by panes one chunk per window offset of the pane groups (merging
 * those again here would find few equal keys: each (window, key) comes from up to k panes, but
 * mostly from one) —, the scan's row count and the event times.
 */
export interface PartialGroups {
  readonly chunks: PartialChunk[];
  /**
   * Not aggregated (adaptive skipping, partial-read.ts): the rows stage A's operators produced —
   * the aggregation's input, or with panes the Expand's input — for the main thread to aggregate
   * as the row path does; `chunks` is then empty.
   */
  readonly rows?: Batch[];
  /** With a join routing (stage A's `joinRouting`): the state thread owning each of `rows`. */
  readonly rowOwners?: number[];
  /** With a join routing: each of `rows`' rows' key hash (joinKeyHashes). */
  readonly rowHashes?: Int32Array[];
  /** Rows the scan produced (after its pushed filter): progress numInputRows. */
  readonly scanRows: number;
  readonly eventTime: EventTimeRange | null;
}

/**
 * The event times (ms) of `batches`' column `col`. The range object is made by the caller:
 * made after these loops, it deopted their OSR code, which had not seen it yet, on every call
 * (docs/architecture.md, "Hot path rules"; --trace-deopt: 7-40 a run).
 */
function eventTimeMillis(batches: readonly Batch[], col: number): Float64Array {
  // Index loops, not for-of: TurboFan code of the for-of version fell into a deopt loop on its
  // iterator-closing path (V8 11, --trace-deopt: ~90 eager deopts a run on a decode thread).
  let total = 0;
  for (let j = 0; j < batches.length; j++) total += batches[j]!.numRows;
  const ms = new Float64Array(total);
  let k = 0;
  for (let j = 0; j < batches.length; j++) {
    const b = batches[j]!;
    const et = eventTimeMicros(b.columns[col]!, b.numRows);
    for (let i = 0; i < b.numRows; i++, k++) {
      const micros = et[i]!;
      ms[k] = Number.isNaN(micros) ? 0 : Math.floor(micros / 1000); // NULL counts as 0 in the statistics (watermark.ts)
    }
  }
  return ms;
}

/** Runs one operator over `batches` (its child a scan of them). */
function apply(make: (child: PhysicalOperator) => PhysicalOperator, input: readonly Attribute[], batches: Batch[], ctx: ExecContext) {
  return make(new LocalScanExec(input, batches)).execute(ctx);
}

/** Stage A over `decoded`; with `aggregate` false its operators only (the rows come back as they are). */
export async function runStageA(stage: StageASpec, decoded: Batch[], aggregate = true): Promise<PartialGroups> {
  const ev: EvalContext = { timeZone: stage.timeZone, batchTimestampMs: 0, watermarkMs: 0, ansi: stage.ansi };
  const ctx: ExecContext = { eval: ev };
  let attrs = stage.scanOutput;
  let batches = decoded;
  if (stage.pushed) batches = await apply((c) => new FilterExec(stage.pushed!, c), attrs, batches, ctx);
  const scanRows = batches.reduce((n, b) => n + b.numRows, 0);
  let eventTime: EventTimeRange | null = null;
  // With panes the aggregation reads the Expand's input: the last step is the Expand, not run.
  const steps = stage.panes ? stage.steps.slice(0, -1) : stage.steps;
  for (const s of steps) {
    const input = attrs;
    switch (s.kind) {
      case "filter":
        batches = await apply((c) => new FilterExec(s.condition, c), input, batches, ctx);
        break;
      case "project":
        batches = await apply((c) => new ProjectExec(s.exprs, s.output, c), input, batches, ctx);
        attrs = s.output;
        break;
      case "expand":
        batches = await apply((c) => new ExpandExec(s.projections, s.output, c), input, batches, ctx);
        attrs = s.output;
        break;
      case "watermark":
        eventTime = {
          ms: eventTimeMillis(
            batches,
            input.findIndex((a) => a.exprId === s.eventTime.exprId),
          ),
        };
        break;
    }
  }
  if (!aggregate) {
    const rows = batches.filter((b) => b.numRows > 0);
    const split = stage.joinRouting ? rowsByOwner(stage.joinRouting, attrs, rows, ev) : { rows };
    return { chunks: [], ...split, scanRows, eventTime };
  }
  if (stage.panes) {
    const chunks = panesOf(stage, attrs, batches, ev).map((c) => ({
      keys: [...c.keys],
      buffers: c.inputs.map((b) => [...b]),
      rows: c.rows!,
      n: c.n,
    }));
    return { chunks: routed(stage, chunks), scanRows, eventTime };
  }
  const chunk = aggregated(stage, attrs, batches, ev);
  return { chunks: routed(stage, chunk.n > 0 ? [chunk] : []), scanRows, eventTime };
}

/**
 * The partial groups of `batches` (one chunk). A function of its own, as are its per-row loops:
 * runStageA runs once per file range, and with a per-row loop in it V8 compiled it — async,
 * with everything inlined — on the stack, again after each query of another key shape (--trace-opt:
 * 8 compiles, ~0.9 s of a decode thread's compile time over the benchmark's eight queries).
 */
function aggregated(stage: StageASpec, attrs: readonly Attribute[], batches: readonly Batch[], ev: EvalContext): PartialChunk {
  const spec = new AggregationSpec(stage.groupingExprs, stage.aggregateExprs, attrs);
  const live = batches.filter((b) => b.numRows > 0);
  const keysOf = live.map((b) => spec.groupKeys(b, ev));
  const groups = partialGrouping(
    spec.groupAttrs.map((a) => a.type),
    keysOf,
  );
  const accs = spec.newAccumulators(ev);
  let rows = new Float64Array(1024);
  for (let bi = 0; bi < live.length; bi++) {
    const b = live[bi]!;
    const n = b.numRows;
    const gid = groups.assign(keysOf[bi]!, n);
    const inputs = spec.aggInputs(b, ev);
    const G = groups.numGroups;
    if (G > rows.length) {
      const grown = new Float64Array(Math.max(G, rows.length * 2));
      grown.set(rows);
      rows = grown;
    }
    countRows(rows, gid, n);
    for (let a = 0; a < accs.length; a++) {
      accs[a]!.resize(G);
      accs[a]!.update(gid, n, inputs[a]!);
    }
  }
  const G = groups.numGroups;
  for (const a of accs) a.resize(G);
  return { keys: groups.keyVectors(), buffers: accs.map((a) => a.buffers(G)), rows: rows.slice(0, G), n: G };
}

/** Adds each of n rows to its group's row count. */
function countRows(rows: Float64Array, gid: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) rows[gid[i]!]!++;
}

/** Each chunk split by the state thread owning its keys' partitions (stage A's `routing`), or as it is. */
function routed(stage: StageASpec, chunks: PartialChunk[]): PartialChunk[] {
  const r = stage.routing;
  if (!r) return chunks;
  const out: PartialChunk[] = [];
  for (const c of chunks) {
    const { owner, counts } = ownersOf(keyPartitions(r.schema, c.keys, c.n, r.numPartitions), c.n, r.owners);
    const keys = c.keys.map((k) => scatter(k, owner, counts));
    const buffers = c.buffers.map((bs) => bs.map((v) => scatter(v, owner, counts)));
    const rows = rowsByOwnerOf(c, owner, counts);
    for (let w = 0; w < r.owners; w++) {
      if (counts[w] === 0) continue;
      out.push({
        keys: keys.map((k) => k[w]!),
        buffers: buffers.map((bs) => bs.map((v) => v[w]!)),
        rows: rows[w]!,
        n: counts[w]!,
        owner: w,
        owners: r.owners,
      });
    }
  }
  return out;
}

/** The chunk's input-row counts split by owner (`counts[w]` groups each), in group order. */
function rowsByOwnerOf(c: PartialChunk, owner: Int32Array, counts: Int32Array): Float64Array[] {
  const rows = Array.from(counts, (m) => new Float64Array(m));
  const at = new Int32Array(counts.length);
  for (let i = 0; i < c.n; i++) rows[owner[i]!]![at[owner[i]!]!++] = c.rows[i]!;
  return rows;
}

/** The sliding window's pane groups spread over their windows (pane-aggregation.ts), nothing dropped as late. */
function panesOf(stage: StageASpec, input: readonly Attribute[], batches: readonly Batch[], ev: EvalContext): AggregateChunk[] {
  const last = stage.steps.at(-1);
  if (last?.kind !== "expand") throw new Error("stage A: panes without the Expand as its last step");
  const expand = new ExpandExec(last.projections, last.output, new LocalScanExec(input, []));
  const spec = new AggregationSpec(stage.groupingExprs, stage.aggregateExprs, expand.output);
  const shape = paneShapeOf(expand, spec, stage.groupingExprs);
  if (!shape) throw new Error("stage A: the sliding window no longer qualifies for panes");
  return paneChunks(shape, spec, batches, ev, false, 0).chunks;
}

/**
 * Stage A's results of a batch's files, with what the operators they replace would have recorded:
 * the scan's rows after its pushed filter (progress numInputRows) and, through `watermark`, the
 * event-time statistics in file order (`WatermarkExec.recordEventTimes`).
 */
export function recordedParts(
  files: readonly { readonly value: unknown }[],
  sourceId: string,
  watermark: WatermarkExec | null,
  report: BatchReport,
): PartialGroups[] {
  const parts = files.flatMap((f) => f.value as PartialGroups[]);
  report.addScanRows(
    sourceId,
    parts.reduce((n, p) => n + p.scanRows, 0),
  );
  watermark?.recordEventTimes(
    report,
    parts.map((p) => p.eventTime?.ms ?? new Float64Array(0)),
  );
  return parts;
}
