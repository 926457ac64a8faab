/**
 * The dashboard's server without a browser: started with the session (spark.ui.enabled, Spark's
 * default) on spark.ui.port or the next free port, loopback only, read-only, redacted, clear
 * messages for a bad or busy port, live events, and it never keeps a process alive.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { after, describe, it } from "node:test";
import { setLogWriter } from "../../src/common/log.js";
import { dashboardUrl, Session, startDashboard } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const root = path.resolve(import.meta.dirname, "../..");
const tempDir = tempDirs("arus-ui-exit-");

async function occupy(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as { port: number }).port };
}

/** A new session each time (getOrCreate would hand back the active one). */
function fresh(conf: Record<string, string>): Session {
  return new Session({ "spark.app.name": "dashboard-server", ...conf });
}

describe("dashboard server", () => {
  const sessions: Session[] = [];
  after(async () => {
    for (const s of sessions) await s.stop();
  });

  it("takes the next port when spark.ui.port is busy, binds 127.0.0.1, and logs the URL once at INFO", async () => {
    const busy = await occupy();
    const lines: string[] = [];
    const prev = setLogWriter((l) => lines.push(l));
    const { setLogLevel } = await import("../../src/common/log.js");
    setLogLevel("INFO");
    try {
      const s = fresh({ "spark.ui.port": String(busy.port) });
      sessions.push(s);
      const url = await dashboardUrl(s);
      assert.ok(url, "the dashboard started");
      const u = new URL(url);
      assert.equal(u.hostname, "127.0.0.1");
      assert.ok(Number(u.port) > busy.port && Number(u.port) <= busy.port + 16, `port ${u.port} after busy ${busy.port}`);
      assert.equal(s.sparkContext.uiWebUrl, url);
      assert.equal(lines.filter((l) => l.includes("started at")).length, 1);
      assert.ok(
        lines.some((l) => l === `INFO SparkUI: Bound SparkUI to 127.0.0.1, and started at ${url}\n`),
        lines.join(""),
      );
    } finally {
      setLogLevel("WARN");
      setLogWriter(prev);
      busy.server.close();
    }
  });

  it("refuses an invalid port with a clear message; no free port is a warning, not an error", async () => {
    assert.throws(
      () => fresh({ "spark.ui.port": "40400000" }),
      /spark\.ui\.port must be a port number between 0 and 65535 \(0 = any free port\), got '40400000'/,
    );
    assert.throws(() => fresh({ "spark.ui.port": "http" }), /spark\.ui\.port must be a port number/);
    const busy = await occupy();
    const lines: string[] = [];
    const prev = setLogWriter((l) => lines.push(l));
    try {
      const s = fresh({ "spark.ui.port": String(busy.port), "spark.port.maxRetries": "0" });
      sessions.push(s);
      assert.equal(await dashboardUrl(s), null);
      assert.match(
        lines.join(""),
        new RegExp(
          `WARN SparkUI: The dashboard found no free port in ${busy.port}-${busy.port} on 127\\.0\\.0\\.1 .*The queries run without it\\.`,
        ),
      );
      // and a query runs anyway
      const ms = s.memoryStream("v INT");
      const q = await ms.toDF().writeStream.format("memory").queryName("no_ui").start();
      ms.addData([{ v: 1 }]);
      await q.processAllAvailable();
      assert.equal(q.lastProgress?.numInputRows, 1);
      await q.stop();
    } finally {
      setLogWriter(prev);
      busy.server.close();
    }
  });

  it("is read-only, refuses foreign Host headers, redacts secrets, and streams events", async () => {
    const s = fresh({
      "spark.ui.port": "0",
      "spark.sql.shuffle.partitions": "2",
      "kafka.sasl.jaas.config": 'org.apache.kafka.common.security.plain.PlainLoginModule required password="hunter2";',
      "my.db.password": "hunter2",
      "my.plain.setting": "visible",
    });
    sessions.push(s);
    const url = (await dashboardUrl(s))!;
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await fetch(`${url}/api/queries`, { method });
      assert.equal(r.status, 405, method);
    }
    const port = new URL(url).port;
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/api/queries", headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(status, 403);
    const env = (await (await fetch(`${url}/api/environment`)).json()) as Record<string, string>;
    assert.equal(env["kafka.sasl.jaas.config"], "*********(redacted)");
    assert.equal(env["my.db.password"], "*********(redacted)");
    assert.equal(env["my.plain.setting"], "visible");
    assert.ok(!JSON.stringify(env).includes("hunter2"));

    // Server-Sent Events: a started query and its progress arrive on /api/events
    const ctl = new AbortController();
    const res = await fetch(`${url}/api/events`, { signal: ctl.signal });
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const reader = res.body!.getReader();
    const ms = s.memoryStream("v INT");
    const q = await ms.toDF().writeStream.format("memory").queryName("sse_q").start();
    ms.addData([{ v: 1 }, { v: 2 }]);
    await q.processAllAvailable();
    let text = "";
    const dec = new TextDecoder();
    while (!text.includes("event: progress")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += dec.decode(value);
    }
    ctl.abort();
    assert.match(text, /event: query\ndata: \{[^\n]*"name":"sse_q"/);
    assert.match(text, /event: progress\ndata: \{[^\n]*"numInputRows":2/);
    const detail = (await (await fetch(`${url}/api/queries/${q.runId}`)).json()) as {
      progress: { batchId: number }[];
      watermark: { text: string };
    };
    assert.deepEqual(
      detail.progress.map((p) => p.batchId),
      q.recentProgress.map((p) => p.batchId),
    );
    assert.match(detail.watermark.text, /^Watermark: /);
    const one = await fetch(`${url}/api/queries/${q.runId}/progress/0`);
    assert.deepEqual(await one.json(), JSON.parse(JSON.stringify(q.recentProgress[0])));
    assert.equal((await fetch(`${url}/api/queries/nope`)).status, 404);
    // /api/queries: each query's id, runId, name, status, isActive and recentProgress
    const list = (await (await fetch(`${url}/api/queries`)).json()) as Record<string, unknown>[];
    const entry = list.find((e) => e.runId === q.runId)!;
    assert.equal(entry.id, q.id);
    assert.equal(entry.name, "sse_q");
    assert.equal(entry.isActive, true);
    assert.deepEqual(entry.status, q.status);
    assert.deepEqual(entry.recentProgress, JSON.parse(JSON.stringify(q.recentProgress)));
    await q.stop();
    const ended = ((await (await fetch(`${url}/api/queries`)).json()) as Record<string, unknown>[]).find((e) => e.runId === q.runId)!;
    assert.equal(ended.isActive, false);
    assert.deepEqual(ended.status, { message: "Stopped", isDataAvailable: false, isTriggerActive: false });
  });

  it("a session stopped while its dashboard is still binding leaves no server listening", async () => {
    const s = fresh({ "spark.ui.enabled": "false" });
    const { port } = await occupy().then(async (o) => {
      await new Promise<void>((r) => o.server.close(() => r()));
      return o;
    });
    const starting = startDashboard(s, { port }).catch((e: Error) => e);
    await s.stop();
    const outcome = await starting;
    assert.ok(outcome instanceof Error, "the start is refused once the session stopped");
    assert.equal(s.sparkContext.uiWebUrl, null);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/queries`));
  });

  it("a broken dashboard subscriber never stops a query", async () => {
    const s = fresh({ "spark.ui.port": "0" });
    sessions.push(s);
    const url = (await dashboardUrl(s))!;
    // An events client that goes away mid-stream
    const ctl = new AbortController();
    await fetch(`${url}/api/events`, { signal: ctl.signal });
    ctl.abort();
    const ms = s.memoryStream("v INT");
    const q = await ms.toDF().writeStream.format("memory").queryName("survivor").start();
    for (let i = 0; i < 5; i++) {
      ms.addData([{ v: i }]);
      await q.processAllAvailable();
    }
    assert.equal(q.isActive, true);
    assert.equal(q.exception, null);
    await q.stop();
  });

  it("never keeps the process alive: a script with the default spark.ui.enabled ends by itself", async () => {
    const dir = await tempDir();
    const script = path.join(dir, "script.mts");
    writeFileSync(
      script,
      [
        `import { Session, dashboardUrl } from ${JSON.stringify(path.join(root, "src/index.ts"))};`,
        `const s = Session.builder().config("spark.ui.port", "0").getOrCreate();`,
        `const url = await dashboardUrl(s);`,
        `const ms = s.memoryStream("v INT");`,
        `const q = await ms.toDF().writeStream.format("memory").queryName("exits").trigger({ availableNow: true }).start();`,
        `ms.addData([{ v: 1 }]);`,
        `await q.awaitTermination();`,
        `console.log("ended", url !== null);`,
        "",
      ].join("\n"),
    );
    // No session.stop(): the script still ends (execFileSync returns). (A client in the same
    // process would hold its own socket; a browser is another process.)
    const out = execFileSync(process.execPath, ["--import", "tsx", script], { cwd: root, encoding: "utf8", timeout: 60_000 });
    assert.equal(out.trim(), "ended true");
  });
});
