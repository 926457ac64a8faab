/**
 * Worker-thread entry of the state threads (state-threads.ts): holds the columnar aggregation
 * state of the partitions this thread owns, one provider per (query run, operator), loaded on
 * first use and kept across batches until the query closes; runs each batch's state-side half (`ColumnarAggregation.run`) on the
 * rows routed here and answers with the output rows, their typed arrays moved. Stream-stream
 * joins' state is held and run likewise (state-thread-join.ts).
 */
import { spareFiles } from "../../checkpoint/spare-files.js";
import { batchTransferList } from "../../columnar/transfer.js";
import { armCrashPoint } from "../../common/crash-points.js";
import { serveTasks } from "../../common/worker-pool.js";
import { reserveExprIds } from "../../plan/expressions.js";
import { ColumnarStateProvider } from "../../state/columnar/index.js";
import { DeferredStateWrites } from "../../state/deferred-writes.js";
import { queryStateFs, unsyncedQueryStateFs } from "../../state/files.js";
import { AggregationSpec } from "../aggregation.js";
import { ColumnarAggregation } from "../stateful/columnar-aggregation.js";
import { dropJoins, joinProvidersOf, runJoin } from "./state-thread-join.js";
import {
  type AggregateThreadReply,
  arrivedChunk,
  type StateThreadProviderOptions,
  type StateThreadReply,
  type StateThreadRequest,
} from "./state-threads.js";

interface Operator {
  readonly agg: ColumnarAggregation;
  readonly provider: ColumnarStateProvider;
  /** The request's required heads by dir, and the partitions the batch's commit wrote. */
  readonly heads: Map<string, number>;
  readonly written: number[];
}
/** By `<query>/<operator id>`. */
const operators = new Map<string, Operator>();
/** By query: its deltas' fdatasyncs and renames in flight (`deferSyncs`), awaited by a `flush` request. */
const deferredWrites = new Map<string, DeferredStateWrites>();

/**
 * Tests only: hold each batch's delta syncs back this long (ms), so that a test can tell a loop
 * that waits for them before `commits/N` from one that does not (test/parallel/state-threads-syncs.test.ts).
 */
const SYNC_DELAY_MS = Number(process.env.ARUS_TEST_STATE_SYNC_DELAY_MS ?? 0);

/** `SYNC_DELAY_MS`: this batch's delta syncs wait that long (tests only). */
function holdSyncsForTests(query: string): void {
  if (SYNC_DELAY_MS > 0) deferredWrites.get(query)?.gate(new Promise((res) => setTimeout(res, SYNC_DELAY_MS)));
}

function deferredOf(query: string): DeferredStateWrites {
  let d = deferredWrites.get(query);
  if (!d) deferredWrites.set(query, (d = new DeferredStateWrites(queryStateFs)));
  return d;
}

/** A provider's retention and file system, as the main thread's would have them. */
function fileOptions(query: string, o: StateThreadProviderOptions) {
  const { fsync, deferSyncs, ...retention } = o;
  return { ...retention, fs: fsync === false ? unsyncedQueryStateFs : deferSyncs ? deferredOf(query).fs : queryStateFs };
}

function* ofQuery(query: string): Generator<[string, Operator]> {
  for (const entry of operators) if (entry[0].startsWith(`${query}/`)) yield entry;
}

function operatorOf(r: StateThreadRequest & { kind: "aggregate" }): Operator {
  const key = `${r.query}/${r.op.operatorId}`;
  let op = operators.get(key);
  if (!op) {
    reserveExprIds(r.op.exprIdsInUse);
    const spec = new AggregationSpec(r.op.groupingExprs, r.op.aggregateExprs, r.op.childOutput);
    const agg = ColumnarAggregation.of(spec, { structBuffers: r.op.structBuffers });
    if (!agg) throw new Error(`operator ${r.op.operatorId}: this aggregation does not fit the columnar state`);
    const heads = new Map<string, number>();
    const written: number[] = [];
    const providerOptions = {
      ...fileOptions(r.query, r.providerOptions),
      requiredHead: (dir: string) => heads.get(dir) ?? 0,
      onDeltaWritten: (dir: string) => {
        const p = r.dirs.indexOf(dir);
        if (p >= 0) written.push(p);
      },
    };
    op = { agg, provider: new ColumnarStateProvider(r.dirs, agg.plan.schema, providerOptions, r.owned), heads, written };
    operators.set(key, op);
  }
  return op;
}

async function aggregate(r: StateThreadRequest & { kind: "aggregate" }): Promise<AggregateThreadReply> {
  const { agg, provider, heads, written } = operatorOf(r);
  heads.clear();
  r.dirs.forEach((d, p) => {
    if (d && r.requiredHeads[p]) heads.set(d, r.requiredHeads[p]!);
  });
  written.length = 0;
  holdSyncsForTests(r.query);
  const store = await provider.getStore(r.version);
  try {
    const result = await agg.run(store, r.chunks.map(arrivedChunk), r.options);
    const openEventTimes = agg.eventTimeKey >= 0 ? provider.distinctEventTimes(agg.eventTimeKey) : [];
    return { ...result, openEventTimes, writtenPartitions: [...written] };
  } catch (e) {
    store.abort();
    throw e;
  }
}

serveTasks<StateThreadRequest, StateThreadReply>(async (r) => {
  if (r.kind === "aggregate" || r.kind === "join" || r.kind === "maintenance") armCrashPoint(r.crashPoint);
  switch (r.kind) {
    case "aggregate": {
      const result = await aggregate(r);
      return { result, transfer: batchTransferList([result.output]) };
    }
    case "join": {
      holdSyncsForTests(r.query);
      const result = await runJoin(r, fileOptions(r.query, r.providerOptions));
      return { result, transfer: batchTransferList(result.output) };
    }
    case "maintenance":
      // Captured now; the files are written beside the thread's next batch (provider-base.ts).
      for (const [, op] of ofQuery(r.query)) await op.provider.startMaintenance();
      for (const p of joinProvidersOf(r.query)) await p.startMaintenance();
      return { result: null, transfer: [] };
    case "flush":
      await deferredWrites.get(r.query)?.flush();
      return { result: null, transfer: [] };
    case "close": {
      // A failed batch may leave delta renames in flight: let them finish before the stores go.
      await deferredWrites
        .get(r.query)
        ?.flush()
        .catch(() => {});
      deferredWrites.delete(r.query);
      // Every operator of the query goes even if one's close throws (its last maintenance failed).
      let failure: { error: unknown } | null = null;
      for (const [key, op] of [...ofQuery(r.query)]) {
        operators.delete(key);
        await op.provider.close().catch((error: unknown) => {
          failure ??= { error };
        });
      }
      const joinProviders = [...joinProvidersOf(r.query)];
      dropJoins(r.query);
      for (const p of joinProviders)
        await p.close().catch((error: unknown) => {
          failure ??= { error };
        });
      // This thread's spare files go too (every query's: one still running makes new ones).
      await spareFiles.drain();
      if (failure) throw (failure as { error: unknown }).error;
      return { result: null, transfer: [] };
    }
  }
});
