/**
 * Helpers shared by the examples: run a query for N seconds of real time (like PySpark's
 * `q.awaitTermination(N)`) or, when a ManualClock is given, of manual time — the clock is
 * stepped forward and the query is allowed to finish every trigger before the next step, so
 * a 48-second demo runs in well under a second with exactly the same batches.
 */
import { resolve } from "node:path";
import type { Session, StreamingQuery } from "../../src/index.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { runFor as runForOnClock } from "../../src/testing/run-for.js";

export { ManualClock };

/** Where an example writes its own lines (the console sink always writes to process.stdout). */
export interface Out {
  write(text: string): unknown;
}

/** Options every example accepts. */
export interface ExampleOptions {
  /** Drive triggers (and the rate source's timestamps) with this clock; default: real time. */
  clock?: ManualClock;
  /** Where the example's own messages go; default process.stdout. */
  out?: Out;
  /** spark.sql.session.timeZone; default: the process time zone, as in Spark. */
  timeZone?: string;
}

export function printer(out: Out = process.stdout): (line?: string) => void {
  return (line = "") => {
    out.write(`${line}\n`);
  };
}

/** True when `import.meta.url` of the caller is the script node was started with. */
export function isMain(metaFilename: string): boolean {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(metaFilename);
}

/** Configure a session builder the way the seed scripts do (local[1], 2 shuffle partitions). */
export function seedSession(S: typeof Session, appName: string, timeZone?: string): Session {
  let b = S.builder().appName(appName).master("local[1]").config("spark.sql.shuffle.partitions", "2");
  if (timeZone) b = b.config("spark.sql.session.timeZone", timeZone);
  return b.getOrCreate();
}

/**
 * `q.awaitTermination(seconds)` with a real clock; with a ManualClock, `runFor` from the test
 * kit steps the clock forward `seconds` (letting every due trigger run) instead. Resolves true
 * if the query ended.
 */
export async function runFor(q: StreamingQuery, seconds: number, clock?: ManualClock): Promise<boolean> {
  if (!clock) return q.awaitTermination(seconds);
  return runForOnClock(q, clock, seconds);
}

/**
 * Options for running an example from the command line: real time by default; with `--fast`,
 * a ManualClock starting at `fastStartMs` (the seed-like start the tests use) and UTC output.
 */
export function cliOptions(fastStartMs: number, argv: readonly string[] = process.argv.slice(2)): ExampleOptions {
  return argv.includes("--fast") ? { clock: new ManualClock(fastStartMs), timeZone: "UTC" } : {};
}
