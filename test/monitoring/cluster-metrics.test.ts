/**
 * Group mode's restore figures in the Prometheus metrics: a worker's progress entries with an
 * `arus.cluster.restore` block (tasks from a snapshot or the whole changelog, records replayed,
 * snapshot entries loaded, offsets, ms) add up per worker label as docs/monitoring.md says.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { StreamingMetrics } from "../../src/monitoring/metrics.js";
import type { ClusterProgress, StreamingQueryProgress } from "../../src/runtime/progress.js";

interface Family {
  name: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}
const parse = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];

function progress(batchId: number, restore: ClusterProgress["restore"]): StreamingQueryProgress {
  return {
    id: "q1",
    runId: "r1",
    name: "counts",
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, batchId)).toISOString(),
    batchId,
    batchDuration: 10,
    numInputRows: 5,
    durationMs: {},
    stateOperators: [],
    sources: [],
    sink: { description: "KafkaTable", numOutputRows: 5 },
    arus: {
      numLateInputRows: 0,
      cluster: {
        group: "g",
        worker: "w1",
        generationId: 3,
        tasks: [0, 1],
        repartitionedRows: 5,
        rebalances: 2,
        abortedTransactions: 0,
        restore,
      },
    },
  } as unknown as StreamingQueryProgress;
}

function value(families: Family[], name: string, labels: Record<string, string>): number | undefined {
  const m = families.find((f) => f.name === name)?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  return m?.value === undefined ? undefined : Number(m.value);
}

describe("Prometheus metrics: group mode restores", () => {
  it("count tasks by where their restore started, records, snapshot entries and the last restore's offsets and time", async () => {
    const metrics = new StreamingMetrics();
    const labels = { query_id: "q1", query_name: "counts" };
    metrics.started(labels);
    metrics.progress(
      labels,
      progress(0, {
        tasks: 3,
        records: 900,
        ms: 1500,
        fromSnapshot: 0,
        fromPublishedSnapshot: 0,
        snapshotRecords: 0,
        offsets: 930,
        ignoredSnapshots: 0,
      }),
    );
    metrics.progress(labels, progress(1, undefined));
    metrics.progress(
      labels,
      progress(2, {
        tasks: 2,
        records: 40,
        ms: 250,
        fromSnapshot: 2,
        fromPublishedSnapshot: 1,
        snapshotRecords: 700,
        offsets: 44,
        ignoredSnapshots: 0,
      }),
    );
    const f = parse(await metrics.registry.metrics());
    const w = { group: "g", worker: "w1" };
    assert.equal(value(f, "arus_cluster_restored_tasks_total", { ...w, from: "changelog" }), 3);
    assert.equal(value(f, "arus_cluster_restored_tasks_total", { ...w, from: "snapshot" }), 1);
    assert.equal(value(f, "arus_cluster_restored_tasks_total", { ...w, from: "published-snapshot" }), 1);
    assert.equal(value(f, "arus_cluster_restored_changelog_records_total", w), 940);
    assert.equal(value(f, "arus_cluster_restored_snapshot_records_total", w), 700);
    assert.equal(value(f, "arus_cluster_last_restore_changelog_offsets", w), 44);
    assert.equal(value(f, "arus_cluster_last_restore_seconds", w), 0.25);
  });
});
