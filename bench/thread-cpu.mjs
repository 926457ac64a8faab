/**
 * Per-thread CPU seconds of a whole benchmark process, printed to stderr when it exits:
 * the main thread, every other thread (decode / state threads, V8's GC and compiler helpers,
 * libuv's pool: all named "node"), and the process. A thread that ended before the exit is in
 * `process` only. Unlike a run's `cpuS`, which counts whatever ran during that run (files read
 * ahead, the previous query's deferred writes), these totals leave nothing out.
 *
 *   node --import ./bench/thread-cpu.mjs --import tsx bench/arus/run.ts --data ... --no-checksum 2>&1 >/dev/null | grep THREADS
 *
 * With THREAD_CPU_EACH=1 it also prints every thread alive at the exit in the order they were
 * made (`THREADS-EACH`, by thread id): the four right after main are V8's platform workers
 * (its concurrent TurboFan compiles and GC helpers; `--v8-pool-size`), made before any script
 * runs; the decode, state and libuv threads come later, as they are started.
 */
import { readdirSync, readFileSync } from "node:fs";

/** utime + stime of a /proc stat line, in seconds (clock ticks of 1/100 s). */
function cpuOf(stat) {
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

process.on("exit", () => {
  const by = {};
  const each = [];
  for (const t of readdirSync("/proc/self/task")) {
    try {
      const s = readFileSync(`/proc/self/task/${t}/stat`, "utf8");
      const name = t === String(process.pid) ? "main" : s.slice(s.indexOf("(") + 1, s.lastIndexOf(")"));
      by[name] = (by[name] ?? 0) + cpuOf(s);
      each.push([Number(t), cpuOf(s)]);
    } catch {
      // the thread ended meanwhile
    }
  }
  by.process = cpuOf(readFileSync("/proc/self/stat", "utf8"));
  const rounded = Object.fromEntries(Object.entries(by).map(([k, v]) => [k, Math.round(v * 100) / 100]));
  process.stderr.write(`THREADS ${JSON.stringify(rounded)}\n`);
  if (process.env.THREAD_CPU_EACH === "1") {
    const list = each.sort((a, b) => a[0] - b[0]).map(([t, cpu]) => `${t === process.pid ? "main" : t - process.pid}:${cpu.toFixed(2)}`);
    process.stderr.write(`THREADS-EACH ${list.join(" ")}\n`);
  }
});
