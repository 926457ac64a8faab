/**
 * /metrics and prometheusMetrics(): the text parses with a real Prometheus text-format parser
 * (parse-prometheus-text-format; `promtool check metrics` too when Prometheus is installed), and
 * the values equal the query's progress: input rows, batches, state rows, late rows, watermark.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { after, describe, it } from "node:test";
import {
  dashboardUrl,
  functions as F,
  PROMETHEUS_CONTENT_TYPE,
  prometheusMetrics,
  prometheusRegistry,
  Session,
  startDashboard,
} from "../../src/index.js";
import { addData, advanceClock, execute, testStream } from "../../src/testing/index.js";

interface Sample {
  value?: string;
  labels?: Record<string, string>;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}
interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Sample[];
}
const parse = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];

const session = Session.builder()
  .appName("monitoring-metrics")
  .config("spark.sql.session.timeZone", "UTC")
  .config("spark.sql.shuffle.partitions", "2")
  .config("spark.ui.enabled", "false")
  .getOrCreate();
after(() => session.stop());
const sec = (s: number) => new Date(s * 1000);

function sample(families: Family[], name: string, labels: Record<string, string>): Sample | undefined {
  const f = families.find((x) => x.name === name);
  return f?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
}

describe("Prometheus metrics", () => {
  it("parse as Prometheus text and equal the progress numbers", async () => {
    const name = 'orders "eu"\\west';
    const ms = session.memoryStream("ts TIMESTAMP");
    const df = ms
      .toDF()
      .observe("in", F.count(F.lit(1)).alias("rows"), F.max("ts").alias("latest"))
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window("ts", "10 seconds"))
      .count();
    let text = "";
    let progress: import("../../src/index.js").StreamingQueryProgress[] = [];
    await testStream(
      df,
      "append",
      [
        addData(ms, [{ ts: sec(100) }, { ts: sec(101) }]),
        advanceClock(1000),
        addData(ms, [{ ts: sec(102) }]),
        advanceClock(1000),
        addData(ms, [{ ts: sec(1) }, { ts: sec(125) }]),
        advanceClock(1000),
        execute(async (q) => {
          text = await prometheusMetrics(session);
          progress = [...q.recentProgress];
        }),
      ],
      { trigger: { processingTime: "1 second" }, queryName: name },
    );
    const fams = parse(text);
    const q = { query_name: name };
    const last = progress.at(-1)!;
    assert.equal(sample(fams, "arus_streaming_query_active", q)?.value, "1");
    assert.equal(sample(fams, "arus_streaming_query_active", q)?.labels?.query_id, last.id);
    assert.equal(Number(sample(fams, "arus_streaming_batches_total", q)?.value), progress.length);
    assert.equal(Number(sample(fams, "arus_streaming_input_rows_total", q)?.value), 5);
    assert.equal(Number(sample(fams, "arus_streaming_late_rows_total", q)?.value), 1);
    assert.equal(Number(sample(fams, "arus_streaming_watermark_seconds", q)?.value), Date.parse(last.eventTime!.watermark!) / 1000);
    assert.equal(
      Number(sample(fams, "arus_streaming_state_rows", { ...q, operator_index: "0" })?.value),
      last.stateOperators[0]!.numRowsTotal,
    );
    assert.equal(
      sample(fams, "arus_streaming_state_rows", { ...q, operator_index: "0" })?.labels?.operator,
      last.stateOperators[0]!.operatorName,
    );
    assert.equal(
      Number(sample(fams, "arus_streaming_state_rows_dropped_by_watermark_total", { ...q, operator_index: "0" })?.value),
      progress.reduce((n, p) => n + p.stateOperators[0]!.numRowsDroppedByWatermark, 0),
    );
    assert.equal(
      Number(sample(fams, "arus_streaming_source_input_rows_total", { ...q, source_index: "0" })?.value),
      progress.reduce((n, p) => n + p.sources[0]!.numInputRows, 0),
    );
    // df.observe: the numeric metrics of the last batch that had them; text (a timestamp) is not a sample.
    const observed = [...progress].reverse().find((p) => p.observedMetrics)!.observedMetrics as Record<string, Record<string, unknown>>;
    assert.equal(
      Number(sample(fams, "arus_streaming_observed_metric", { ...q, observation: "in", metric: "rows" })?.value),
      observed.in!.rows,
    );
    assert.equal(sample(fams, "arus_streaming_observed_metric", { ...q, observation: "in", metric: "latest" }), undefined);
    assert.ok(progress.some((p) => (p.observedMetrics as Record<string, { rows: number }> | undefined)?.in?.rows === 2));
    const hist = fams.find((f) => f.name === "arus_streaming_batch_duration_seconds");
    assert.equal(hist?.type, "HISTOGRAM");
    // (this parser keeps a histogram's buckets, not its labels: one query here)
    assert.equal(Number(hist?.metrics[0]?.buckets?.["+Inf"]), progress.length);
    assert.equal(sample(fams, "arus_streaming_alert_firing", { ...q, alert: "lateRows" })?.value, "1");
    assert.equal(
      sample(fams, "arus_streaming_trigger_duration_seconds", { ...q, part: "triggerExecution" })?.value,
      String(last.durationMs!.triggerExecution! / 1000),
    );
    // once stopped: still listed, no longer active
    const after = parse(await prometheusMetrics(session));
    assert.equal(sample(after, "arus_streaming_query_active", q)?.value, "0");
    if (existsSync("/usr/bin/promtool")) {
      // promtool's linter reads the exposition with Prometheus's own parser; it exits 0 when it parses
      execFileSync("/usr/bin/promtool", ["check", "metrics"], { input: text });
    }
  });

  it("are served at /metrics with the Prometheus content type, and by the registry", async () => {
    const url = await startDashboard(session, { port: 0 });
    assert.equal(await dashboardUrl(session), url);
    assert.equal(session.sparkContext.uiWebUrl, url);
    const r = await fetch(`${url}/metrics`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), PROMETHEUS_CONTENT_TYPE);
    const fams = parse(await r.text());
    assert.ok(fams.some((f) => f.name === "arus_streaming_input_rows_total"));
    assert.equal(prometheusRegistry(session).contentType, PROMETHEUS_CONTENT_TYPE);
  });
});
