/**
 * The monitoring layer (docs/monitoring.md): a SessionMonitor for every session (alerts,
 * Prometheus metrics, bounded history) and, when `spark.ui.enabled` is true (Spark's default),
 * the dashboard on `spark.ui.port`. Loaded by the package entry point, which registers it with
 * the sessions (api/ sits below this layer and cannot import it).
 */
import type { Registry } from "prom-client";
import { type Session, sessionServiceFactories } from "../api/session.js";
import { logWarning } from "../common/log.js";
import type { ActiveAlert } from "./alerts.js";
import { SessionMonitor } from "./monitor.js";
import { Dashboard, type DashboardOptions, parsePort } from "./server.js";

export { ALERT_DEFAULTS, ALERT_RULES, type AlertRuleName } from "./alert-config.js";
export type { DashboardOptions } from "./server.js";

interface Attached {
  monitor: SessionMonitor;
  dashboard: Dashboard | null;
}
const bySession = new WeakMap<Session, Attached>();

function enabled(session: Session, key: string): boolean {
  return (session.conf.getOption(key) ?? "true").trim().toLowerCase() !== "false";
}

/** The session's monitor, created (and stopped with the session) on first use. */
function attach(session: Session): Attached {
  const a = bySession.get(session);
  if (a) return a;
  const monitor = new SessionMonitor(session);
  monitor.attach();
  const made: Attached = { monitor, dashboard: null };
  bySession.set(session, made);
  session.services.push({
    async stop() {
      const d = made.dashboard;
      made.dashboard = null;
      session.sparkContext.uiUrl = null;
      monitor.detach();
      bySession.delete(session);
      await d?.stop();
    },
  });
  return made;
}

sessionServiceFactories.push((session) => {
  if (!enabled(session, "arus.monitoring.enabled")) return null;
  if (!enabled(session, "spark.ui.enabled")) {
    attach(session);
    return null;
  }
  // A bad port is the user's mistake: say so now. A busy machine is not: warn, run without UI.
  const port = parsePort(session.conf.getOption("spark.ui.port") ?? "4040");
  const retries = parsePort(session.conf.getOption("spark.port.maxRetries") ?? "16", "spark.port.maxRetries");
  const host = session.conf.getOption("spark.ui.host") ?? "127.0.0.1";
  const a = attach(session);
  const d = new Dashboard(a.monitor);
  a.dashboard = d;
  d.start({ port, host, maxRetries: retries }).then(
    (url) => {
      if (a.dashboard === d) session.sparkContext.uiUrl = url;
      else void d.stop();
    },
    (e: Error) => {
      if (a.dashboard === d) a.dashboard = null;
      logWarning("SparkUI", `${e.message} The queries run without it.`);
    },
  );
  return null;
});

function monitorOf(session: Session): SessionMonitor {
  return attach(session).monitor;
}

/** The Prometheus text exposition of the session's streaming queries (serve it from your own server). */
export function prometheusMetrics(session: Session): Promise<string> {
  return monitorOf(session).prometheusText();
}

/** The Content-Type header that goes with prometheusMetrics(). */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** The session's prom-client Registry (merge it into yours with prom-client's Registry.merge). */
export function prometheusRegistry(session: Session): Registry {
  return monitorOf(session).metrics.registry;
}

/** The alerts firing now on the session's queries. */
export function activeAlerts(session: Session): (ActiveAlert & { runId: string; name: string | null })[] {
  const m = monitorOf(session);
  m.checkStalled();
  return m.activeAlerts();
}

/**
 * Start the dashboard by hand (when `spark.ui.enabled` is false, or to pick the port in code);
 * resolves with its URL once it listens. It stops with the session.
 */
export async function startDashboard(session: Session, options: DashboardOptions = {}): Promise<string> {
  const a = attach(session);
  if (a.dashboard?.url) return a.dashboard.url;
  const d = new Dashboard(a.monitor);
  a.dashboard = d;
  try {
    const url = await d.start(options);
    if (a.dashboard === d) session.sparkContext.uiUrl = url;
    return url;
  } catch (e) {
    if (a.dashboard === d) a.dashboard = null;
    throw e;
  }
}

/** Resolves with the dashboard's URL once it listens (null when there is none). */
export async function dashboardUrl(session: Session): Promise<string | null> {
  const d = bySession.get(session)?.dashboard;
  if (!d) return null;
  return d.ready;
}
