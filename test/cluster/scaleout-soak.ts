/**
 * `npm run soak -- --scaleout`: the scale-out recipe at large size (not a test file itself).
 * The §6 scenario (group and static mode) or the single-process kill/restart (single mode) plus `--kills`
 * more kill -9s at random points of the input, each followed by a restart with the same slot
 * (half of those restarts first run armed to crash at a named point of the micro-batch:
 * KAFKA_CRASH_POINTS, e.g. inside the Kafka transaction); then the read_committed check of
 * scaleout-harness.ts. Prints the report as JSON; exit code 1
 * when anything was lost, duplicated or wrong, or a worker failed.
 *
 *   npm run soak -- --scaleout [--mode group|single|static] [--events 100000] [--kills 10] [--rate 1000]
 *                  [--keys 20] [--seed S] [--partition-by id|key] [--start bundle|tsx]
 *                  [--no-crash-points] [--scenario recipe|restore] [--keep]
 *
 * --scenario restore: restoreKillScenario (worker 3 killed while it takes over worker 2's
 * partitions) instead of the recipe, as the base of the random kills.
 *
 * Workers start from the pipeline bundled once with esbuild by default (`--start tsx`: through
 * tsx, as a user runs it; ~2 s more CPU per start, which on a loaded 2-core machine lets random
 * kills land mostly during start-up).
 *
 * --mode defaults to group (single when ARUS_SCALEOUT_GROUP=0). Needs ARUS_KAFKA_BOOTSTRAP.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rng } from "../recovery/driver.js";
import {
  describeReport,
  GROUP_CRASH_POINTS,
  GROUP_SCENARIO,
  KAFKA_CRASH_POINTS,
  restoreKillScenario,
  runScaleout,
  SINGLE_SCENARIO,
  withRandomKills,
} from "./scaleout-harness.js";

function option(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i > 0 ? argv[i + 1] : undefined;
}

/** Runs the soak; returns the process exit code. */
export async function scaleoutSoak(argv: readonly string[]): Promise<number> {
  const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
  if (!bootstrap) {
    console.error('soak --scaleout: needs a broker: export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)"');
    return 1;
  }
  const num = (name: string, fallback: number) => {
    const v = Number(option(argv, name) ?? fallback);
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${name}: not a number: ${option(argv, name)}`);
    return v;
  };
  const mode = option(argv, "mode") ?? (process.env.ARUS_SCALEOUT_GROUP === "0" ? "single" : "group");
  if (mode !== "group" && mode !== "single" && mode !== "static") throw new Error(`--mode: group, single or static, got ${mode}`);
  const partitionBy = option(argv, "partition-by") ?? "id";
  if (partitionBy !== "id" && partitionBy !== "key") throw new Error(`--partition-by: id or key, got ${partitionBy}`);
  const start = option(argv, "start") ?? "bundle";
  if (start !== "tsx" && start !== "bundle") throw new Error(`--start: tsx or bundle, got ${start}`);
  const seed = num("seed", Date.now() % 1_000_000);
  const kills = num("kills", 10);
  const crashPoints = argv.includes("--no-crash-points") ? [] : mode === "group" ? GROUP_CRASH_POINTS : KAFKA_CRASH_POINTS;
  const scenario = option(argv, "scenario") ?? "recipe";
  if (scenario !== "recipe" && scenario !== "restore") throw new Error(`--scenario: recipe or restore, got ${scenario}`);
  if (scenario === "restore" && mode === "single") throw new Error("--scenario restore needs several workers (--mode group or static)");
  const base = mode === "single" ? SINGLE_SCENARIO : scenario === "restore" ? restoreKillScenario() : GROUP_SCENARIO;
  const steps = withRandomKills(base, rng(seed), kills, 0.05, 0.95, crashPoints);
  const workDir = mkdtempSync(join(tmpdir(), "arus-soak-scaleout-"));
  // The workers' stderr and every event they printed (with each batch's offsets) stay beside the
  // checkpoints: the evidence when a run fails (kept with the work dir).
  process.env.SCALEOUT_LOG_DIR ??= join(workDir, "logs");
  process.env.SCALEOUT_DEBUG ??= "1";
  mkdirSync(process.env.SCALEOUT_LOG_DIR, { recursive: true });
  const t0 = Date.now();
  console.error(
    `soak --scaleout: mode ${mode}, seed ${seed}, ${steps.filter((s) => s.action === "kill").length} kills, work dir ${workDir}`,
  );
  const report = await runScaleout({
    bootstrap,
    mode,
    workDir,
    steps,
    events: num("events", 100_000),
    keys: num("keys", 20),
    ratePerSec: num("rate", 1000),
    chunk: 200,
    partitionBy,
    seed,
    start,
    drainTimeoutMs: 180_000,
    log: (line) => console.error(`soak ${((Date.now() - t0) / 1000).toFixed(0)} s: ${line}`),
  });
  console.log(JSON.stringify({ scaleout: { seed, ...report } }, null, 1));
  console.error(describeReport(report));
  const failed =
    !report.drained ||
    report.workerErrors.length > 0 ||
    report.raw.duplicates + report.raw.missing + report.raw.unexpected > 0 ||
    report.agg.duplicates + report.agg.missing + report.agg.unexpected + report.agg.wrong > 0;
  if (failed) {
    console.error(`soak --scaleout: FAILED (seed ${seed}); work dir kept: ${workDir}`);
    return 1;
  }
  console.error(
    `soak --scaleout: ${report.recoveries.length} deaths (${
      report.recoveries
        .filter((r) => r.how !== "kill -9")
        .map((r) => r.how)
        .join(", ") || "no crash point"
    }; missed: ${report.crashPointsMissed.length}), 0 lost, 0 duplicated, 0 wrong windows; ${report.aborted.raw + report.aborted.agg} aborted records seen`,
  );
  if (!argv.includes("--keep")) rmSync(workDir, { recursive: true, force: true });
  return 0;
}
