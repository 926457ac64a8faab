/**
 * Alerts on running queries (testStream, manual clock): delivered as onQueryAlert listener
 * events, a WARN log line, an arus_streaming_alert_firing series and activeAlerts(); none on a
 * healthy query.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { setLogWriter } from "../../src/common/log.js";
import { activeAlerts, functions as F, prometheusMetrics, type QueryAlertEvent, Session } from "../../src/index.js";
import { addData, advanceClock, assertOnQuery, execute, testStream } from "../../src/testing/index.js";

const session = Session.builder()
  .appName("monitoring-alerts")
  .config("spark.sql.session.timeZone", "UTC")
  .config("spark.sql.shuffle.partitions", "2")
  .config("spark.ui.enabled", "false")
  .getOrCreate();
after(() => session.stop());

const tick = advanceClock(1000);
const sec = (s: number) => new Date(s * 1000);

function collect() {
  const events: QueryAlertEvent[] = [];
  const lines: string[] = [];
  const listener = { onQueryAlert: (e: QueryAlertEvent) => events.push(e) };
  session.streams.addListener(listener);
  const prev = setLogWriter((l) => {
    if (l.includes("QueryAlert")) lines.push(l);
    else prev(l);
  });
  return {
    events,
    lines,
    done() {
      session.streams.removeListener(listener);
      setLogWriter(prev);
    },
  };
}

describe("alerts on a running query", () => {
  it("a healthy windowed count raises none", async () => {
    const c = collect();
    try {
      const ms = session.memoryStream("ts TIMESTAMP");
      const df = ms.toDF().withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds")).count();
      const actions = [];
      for (let i = 0; i < 12; i++) actions.push(addData(ms, [{ ts: sec(i * 3) }, { ts: sec(i * 3 + 1) }]), tick);
      await testStream(df, "append", [...actions, assertOnQuery(() => activeAlerts(session).length === 0, "no alert firing")], {
        trigger: { processingTime: "1 second" },
        queryName: "healthy_counts",
      });
      assert.deepEqual(c.events, []);
      assert.deepEqual(c.lines, []);
    } finally {
      c.done();
    }
  });

  it("late rows fire once, stay quiet, resolve once: listener, log line, metric, activeAlerts", async () => {
    const c = collect();
    try {
      const ms = session.memoryStream("ts TIMESTAMP");
      const df = ms.toDF().withWatermark("ts", "5 seconds").groupBy(F.window("ts", "10 seconds")).count();
      const firing = async () => /arus_streaming_alert_firing\{[^}]*alert="lateRows"[^}]*\} 1/.test(await prometheusMetrics(session));
      await testStream(
        df,
        "append",
        [
          addData(ms, [{ ts: sec(100) }]),
          tick, // watermark 95 s after this batch
          addData(ms, [{ ts: sec(100) }]),
          tick, // its late filter still uses the watermark before (Spark's W(N-1))
          addData(ms, [{ ts: sec(1) }, { ts: sec(101) }]),
          tick, // 1 of 2 rows late: fires
          execute(async () => {
            assert.deepEqual(
              c.events.map((e) => [e.alert, e.state, e.name]),
              [["lateRows", "firing", "late_counts"]],
            );
            assert.ok(await firing(), "arus_streaming_alert_firing{alert=lateRows} is 1");
            assert.deepEqual(
              activeAlerts(session).map((a) => a.alert),
              ["lateRows"],
            );
          }),
          addData(ms, [{ ts: sec(2) }, { ts: sec(102) }]),
          tick, // late again: still firing, no new event
          addData(ms, [{ ts: sec(103) }]),
          tick, // good 1
          addData(ms, [{ ts: sec(104) }]),
          tick, // good 2
          execute(() => assert.equal(c.events.length, 1, "no event while firing or before resolveBatches good batches")),
          addData(ms, [{ ts: sec(105) }]),
          tick, // good 3: resolves
          execute(async () => {
            assert.deepEqual(
              c.events.map((e) => e.state),
              ["firing", "resolved"],
            );
            assert.equal(await firing(), false);
            assert.deepEqual(activeAlerts(session), []);
          }),
        ],
        { trigger: { processingTime: "1 second" }, queryName: "late_counts" },
      );
      assert.equal(c.lines.length, 2);
      assert.match(c.lines[0]!, /^WARN QueryAlert: FIRING lateRows on query late_counts \[id = [0-9a-f-]+\]: 1 of 2 input rows were late/);
      assert.match(c.lines[1]!, /^WARN QueryAlert: RESOLVED lateRows/);
    } finally {
      c.done();
    }
  });

  it("state growing without a watermark fires stateGrowth (per-query threshold)", async () => {
    const c = collect();
    try {
      const ms = session.memoryStream("k INT");
      const actions = [];
      for (let i = 0; i < 5; i++) actions.push(addData(ms, [{ k: i }]), tick);
      await testStream(ms.toDF().groupBy("k").count(), "update", actions, {
        trigger: { processingTime: "1 second" },
        queryName: "keys",
        conf: { "arus.monitoring.query.keys.alerts.stateGrowth.batches": "3" },
      });
      assert.deepEqual(
        c.events.map((e) => [e.alert, e.subject, e.state, e.batchId]),
        [["stateGrowth", "stateOperator[0]", "firing", 3]],
      );
    } finally {
      c.done();
    }
  });
});
