/**
 * Alert rules with hysteresis (src/monitoring/alerts.ts): each rule fires once after its run of
 * bad batches, stays quiet while firing, resolves once after its run of good ones; fed with
 * progress entries built here so every number is chosen by the test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RuntimeConfig } from "../../src/common/conf.js";
import type { StreamingQueryProgress } from "../../src/index.js";
import { AlertConfig } from "../../src/monitoring/alert-config.js";
import { QueryAlerts } from "../../src/monitoring/alerts.js";

const T0 = Date.UTC(2026, 0, 1);

function prog(batchId: number, over: Partial<StreamingQueryProgress> = {}): StreamingQueryProgress {
  return {
    id: "q",
    runId: "r",
    name: "orders",
    timestamp: new Date(T0 + batchId * 1000).toISOString(),
    batchId,
    batchDuration: 10,
    numInputRows: 100,
    inputRowsPerSecond: 100,
    processedRowsPerSecond: 10_000,
    durationMs: { triggerExecution: 10 },
    stateOperators: [],
    sources: [{ description: "MemoryStream[ts]", startOffset: batchId - 1, endOffset: batchId, latestOffset: batchId, numInputRows: 100 }],
    sink: { description: "MemorySink", numOutputRows: 100 },
    arus: { numLateInputRows: 0 },
    ...over,
  };
}

function alerts(conf: Record<string, string> = {}, triggerIntervalMs = 1000) {
  const cfg = new AlertConfig(new RuntimeConfig(conf), "orders");
  return new QueryAlerts({ id: "q", runId: "r", name: "orders" }, cfg, { triggerIntervalMs }, T0);
}

/** Feed entries; the events as "batchId alert subject state". */
function feed(a: QueryAlerts, ps: StreamingQueryProgress[]): string[] {
  return ps.flatMap((p) => a.onProgress(p, Date.parse(p.timestamp)).map((e) => `${e.batchId} ${e.alert} ${e.subject} ${e.state}`));
}

describe("alert rules", () => {
  it("stay silent on a healthy query", () => {
    const a = alerts();
    assert.deepEqual(
      feed(
        a,
        Array.from({ length: 30 }, (_, i) => prog(i)),
      ),
      [],
    );
    assert.deepEqual(a.checkStalled(T0 + 30_000), []);
    assert.deepEqual(a.active(), []);
  });

  it("fallingBehind fires after N slow batches in a row, once, and resolves after N good ones", () => {
    const a = alerts();
    const slow = (i: number) => prog(i, { inputRowsPerSecond: 500, processedRowsPerSecond: 400 });
    const events = feed(a, [
      slow(0),
      slow(1),
      prog(2),
      slow(3),
      slow(4),
      slow(5),
      slow(6),
      slow(7),
      prog(8),
      prog(9),
      slow(10),
      prog(11),
      prog(12),
      prog(13),
    ]);
    // 0,1 then a good one resets the run; 3,4,5 fire; 6,7 stay quiet; 8,9 good, 10 bad resets; 11-13 resolve
    assert.deepEqual(events, ["5 fallingBehind query firing", "13 fallingBehind query resolved"]);
    assert.equal(a.active().length, 0);
  });

  it("slowBatch compares batchDuration with the trigger interval (and not without one)", () => {
    const slow = (i: number) => prog(i, { batchDuration: 1500 });
    assert.deepEqual(feed(alerts(), [slow(0), slow(1), slow(2), prog(3), prog(4), prog(5)]), [
      "2 slowBatch query firing",
      "5 slowBatch query resolved",
    ]);
    assert.deepEqual(feed(alerts({}, 0), [slow(0), slow(1), slow(2), slow(3)]), []);
  });

  it("sourceLag fires above its bound and on lag growing N batches, per source", () => {
    const lagged = (i: number, behind: number) =>
      prog(i, {
        sources: [
          {
            description: "KafkaV2[Subscribe[t]]",
            startOffset: null,
            endOffset: null,
            latestOffset: null,
            numInputRows: 1,
            metrics: { maxOffsetsBehindLatest: String(behind) },
          },
        ],
      });
    const conf = { "arus.monitoring.alerts.sourceLag.max": "1000", "arus.monitoring.alerts.sourceLag.growingBatches": "3" };
    assert.deepEqual(feed(alerts(conf), [lagged(0, 10), lagged(1, 5000), lagged(2, 10), lagged(3, 10), lagged(4, 10)]), [
      "1 sourceLag source[0] firing",
      "4 sourceLag source[0] resolved",
    ]);
    assert.deepEqual(
      feed(alerts(conf), [lagged(0, 10), lagged(1, 20), lagged(2, 30), lagged(3, 40), lagged(4, 40), lagged(5, 30), lagged(6, 20)]),
      ["3 sourceLag source[0] firing", "6 sourceLag source[0] resolved"],
    );
  });

  it("watermarkDelay measures batch start minus the watermark, ignoring the epoch watermark", () => {
    const wm = (i: number, lagMs: number) => prog(i, { eventTime: { watermark: new Date(T0 + i * 1000 - lagMs).toISOString() } });
    const conf = {
      "arus.monitoring.alerts.watermarkDelay.enabled": "true",
      "arus.monitoring.alerts.watermarkDelay.max": "1m",
      "arus.monitoring.alerts.watermarkDelay.resolveBatches": "1",
    };
    const epoch = prog(0, { eventTime: { watermark: new Date(0).toISOString() } });
    const entries = [epoch, wm(1, 30_000), wm(2, 61_000), wm(3, 90_000), wm(4, 10_000)];
    assert.deepEqual(feed(alerts(conf), entries), ["2 watermarkDelay query firing", "4 watermarkDelay query resolved"]);
    // off by default: replayed or synthetic event times trail the wall clock by design
    const { "arus.monitoring.alerts.watermarkDelay.enabled": _on, ...offByDefault } = conf;
    assert.deepEqual(feed(alerts(offByDefault), entries), []);
  });

  it("idleSource fires when one source reads nothing while another reads rows", () => {
    const two = (i: number, a: number, b: number) =>
      prog(i, {
        numInputRows: a + b,
        sources: [
          { description: "orders", startOffset: 0, endOffset: 0, latestOffset: 0, numInputRows: a },
          { description: "clicks", startOffset: 0, endOffset: 0, latestOffset: 0, numInputRows: b },
        ],
      });
    const conf = { "arus.monitoring.alerts.idleSource.batches": "3" };
    const events = feed(alerts(conf), [two(0, 5, 0), two(1, 5, 0), two(2, 0, 0), two(3, 5, 0), two(4, 5, 5)]);
    // batch 2 (nothing anywhere) does not count either way
    assert.deepEqual(events, ["3 idleSource source[1] firing", "4 idleSource source[1] resolved"]);
  });

  it("stateGrowth fires when state rows grow with nothing removed for N data batches", () => {
    const op = (i: number, total: number, removed: number, rows = 10) =>
      prog(i, {
        numInputRows: rows,
        stateOperators: [
          {
            operatorName: "stateStoreSave",
            numRowsTotal: total,
            numRowsUpdated: 1,
            numRowsRemoved: removed,
            allUpdatesTimeMs: 0,
            allRemovalsTimeMs: 0,
            commitTimeMs: 0,
            memoryUsedBytes: total * 100,
            numRowsDroppedByWatermark: 0,
            numShufflePartitions: 1,
            numStateStoreInstances: 1,
            customMetrics: {},
          },
        ],
      });
    const conf = { "arus.monitoring.query.orders.alerts.stateGrowth.batches": "3" };
    const events = feed(alerts(conf), [op(0, 1, 0), op(1, 2, 0), op(2, 3, 0), op(3, 0, 0, 0), op(4, 4, 0), op(5, 4, 1)]);
    // batch 3 has no input rows: skipped; the per-query key set batches=3
    assert.deepEqual(events, ["4 stateGrowth stateOperator[0] firing", "5 stateGrowth stateOperator[0] resolved"]);
  });

  it("lateRows compares late input rows with input rows", () => {
    const late = (i: number, n: number) => prog(i, { arus: { numLateInputRows: n } });
    assert.deepEqual(feed(alerts(), [late(0, 1), late(1, 6), late(2, 50), late(3, 0), late(4, 0), late(5, 0)]), [
      "1 lateRows query firing",
      "5 lateRows query resolved",
    ]);
  });

  it("noProgress fires once the query's clock passes the last progress by the timeout and resolves at the next progress", () => {
    const a = alerts({ "arus.monitoring.alerts.noProgress.timeout": "30s" });
    feed(a, [prog(0)]);
    assert.deepEqual(a.checkStalled(T0 + 29_000), []);
    const fired = a.checkStalled(T0 + 31_000);
    assert.equal(fired.length, 1);
    assert.equal(fired[0]!.state, "firing");
    assert.match(fired[0]!.message, /no progress for 31000 ms/);
    assert.deepEqual(a.checkStalled(T0 + 60_000), [], "fires once");
    assert.equal(a.active()[0]?.alert, "noProgress");
    assert.deepEqual(feed(a, [prog(61)]), ["61 noProgress query resolved"]);
  });

  it("can be switched off per rule or for every rule, and a bad value says which key", () => {
    const slow = (i: number) => prog(i, { batchDuration: 1500 });
    assert.deepEqual(feed(alerts({ "arus.monitoring.alerts.slowBatch.enabled": "false" }), [slow(0), slow(1), slow(2)]), []);
    assert.deepEqual(feed(alerts({ "arus.monitoring.alerts.enabled": "false" }), [slow(0), slow(1), slow(2)]), []);
    assert.throws(
      () => alerts({ "arus.monitoring.alerts.lateRows.maxRatio": "lots" }),
      /arus\.monitoring\.alerts\.lateRows\.maxRatio must be a non-negative number, got 'lots'/,
    );
    assert.throws(() => alerts({ "arus.monitoring.alerts.noProgress.timeout": "soon" }), /noProgress\.timeout must be a duration/);
  });
});
