// Preloaded by scripts/run-tests.mjs into every test file's process. Once the file's last test
// has finished, a process that is still alive after a grace period (ARUS_TEST_EXIT_GRACE_MS,
// default 60 s) is kept alive by something a test left open: this prints what (the handle kinds,
// and the sockets' peers and child processes' commands) and exits with code 1, so the file fails
// and names the culprit instead of hanging the whole run. Its verdicts were all reported by then.
//
// The grace starts before the file's own top-level after() hooks run (node runs them in the
// order they were registered, and this one comes first), so it must cover them too: stopping
// a private Kafka broker (scripts/kafka.sh stop: up to 15 s) or worker processes.
//
// Only in the test file's own main thread: node's runner marks its processes with
// NODE_TEST_CONTEXT, which processes a test spawns inherit, and worker threads see the preload too.
import { isMainThread } from "node:worker_threads";

const entry = process.argv[1] ?? "";
if (isMainThread && process.env.NODE_TEST_CONTEXT && /\.test\.[cm]?[jt]s$/.test(entry)) {
  const graceMs = Number(process.env.ARUS_TEST_EXIT_GRACE_MS ?? 60_000);
  const timers = traceTimers();
  const { after } = await import("node:test");
  after(() => {
    const timer = setTimeout(() => {
      process.stderr.write(
        `\n${entry}: every test finished ${graceMs} ms ago but the process is still alive; open: ` +
          `${JSON.stringify(process.getActiveResourcesInfo())}\n${describeHandles()}${timers()}`,
      );
      process.exit(1);
    }, graceMs);
    timer.unref(); // the guard itself must not keep the process alive
  });
}

/**
 * Where the timers still keeping the process alive were set: setTimeout / setInterval (global,
 * as the engine and kafkajs call them) record a short stack while pending, so a "Timeout" in
 * the list above comes with the code that armed it.
 */
function traceTimers() {
  const live = new Map();
  const wrap = (set) => {
    const wrapped = function (fn, ms, ...args) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 8;
      const site = new Error().stack;
      Error.stackTraceLimit = limit;
      const t = set(
        typeof fn === "function"
          ? function (...a) {
              if (set === setTimeoutOf) live.delete(t);
              return fn.apply(this, a);
            }
          : fn,
        ms,
        ...args,
      );
      live.set(t, { ms, site });
      return t;
    };
    // util.promisify(setTimeout) keeps working (it reads this symbol)
    for (const k of Object.getOwnPropertySymbols(set)) wrapped[k] = set[k];
    return wrapped;
  };
  const unwrap = (clear) =>
    function (t) {
      live.delete(t);
      return clear(t);
    };
  const setTimeoutOf = globalThis.setTimeout;
  globalThis.setTimeout = wrap(setTimeoutOf);
  globalThis.setInterval = wrap(globalThis.setInterval);
  globalThis.clearTimeout = unwrap(globalThis.clearTimeout);
  globalThis.clearInterval = unwrap(globalThis.clearInterval);
  return () =>
    [...live]
      .filter(([t]) => t?.hasRef?.() !== false)
      .slice(0, 5)
      .map(([, v]) => `  timer (${v.ms} ms) set at:\n${v.site.split("\n").slice(2).join("\n")}\n`)
      .join("");
}

/** One line per open handle node can name (undocumented API, so best effort). */
function describeHandles() {
  const handles = typeof process._getActiveHandles === "function" ? process._getActiveHandles() : [];
  return handles
    .map((h) => {
      const kind = h?.constructor?.name ?? typeof h;
      if (h === process.stdout || h === process.stderr || h === process.stdin) return null;
      if (kind === "Socket" && h.remoteAddress) return `  socket to ${h.remoteAddress}:${h.remotePort}`;
      if (kind === "ChildProcess") return `  child process ${h.pid}: ${(h.spawnargs ?? []).join(" ")}`;
      if (kind === "Server") return `  server ${JSON.stringify(h.address?.())}`;
      return `  ${kind}`;
    })
    .filter((line) => line !== null)
    .join("\n")
    .concat("\n");
}
