/**
 * The dashboard's HTTP server (node:http): read-only (GET and HEAD only), bound to 127.0.0.1
 * unless told otherwise, refusing foreign Host headers while on loopback (DNS rebinding), and
 * never keeping the process alive (the server and every socket are unref'd). Routes:
 *   /                      the page (dashboard-page.ts); the client renders every view
 *   /static/*              the client script, styles and uPlot, served from the package
 *   /metrics               Prometheus text format
 *   /api/queries           every query: id, runId, name, status, isActive, recentProgress, ...
 *   /api/queries/<runId>   one query: summary, progress history, alerts, explainWatermark()
 *   /api/queries/<runId>/progress/<batchId>   one progress entry as JSON
 *   /api/environment       the session conf, redacted (spark.redaction.regex)
 *   /api/events            Server-Sent Events: query, progress, alert
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { IllegalArgumentException } from "../common/errors.js";
import { logInfo, logWarning } from "../common/log.js";
import { CLIENT_CSS, CLIENT_JS, PAGE_HTML } from "./dashboard-page.js";
import type { MonitorEvent, SessionMonitor } from "./monitor.js";
import { redactEntries, redactionPattern } from "./redact.js";

export interface DashboardOptions {
  /** 0 picks a free port. Default 4040 (`spark.ui.port`). */
  port?: number;
  /** Default 127.0.0.1 (`spark.ui.host`). */
  host?: string;
  /** How many ports after `port` to try when it is busy (Spark's spark.port.maxRetries, 16). */
  maxRetries?: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** A checked port number from a conf value, or a message that says what is wrong. */
export function parsePort(value: string | number, key = "spark.ui.port"): number {
  const n = Number(value);
  if (String(value).trim() === "" || !Number.isInteger(n) || n < 0 || n > 65535) {
    throw new IllegalArgumentException(`${key} must be a port number between 0 and 65535 (0 = any free port), got '${value}'.`);
  }
  return n;
}

let uplotFiles: { js: string; css: string } | null = null;
function uplot(): { js: string; css: string } {
  if (!uplotFiles) {
    const req = createRequire(import.meta.url);
    uplotFiles = {
      js: readFileSync(req.resolve("uplot/dist/uPlot.iife.min.js"), "utf8"),
      css: readFileSync(req.resolve("uplot/dist/uPlot.min.css"), "utf8"),
    };
  }
  return uplotFiles;
}

export class Dashboard {
  private server: Server | null = null;
  private readonly streams = new Set<ServerResponse>();
  url: string | null = null;
  /** The URL once listening, null if it could not start. */
  ready: Promise<string | null> = Promise.resolve(null);

  constructor(private readonly monitor: SessionMonitor) {}

  /** Listen on `port`, or the next free one up to maxRetries; resolves with the URL. */
  start(opts: DashboardOptions = {}): Promise<string> {
    const p = this.listen(opts);
    this.ready = p.catch(() => null);
    return p;
  }

  private async listen(opts: DashboardOptions): Promise<string> {
    const host = opts.host ?? "127.0.0.1";
    const first = parsePort(opts.port ?? 4040);
    const retries = first === 0 ? 0 : (opts.maxRetries ?? 16);
    let lastError: Error | null = null;
    for (let i = 0; i <= retries && first + i <= 65535; i++) {
      const port = first + i;
      const server = createServer((req, res) => this.handle(req, res, host));
      server.on("connection", (s) => s.unref());
      try {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(port, host, () => {
            server.off("error", reject);
            resolve();
          });
        });
      } catch (e) {
        lastError = e as Error;
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EADDRINUSE") {
          logInfo("SparkUI", `Service 'SparkUI' could not bind on port ${port}. Attempting port ${port + 1}.`);
          continue;
        }
        throw new Error(`The dashboard could not listen on ${host}:${port}: ${(e as Error).message}`);
      }
      server.unref();
      if (this.stopped) {
        // stop() came while the port was being bound: close what was just opened.
        await new Promise<void>((r) => server.close(() => r()));
        throw new Error("The dashboard was stopped before it started listening");
      }
      server.on("error", (e) => logWarning("SparkUI", `dashboard server error: ${e.message}`));
      this.server = server;
      const addr = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      this.url = `http://${shown}:${addr.port}`;
      logInfo("SparkUI", `Bound SparkUI to ${host}, and started at ${this.url}`);
      this.unsubscribe = this.monitor.subscribe((e) => this.broadcast(e));
      return this.url;
    }
    throw new Error(
      `The dashboard found no free port in ${first}-${first + retries} on ${host} (${lastError?.message ?? "busy"}); set spark.ui.port to a free port, 0 for any, or spark.ui.enabled=false.`,
    );
  }

  private unsubscribe: (() => void) | null = null;

  private stopped = false;

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const r of this.streams) r.end();
    this.streams.clear();
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }

  private broadcast(e: MonitorEvent): void {
    if (this.streams.size === 0) return;
    let chunk: string;
    try {
      chunk = `event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
    } catch (err) {
      // One event that cannot be sent must not end live updates (the monitor drops a throwing subscriber).
      logWarning("SparkUI", `dashboard event ${e.type} not sent: ${(err as Error).message}`);
      return;
    }
    for (const r of this.streams) {
      try {
        r.write(chunk);
      } catch {
        this.streams.delete(r);
      }
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse, boundHost: string): void {
    try {
      this.route(req, res, boundHost);
    } catch (e) {
      if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", `dashboard error: ${(e as Error).message}\n`);
      else res.end();
    }
  }

  private route(req: IncomingMessage, res: ServerResponse, boundHost: string): true {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return send(res, 405, "text/plain; charset=utf-8", "The dashboard is read-only.\n");
    }
    if (LOOPBACK.has(boundHost)) {
      const hostname = (req.headers.host ?? "").replace(/:\d+$/, "");
      if (!LOOPBACK.has(hostname)) return send(res, 403, "text/plain; charset=utf-8", "Unexpected Host header.\n");
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const m = this.monitor;
    const json = (body: unknown) => send(res, 200, "application/json; charset=utf-8", JSON.stringify(body));
    const notFound = () => send(res, 404, "text/plain; charset=utf-8", "Not found.\n");
    if (parts.length === 0 || (parts[0] === "query" && parts.length === 2)) return send(res, 200, "text/html; charset=utf-8", PAGE_HTML);
    if (parts[0] === "static" && parts.length === 2) {
      const files: Record<string, [string, () => string]> = {
        "app.js": ["text/javascript; charset=utf-8", () => CLIENT_JS],
        "app.css": ["text/css; charset=utf-8", () => CLIENT_CSS],
        "uPlot.iife.min.js": ["text/javascript; charset=utf-8", () => uplot().js],
        "uPlot.min.css": ["text/css; charset=utf-8", () => uplot().css],
      };
      const f = files[parts[1]!];
      return f ? send(res, 200, f[0], f[1](), "public, max-age=3600") : notFound();
    }
    if (parts[0] === "metrics" && parts.length === 1) {
      void m.prometheusText().then(
        (text) => send(res, 200, m.metrics.registry.contentType, text),
        (e: Error) => send(res, 500, "text/plain; charset=utf-8", `metrics failed: ${e.message}\n`),
      );
      return true;
    }
    if (parts[0] !== "api") return notFound();
    if (parts[1] === "queries" && parts.length === 2)
      return json(m.summaries().map((s) => ({ ...s, recentProgress: m.recentProgress(s.runId) })));
    if (parts[1] === "queries" && parts.length >= 3) {
      const rec = m.record(parts[2]!);
      if (!rec) return notFound();
      if (parts.length === 3) {
        return json({
          summary: m.summary(rec),
          progress: m.history(parts[2]!),
          alerts: m.activeAlerts(parts[2]!),
          alertLog: m.alertLog(parts[2]!),
          watermark: m.watermark(parts[2]!),
        });
      }
      if (parts[3] === "progress" && parts.length === 5) {
        const p = m.history(parts[2]!).find((x) => String(x.batchId) === parts[4]);
        return p ? send(res, 200, "application/json; charset=utf-8", JSON.stringify(p, null, 2)) : notFound();
      }
      return notFound();
    }
    if (parts[1] === "alerts" && parts.length === 2) {
      m.checkStalled();
      return json(m.activeAlerts());
    }
    if (parts[1] === "environment" && parts.length === 2) {
      const conf = m.session.conf;
      return json(redactEntries(conf.all(), redactionPattern(conf.getOption("spark.redaction.regex"))));
    }
    if (parts[1] === "events" && parts.length === 2) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-content-type-options": "nosniff" });
      res.write("retry: 2000\n\n");
      this.streams.add(res);
      req.on("close", () => this.streams.delete(res));
      return true;
    }
    return notFound();
  }
}

/** Writes the whole response; `true` marks a request as handled. */
function send(res: ServerResponse, status: number, type: string, body: string, cache = "no-store"): true {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": cache,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    // Scripts and styles only from this server: an injected inline script could not run.
    "content-security-policy":
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
  });
  res.end(res.req.method === "HEAD" ? undefined : body);
  return true;
}
