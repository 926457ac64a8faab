/**
 * A real Prometheus (Debian's `prometheus` package; .ci/run installs it) scrapes a running
 * query's /metrics for a few seconds and the series is queried back through its HTTP API;
 * `promtool check rules` validates examples/monitoring/arus-alerts.rules.yml, which the same
 * server also loads. Skipped, saying why, when the binaries are absent (required on CI).
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { Session, startDashboard } from "../../src/index.js";

const PROMETHEUS = "/usr/bin/prometheus";
const PROMTOOL = "/usr/bin/promtool";
const RULES = path.resolve(import.meta.dirname, "../../examples/monitoring/arus-alerts.rules.yml");
/** Skip with the reason, unless CI requires the test (ARUS_REQUIRE_PROMETHEUS=1: then a missing binary fails it). */
const missing = (bin: string) =>
  existsSync(bin) || process.env.ARUS_REQUIRE_PROMETHEUS
    ? false
    : `${bin} is not installed (bash scripts/setup-monitoring.sh installs it; .ci/run does)`;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("a real Prometheus", () => {
  it("promtool check rules accepts the example alerting rules", { skip: missing(PROMTOOL) }, () => {
    const out = execFileSync(PROMTOOL, ["check", "rules", RULES], { encoding: "utf8" });
    assert.match(out, /SUCCESS: \d+ rules found/);
  });

  it("scrapes /metrics and answers a query for the series", { skip: missing(PROMETHEUS), timeout: 120_000 }, async () => {
    const session = Session.builder().appName("prometheus-scrape").config("spark.ui.enabled", "false").getOrCreate();
    const dir = mkdtempSync(path.join(tmpdir(), "arus-prometheus-"));
    let prom: ChildProcess | null = null;
    try {
      const ms = session.memoryStream("v INT");
      const q = await ms.toDF().writeStream.format("memory").queryName("prom_scraped").start();
      ms.addData([{ v: 1 }, { v: 2 }, { v: 3 }]);
      await q.processAllAvailable();
      const target = new URL(await startDashboard(session, { port: 0 })).host;
      const port = await freePort();
      writeFileSync(
        path.join(dir, "prometheus.yml"),
        [
          "global: { scrape_interval: 1s, evaluation_interval: 1s }",
          `rule_files: [${JSON.stringify(RULES)}]`,
          "scrape_configs:",
          "  - job_name: arus",
          `    static_configs: [{ targets: [${JSON.stringify(target)}] }]`,
          "",
        ].join("\n"),
      );
      prom = spawn(
        PROMETHEUS,
        [
          `--config.file=${path.join(dir, "prometheus.yml")}`,
          `--storage.tsdb.path=${path.join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
          "--log.level=warn",
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      let stderr = "";
      prom.stderr!.on("data", (b) => (stderr += b));
      const query = encodeURIComponent('arus_streaming_input_rows_total{query_name="prom_scraped"}');
      let result: { value: [number, string]; metric: Record<string, string> }[] = [];
      // Poll (bounded: 120 tries, 0.5 s apart) until a scrape has landed.
      for (let i = 0; i < 120 && result.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 500));
        if (prom.exitCode !== null) assert.fail(`prometheus exited ${prom.exitCode}: ${stderr}`);
        const r = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${query}`).catch(() => null);
        if (!r?.ok) continue;
        result = ((await r.json()) as { data: { result: typeof result } }).data.result;
      }
      assert.equal(result.length, 1, `no series scraped; prometheus said: ${stderr}`);
      assert.equal(result[0]!.value[1], "3");
      assert.equal(result[0]!.metric.query_id, q.id);
      assert.equal(result[0]!.metric.job, "arus");
      const up = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent('up{job="arus"}')}`);
      assert.equal(((await up.json()) as { data: { result: { value: [number, string] }[] } }).data.result[0]?.value[1], "1");
      await q.stop();
    } finally {
      if (prom && prom.exitCode === null) {
        const exited = new Promise((r) => prom!.once("exit", r));
        prom.kill("SIGTERM");
        await exited;
      }
      await session.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
