/**
 * Process figures for the benchmarks, read the same way for every engine: CPU seconds
 * (user + system, all threads) and peak RSS from /proc. The peak is reset before a query by
 * writing "5" to /proc/<pid>/clear_refs (Linux >= 4.0), so VmHWM afterwards is that query's
 * peak (plus whatever the process already held).
 */
import { readFileSync, writeFileSync } from "node:fs";

export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * CPU seconds (user + system) of this process's main thread alone, from
 * /proc/self/task/<pid>/stat (the main thread's id is the process id; clock ticks of 10 ms), or
 * null when /proc is not there. What the main thread costs beside the worker threads.
 */
export function mainThreadCpuSeconds(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

export function resetPeakRss(pid: number | "self" = "self"): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Peak resident set size in bytes (VmHWM), or the current RSS when /proc is not there. */
export function peakRssBytes(pid: number | "self" = "self"): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage().rss;
}

/** `uptime`'s load averages, for the figures' context. */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
}

/** Milliseconds for the state benchmarks: wall time, or process CPU time (user + system, all threads). */
export function benchClock(kind: "wall" | "cpu"): () => number {
  if (kind === "wall") return () => performance.now();
  return () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
}

export function describeClock(kind: "wall" | "cpu"): string {
  return `clock: ${kind === "cpu" ? "process CPU time (user + system, all threads)" : "wall"}`;
}
