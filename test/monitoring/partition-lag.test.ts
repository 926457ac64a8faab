/**
 * arus_kafka_partition_lag: one series per Kafka source partition of a query's last progress
 * entry (latestOffset − endOffset), labelled by group and worker in group mode. A partition
 * revoked from a worker loses its series with the worker's next entry, and a worker that ended
 * loses all of them, so summing over workers counts each partition once (a fast-check property
 * over random reassignments).
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import fc from "fast-check";
import { StreamingMetrics } from "../../src/monitoring/metrics.js";
import type { SourceProgress, StreamingQueryProgress } from "../../src/runtime/progress.js";

interface Family {
  name: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}
const parse = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];

type Offsets = Record<string, Record<string, number>>;

function kafkaSource(end: Offsets | string | null, latest: Offsets | string | null): SourceProgress {
  return { description: "KafkaV2[Subscribe[events]]", startOffset: end, endOffset: end, latestOffset: latest, numInputRows: 1 };
}

function progress(id: string, batchId: number, sources: SourceProgress[], worker?: string): StreamingQueryProgress {
  return {
    id,
    runId: `${id}-run`,
    name: "lag",
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, batchId)).toISOString(),
    batchId,
    batchDuration: 10,
    numInputRows: 1,
    durationMs: {},
    stateOperators: [],
    sources,
    sink: { description: "KafkaTable", numOutputRows: 1 },
    arus: worker
      ? {
          numLateInputRows: 0,
          cluster: { group: "g", worker, generationId: 1, tasks: [], repartitionedRows: 0, rebalances: 1, abortedTransactions: 0 },
        }
      : { numLateInputRows: 0 },
  } as unknown as StreamingQueryProgress;
}

/** The partition lag series: `labels → value`, labels other than the query's as `k=v` sorted. */
async function lagSeries(metrics: StreamingMetrics): Promise<Map<string, number>> {
  const family = parse(await metrics.registry.metrics()).find((f) => f.name === "arus_kafka_partition_lag");
  const out = new Map<string, number>();
  for (const m of family?.metrics ?? []) {
    const { query_id: _id, query_name: _name, ...rest } = m.labels ?? {};
    const key = Object.entries(rest)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join(",");
    out.set(key, Number(m.value));
  }
  return out;
}

describe("arus_kafka_partition_lag", () => {
  it("a single query: one series per partition of its Kafka sources, kept through an entry without offsets", async () => {
    const metrics = new StreamingMetrics();
    const labels = { query_id: "q", query_name: "lag" };
    metrics.started(labels);
    const memory: SourceProgress = { description: "MemoryStream[value]", startOffset: 1, endOffset: 2, latestOffset: 5, numInputRows: 1 };
    metrics.progress(
      labels,
      progress("q", 0, [kafkaSource({ events: { "0": 5, "1": 7 } }, JSON.stringify({ events: { "0": 9, "1": 7, "2": 3 } })), memory]),
    );
    const first = new Map([
      ["partition=0,source_index=0,topic=events", 4],
      ["partition=1,source_index=0,topic=events", 0],
      // a partition the batch did not read yet counts from 0, as maxOffsetsBehindLatest does
      ["partition=2,source_index=0,topic=events", 3],
    ]);
    assert.deepEqual(await lagSeries(metrics), first);
    metrics.progress(labels, progress("q", 1, [kafkaSource(null, null), memory])); // an idle entry before any batch
    assert.deepEqual(await lagSeries(metrics), first);
    metrics.ended(labels, false);
    assert.deepEqual(await lagSeries(metrics), first, "a single query's last lag stays, as arus_streaming_source_lag does");
    metrics.forget("q");
    assert.deepEqual(await lagSeries(metrics), new Map());
  });

  it("group mode: labelled by worker; a revoked partition's series goes with the worker's next entry, all of them when it ends", async () => {
    const metrics = new StreamingMetrics();
    const a = { query_id: "qa", query_name: "lag" };
    const b = { query_id: "qb", query_name: "lag" };
    metrics.started(a);
    metrics.started(b);
    metrics.progress(a, progress("qa", 0, [kafkaSource({ events: { "0": 1, "1": 2 } }, { events: { "0": 4, "1": 2 } })], "wa"));
    assert.deepEqual(
      await lagSeries(metrics),
      new Map([
        ["group=g,partition=0,source_index=0,topic=events,worker=wa", 3],
        ["group=g,partition=1,source_index=0,topic=events,worker=wa", 0],
      ]),
    );
    // b joins and takes partition 0; a's next entry (an idle one) lists partition 1 only
    metrics.progress(b, progress("qb", 0, [kafkaSource({ events: { "0": 4 } }, { events: { "0": 6 } })], "wb"));
    metrics.progress(a, progress("qa", 1, [kafkaSource({ events: { "1": 2 } }, { events: { "1": 2 } })], "wa"));
    assert.deepEqual(
      await lagSeries(metrics),
      new Map([
        ["group=g,partition=0,source_index=0,topic=events,worker=wb", 2],
        ["group=g,partition=1,source_index=0,topic=events,worker=wa", 0],
      ]),
    );
    // b stops: the group gives partition 0 back to a, whose entry has not come yet
    metrics.ended(b, false);
    assert.deepEqual(await lagSeries(metrics), new Map([["group=g,partition=1,source_index=0,topic=events,worker=wa", 0]]));
  });

  it("summing over workers counts each partition once, whatever the reassignments (property)", async () => {
    const PARTITIONS = 4;
    const WORKERS = 3;
    // each step: the owner of every partition (a worker, or -1 for none yet), then which workers report
    const step = fc.record({
      owners: fc.array(fc.integer({ min: -1, max: WORKERS - 1 }), { minLength: PARTITIONS, maxLength: PARTITIONS }),
      reporting: fc.array(fc.boolean(), { minLength: WORKERS, maxLength: WORKERS }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const metrics = new StreamingMetrics();
        const labels = (w: number) => ({ query_id: `q${w}`, query_name: "lag" });
        for (let w = 0; w < WORKERS; w++) metrics.started(labels(w));
        const reported = new Map<number, number[]>(); // worker → partitions of its last entry
        for (const [i, { owners, reporting }] of steps.entries()) {
          // A worker that lost a partition reports within the step (worker-batch.ts: its idle
          // entry after the rebalance); the others only when the step says so.
          for (let w = 0; w < WORKERS; w++) {
            const owns = owners.flatMap((o, p) => (o === w ? [p] : []));
            const lost = (reported.get(w) ?? []).some((p) => !owns.includes(p));
            if (!lost && !reporting[w]) continue;
            const end: Offsets = { events: Object.fromEntries(owns.map((p) => [String(p), 10])) };
            const latest: Offsets = { events: Object.fromEntries(owns.map((p) => [String(p), 10 + p])) };
            metrics.progress(labels(w), progress(`q${w}`, i, [kafkaSource(end, latest)], `w${w}`));
            reported.set(w, owns);
          }
          const series = [...(await lagSeries(metrics)).entries()];
          const partitions = series.map(([k]) => /partition=(\d+)/.exec(k)![1]).sort();
          assert.equal(new Set(partitions).size, partitions.length, `a partition reported twice: ${JSON.stringify(series)}`);
          for (const [k, v] of series) {
            const p = Number(/partition=(\d+)/.exec(k)![1]);
            const w = Number(/worker=w(\d+)/.exec(k)![1]);
            assert.equal(v, p, "lag = latest − end");
            assert.ok(reported.get(w)!.includes(p), "only the partitions of the worker's last entry");
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
