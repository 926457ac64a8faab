/**
 * A per-batch timeline of the Kafka benchmark's engine process: every fdatasync (sync and on the
 * thread pool), checkpoint file write and unlink, every kafkajs request and every garbage
 * collection, with its start and duration, written to $ARUS_TRACE when the engine exits. Loaded into the engine child only:
 *
 *   ARUS_TRACE=/tmp/trace.txt NODE_OPTIONS="--import $PWD/bench/kafka/trace.mjs" \
 *     node --import tsx bench/kafka.ts --engines arus --no-results-md --engine src --events 20000
 *   node --import tsx bench/kafka/trace-report.ts /tmp/trace.txt [batch]
 *
 * A request's duration includes the time its response waited for the event loop (a blocking
 * fdatasync on the main thread delays every answer that arrives meanwhile).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { constants, PerformanceObserver } from "node:perf_hooks";

if (process.argv.some((a) => a.endsWith("arus-engine.ts")) && process.env.ARUS_TRACE) {
  // The first line maps this process's clock to epoch ms (bench/kafka/latency-breakdown.ts joins it with the benchmark's).
  const out = [`0 0 origin ${performance.timeOrigin}`];
  const now = () => performance.now();
  const fdPath = new Map();
  const short = (p) =>
    String(p ?? "?")
      .replace(/.*arus-kafka-[a-z]+-[^/]+\//, "")
      .replace(/\.[0-9a-f-]{36}\.tmp$/, "")
      .replace(/\/\./, "/");
  const log = (t, what, name) => out.push(`${t.toFixed(2)} ${(now() - t).toFixed(2)} ${what} ${name}`);
  const open = fs.openSync;
  fs.openSync = function (p, ...r) {
    const fd = open.call(this, p, ...r);
    fdPath.set(fd, String(p));
    return fd;
  };
  const fsyncSync = fs.fdatasyncSync;
  fs.fdatasyncSync = function (fd) {
    const t = now();
    try {
      return fsyncSync.call(this, fd);
    } finally {
      log(t, "fsync", short(fdPath.get(fd)));
    }
  };
  const fsync = fs.fdatasync;
  fs.fdatasync = function (fd, cb) {
    const t = now();
    const name = short(fdPath.get(fd));
    return fsync.call(this, fd, (e) => {
      log(t, "fsync-pool", name);
      cb(e);
    });
  };
  const dirSync = fs.fsync;
  fs.fsync = function (fd, cb) {
    const t = now();
    const name = short(fdPath.get(fd));
    return dirSync.call(this, fd, (e) => {
      log(t, "fsync-pool", name);
      cb(e);
    });
  };
  for (const [k, what] of [
    ["unlinkSync", "unlink"],
    ["writeFileSync", "write"],
  ]) {
    const real = fs[k];
    fs[k] = function (p, ...r) {
      const t = now();
      try {
        return real.call(this, p, ...r);
      } finally {
        log(t, what, short(p));
      }
    };
  }
  const Connection = createRequire(`${process.cwd()}/package.json`)("kafkajs/src/network/connection.js");
  const send = Connection.prototype.send;
  Connection.prototype.send = async function (p) {
    const t = now();
    try {
      return await send.call(this, p);
    } finally {
      log(t, "kafka", p.request.apiName);
    }
  };
  // Garbage collections on the main thread, by kind (their pauses hold every callback).
  const gcKinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      out.push(`${e.startTime.toFixed(2)} ${e.duration.toFixed(2)} gc ${gcKinds[e.detail?.kind] ?? "other"}`);
  }).observe({ entryTypes: ["gc"] });
  const exit = process.exit;
  process.exit = (code) => {
    fs.writeFileSync(process.env.ARUS_TRACE, `${out.join("\n")}\n`);
    exit(code);
  };
}
