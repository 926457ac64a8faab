/**
 * Crash soak: the crash test's random SIGKILL cycles, many more of them, plus one round of
 * every named crash point, and the figures written into docs/reliability.md; then the Kafka
 * crash loop (test/recovery/kafka-crash-driver.ts: Kafka → Kafka with the exactly-once sink,
 * output read with read_committed) for as many kills, with its own figures.
 *
 *   npm run soak                          1 000 kills per sink, updates docs/reliability.md
 *   npm run soak -- --cycles 200 --seed 7 --no-write
 *   npm run soak -- --sinks kafka --cycles 20        the Kafka loop only
 *   npm run soak -- --scaleout [--mode group|single] [--events N] [--kills K]
 *                                                    the scale-out recipe, large (test/cluster/scaleout-soak.ts)
 *
 * Options: --cycles N (kills per sink, default 1000), --max-seconds S (Kafka loop: stop killing
 * after S seconds, then the last run and the check, and record the kills that fit), --seed S, --files N --rows N (workload per
 * episode, default 20 × 20), --sinks file,pg,kafka (default all three), --no-write (print
 * only), --keep (keep the work directory). PostgreSQL as in the tests: ARUS_PG_URL, else
 * scripts/start-postgres.sh; without it only the file sink is soaked (the figures say so). Kafka:
 * ARUS_KAFKA_BOOTSTRAP (scripts/kafka.sh start); without it the Kafka loop is skipped with a
 * message. The first failure stops the soak with exit code 1 and keeps the failing episode's
 * directory for inspection.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SinkKind } from "../test/recovery/crash-harness.js";
import { closePg, connectPg, CrashDriver, type EpisodeResult, randomKills, rng } from "../test/recovery/driver.js";
import { kafkaCrashLoop } from "../test/recovery/kafka-crash-driver.js";
import type { Workload } from "../test/recovery/workload.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);
if (flag("scaleout")) {
  const { scaleoutSoak } = await import("../test/cluster/scaleout-soak.js");
  process.exit(await scaleoutSoak(process.argv));
}
const sinksArg = process.argv.indexOf("--sinks");
const wanted = new Set((sinksArg > 0 ? process.argv[sinksArg + 1]! : "file,pg,kafka").split(",").map((x) => x.trim()));
for (const w of wanted) if (!["file", "pg", "kafka"].includes(w)) throw new Error(`--sinks: unknown sink ${w} (file, pg, kafka)`);

const cycles = arg("cycles", 1000);
const maxSeconds = arg("max-seconds", 0);
const seed = arg("seed", Date.now() % 1_000_000);
const workload: Workload = { files: arg("files", 20), rows: arg("rows", 20) };
const DOC = resolve(import.meta.dirname, "..", "docs", "reliability.md");
const BEGIN = "<!-- soak:begin -->";
const END = "<!-- soak:end -->";

if (!wanted.has("file") && !wanted.has("pg")) {
  await kafkaSoak();
  process.exit(0);
}
const pgConn = wanted.has("pg") ? await connectPg() : { skip: "not asked for (--sinks)" };
const pg = "skip" in pgConn ? null : pgConn;
if (!pg) console.error(`soak: PostgreSQL sink skipped: ${(pgConn as { skip: string }).skip}`);
const root = mkdtempSync(join(tmpdir(), "arus-soak-"));
const driver = new CrashDriver(root, workload, pg);
const sinks: SinkKind[] = driver.usable((["file", "pg"] as SinkKind[]).filter((k) => wanted.has(k)));
const t0 = performance.now();
const results: EpisodeResult[] = [];
let failure: string | null = null;
let pgVersion = "";

/**
 * Totals so far. Every episode compares each sink's output with the uninterrupted run's and
 * throws on a lost or duplicated row, so a total of finished episodes is itself evidence: a
 * soak stopped early (or killed) still says how many kills came out exact.
 */
function progress(): string {
  const random = results.filter((r) => r.name.startsWith("random-"));
  const k = random.reduce((n, r) => n + r.kills, 0);
  const runs = results.reduce((n, r) => n + r.runs, 0);
  const replays = results.reduce((n, r) => n + r.replays, 0);
  return (
    `${k}/${cycles} kills per sink (${sinks.join(" + ")}) in ${random.length} episodes, every one compared: 0 lost, 0 duplicated; ` +
    `${runs} child runs, ${replays} foreachBatch replays, ${((performance.now() - t0) / 1000).toFixed(0)} s`
  );
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.once(sig, () => {
    console.error(`soak: stopped by ${sig}, partial totals: ${progress()}`);
    process.exit(130);
  });
}

try {
  if (pg) pgVersion = String((await pg.client.query("SHOW server_version")).rows[0]!.server_version);
  const timings = await driver.reference(sinks);
  console.error(`soak: seed ${seed}, ${cycles} kills per sink (${sinks.join(" + ")}), work dir ${root}`);
  const killPlan = randomKills(rng(seed), timings);
  let kills = 0;
  let lastReport = 0;
  for (let i = 0; kills < cycles; i++) {
    const r = await driver.episode({ name: `random-${i}`, sinks, killPlan, deferred: "any" });
    results.push(r);
    kills += r.kills;
    if (kills - lastReport >= 50 || kills >= cycles) {
      lastReport = kills;
      console.error(`soak: ${progress()}`);
    }
  }
  const named = ["beforeOffsetLog:3", "afterOffsetLog:3", "beforeSink:3", "insideSink:3", "afterSink:3", "beforeCommitLog:3", "afterCommitLog:3", "insideStateSnapshot:9", "insideSink:9", `afterOffsetLog:${workload.files + 2}`, `afterSink:${workload.files + 2}`];
  for (const sink of sinks) for (const point of named) results.push(await driver.episode({ name: `${sink}-${point}`, sinks: [sink], crashPoint: point }));
} catch (e) {
  failure = e instanceof Error ? (e.stack ?? e.message) : String(e);
} finally {
  if (pg) await closePg(pg);
}

const seconds = (performance.now() - t0) / 1000;
function revision(): string {
  if (process.env.ARUS_SOAK_REV) return process.env.ARUS_SOAK_REV;
  try {
    const rev = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: import.meta.dirname, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src"], { cwd: import.meta.dirname, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    return dirty ? `${rev} + uncommitted src changes` : rev;
  } catch {
    return "unknown";
  }
}
const sum = (k: keyof EpisodeResult) => results.reduce((n, r) => n + (r[k] as number), 0);
const random = results.filter((r) => r.name.startsWith("random-"));
const rsum = (k: keyof EpisodeResult) => random.reduce((n, r) => n + (r[k] as number), 0);
const figures = {
  date: new Date().toISOString().slice(0, 10),
  engine: revision(),
  seed,
  node: process.version,
  cpus: cpus().length,
  postgres: pgVersion || "not run",
  sinks: sinks.join(" + "),
  workload: `${workload.files} files × ${workload.rows} rows per episode`,
  randomKillsPerSink: rsum("kills"),
  randomEpisodes: random.length,
  namedPointRuns: results.length - random.length,
  childRuns: sum("runs"),
  replayedBatches: sum("replays"),
  fencedReplays: sum("fencedReplays"),
  orphanFiles: sum("orphanFiles"),
  deferredWindows: sum("deferredWindows"),
  lostOrDuplicatedRows: failure ? "FAILED" : 0,
  seconds: Math.round(seconds),
};
console.log(JSON.stringify(figures, null, 1));

if (failure) {
  console.error(`soak: FAILED after ${rsum("kills")} kills:\n${failure}\nwork dir kept: ${root}`);
  process.exit(1);
}
if (!flag("keep")) rmSync(root, { recursive: true, force: true });

if (!flag("no-write")) {
  const table = [
    BEGIN,
    `Last soak: ${figures.date}, engine ${figures.engine}, \`npm run soak -- --cycles ${cycles} --seed ${seed}\`, Node ${figures.node}, ${figures.cpus} CPUs, PostgreSQL ${figures.postgres}.`,
    "",
    "| figure | value |",
    "|---|---|",
    `| sinks (one child runs both queries; every kill hits both) | ${figures.sinks} |`,
    `| workload | ${figures.workload} |`,
    `| random SIGKILLs per sink | ${figures.randomKillsPerSink} |`,
    `| episodes (input run to the end, output compared) | ${figures.randomEpisodes} |`,
    `| named crash-point episodes | ${figures.namedPointRuns} |`,
    `| child processes started | ${figures.childRuns} |`,
    `| batches handed to foreachBatch again after a kill | ${figures.replayedBatches} |`,
    `| of which skipped by the PostgreSQL batch-id fence | ${figures.fencedReplays} |`,
    `| orphan data files left by killed attempts (invisible to readers) | ${figures.orphanFiles} |`,
    `| windows deferred until new data (restart rule) | ${figures.deferredWindows} |`,
    `| rows lost or duplicated | ${figures.lostOrDuplicatedRows} |`,
    `| wall time | ${figures.seconds} s |`,
    END,
  ].join("\n");
  const doc = readFileSync(DOC, "utf8");
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC} has no ${BEGIN} ... ${END} section`);
  writeFileSync(DOC, doc.slice(0, a) + table + doc.slice(b + END.length));
  console.error(`soak: figures written to ${DOC}`);
}
if (wanted.has("kafka")) await kafkaSoak();
process.exit(0);

/** Replaces the part of docs/reliability.md between `begin` and `end` with `table`. */
function writeSection(begin: string, end: string, table: string): void {
  const doc = readFileSync(DOC, "utf8");
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${DOC} has no ${begin} ... ${end} section`);
  writeFileSync(DOC, doc.slice(0, a) + table + doc.slice(b + end.length));
  console.error(`soak: figures written to ${DOC}`);
}

async function kafkaSoak(): Promise<void> {
  const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
  if (!bootstrap) {
    console.error('soak: Kafka skipped: set ARUS_KAFKA_BOOTSTRAP (export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)")');
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "arus-soak-kafka-"));
  const t0 = performance.now();
  console.error(`soak: Kafka exactly-once sink, seed ${seed}, ${cycles} kills, broker ${bootstrap}, work dir ${root}`);
  let result: Awaited<ReturnType<typeof kafkaCrashLoop>>;
  try {
    result = await kafkaCrashLoop({
      bootstrap,
      kills: cycles,
      seed,
      workDir: root,
      deadlineMs: maxSeconds > 0 ? Date.now() + maxSeconds * 1000 : undefined,
      onKill: (k) => {
        if (k % 50 === 0 || k === cycles) console.error(`soak: kafka ${k}/${cycles} kills, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      },
    });
  } catch (e) {
    console.error(`soak: Kafka FAILED:\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}\nwork dir kept: ${root}`);
    process.exit(1);
  }
  const seconds = Math.round((performance.now() - t0) / 1000);
  const ok = result.duplicates === 0 && result.missing === 0 && result.unexpected === 0;
  console.log(JSON.stringify({ kafka: { seed, ...result, seconds } }, null, 1));
  if (!ok) {
    console.error(`soak: Kafka FAILED: ${result.duplicates} duplicated, ${result.missing} missing, ${result.unexpected} unexpected records; work dir kept: ${root}`);
    process.exit(1);
  }
  if (!flag("keep")) rmSync(root, { recursive: true, force: true });
  if (flag("no-write")) return;
  const sinksFlag = sinksArg > 0 ? ` --sinks ${process.argv[sinksArg + 1]}` : "";
  writeSection(
    "<!-- kafka-soak:begin -->",
    "<!-- kafka-soak:end -->",
    [
      "<!-- kafka-soak:begin -->",
      `Last Kafka soak: ${new Date().toISOString().slice(0, 10)}, engine ${revisionOf()}, \`npm run soak -- --cycles ${cycles}${maxSeconds > 0 ? ` --max-seconds ${maxSeconds}` : ""} --seed ${seed}${sinksFlag}\`, Node ${process.version}, ${cpus().length} CPUs, the broker of scripts/kafka.sh (Kafka 4.4).`,
      "",
      "| figure | value |",
      "|---|---|",
      "| query | Kafka (2 partitions, maxOffsetsPerTrigger 7) → Kafka, `arus.exactlyOnce`, availableNow |",
      `| random SIGKILLs | ${result.kills}${result.kills < cycles ? ` (of ${cycles} asked: --max-seconds ${maxSeconds} ran out)` : ""} |`,
      `| child processes started | ${result.childRuns} |`,
      `| input records | ${result.inputRecords} |`,
      `| output records (read_committed) | ${result.outputRecords} |`,
      `| duplicated / missing / unexpected records | ${result.duplicates} / ${result.missing} / ${result.unexpected} |`,
      `| wall time | ${seconds} s |`,
      "<!-- kafka-soak:end -->",
    ].join("\n"),
  );
}

function revisionOf(): string {
  if (process.env.ARUS_SOAK_REV) return process.env.ARUS_SOAK_REV;
  try {
    const rev = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: import.meta.dirname, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src"], { cwd: import.meta.dirname, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    return dirty ? `${rev} + uncommitted src changes` : rev;
  } catch {
    return "unknown";
  }
}
