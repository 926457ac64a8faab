/**
 * The Kafka crash loop shared by kafka-crash.test.ts (50 kills) and `npm run soak` (1 000): a
 * Kafka → Kafka query with the exactly-once sink (kafka-crash-child.ts) is SIGKILLed at random
 * moments after it started — during fetches, inside the producer's transaction, between the
 * Kafka commit and commits/N — and restarted, until `kills` kills happened; a run that finishes
 * before its kill gets more input. Then one last run to the end, and the output topic read with
 * read_committed must hold every input record exactly once (not a test file itself).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { newTopic, produce, readValues } from "../connectors/kafka-helpers.js";
import { bundleChild, rng } from "./driver.js";

const CHILD = path.join(import.meta.dirname, "kafka-crash-child.ts");
const ROOT = path.join(import.meta.dirname, "..", "..");

export interface KafkaCrashOptions {
  bootstrap: string;
  kills: number;
  seed: number;
  /** A fresh directory for the checkpoint. */
  workDir: string;
  /** Longest wait after the child's `ready` before the kill (default 700 ms). */
  maxKillDelayMs?: number;
  /** Date.now() after which no more kills are made (the last run and the check still happen). */
  deadlineMs?: number;
  /** Called after every kill. */
  onKill?: (kills: number) => void;
}

export interface KafkaCrashResult {
  kills: number;
  /** Child processes started (killed ones, finished ones and the last run). */
  childRuns: number;
  /** Records produced to the input topic. */
  inputRecords: number;
  /** Records in the output topic for read_committed. */
  outputRecords: number;
  duplicates: number;
  /** Input records absent from the output. */
  missing: number;
  /** Output records that are no input record. */
  unexpected: number;
}

/**
 * How the child starts: bundled once per process with esbuild (as the file and PostgreSQL
 * crash loops' child, driver.ts), ~0.2 s to start instead of ~0.6 s and a loader's CPU through
 * tsx; ARUS_CRASH_NO_BUNDLE=1 (or no esbuild) runs the TypeScript through tsx.
 */
let childArgs: Promise<string[]> | null = null;
function childCommand(): Promise<string[]> {
  childArgs ??= (async () => {
    const viaTsx = ["--import", "tsx", CHILD];
    if (process.env.ARUS_CRASH_NO_BUNDLE === "1") return viaTsx;
    const out = await bundleChild(`import ${JSON.stringify(CHILD)};\n`, "kafka-child");
    return out ? [out] : viaTsx;
  })();
  return childArgs;
}

async function runChild(cfg: object, killAfterReadyMs: number | null): Promise<"done" | "killed"> {
  const args = await childCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, JSON.stringify(cfg)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let timer: NodeJS.Timeout | null = null;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (killAfterReadyMs !== null && timer === null && out.includes("ready\n")) {
        timer = setTimeout(() => child.kill("SIGKILL"), killAfterReadyMs);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code === 0 && out.includes("done\n")) resolve("done");
      else if (signal === "SIGKILL") resolve("killed");
      else reject(new Error(`child failed (code ${code}, signal ${signal})\nstdout:\n${out}\nstderr:\n${err}`));
    });
  });
}

export async function kafkaCrashLoop(o: KafkaCrashOptions): Promise<KafkaCrashResult> {
  const random = rng(o.seed);
  const input = await newTopic(o.bootstrap, 2, "crash-in");
  const output = await newTopic(o.bootstrap, 1, "crash-out");
  const cfg = { bootstrap: o.bootstrap, input, output, checkpoint: path.join(o.workDir, "ckpt") };
  const expected: string[] = [];
  const addInput = async (n: number) => {
    const recs = Array.from({ length: n }, () => {
      const v = String(expected.length);
      expected.push(v);
      return { value: v, partition: Number(v) % 2 };
    });
    await produce(o.bootstrap, input, recs);
  };
  await addInput(200);
  let kills = 0;
  let childRuns = 0;
  while (kills < o.kills && (o.deadlineMs === undefined || Date.now() < o.deadlineMs)) {
    childRuns++;
    const outcome = await runChild(cfg, Math.floor(random() * (o.maxKillDelayMs ?? 700)));
    if (outcome === "killed") {
      kills++;
      o.onKill?.(kills);
    } else await addInput(60); // finished before the kill: more input for the next runs
  }
  childRuns++;
  if ((await runChild(cfg, null)) !== "done") throw new Error("the last run did not finish");
  const got = await readValues(o.bootstrap, output, true);
  const gotSet = new Set(got);
  const want = new Set(expected);
  return {
    kills,
    childRuns,
    inputRecords: expected.length,
    outputRecords: got.length,
    duplicates: got.length - gotSet.size,
    missing: expected.filter((v) => !gotSet.has(v)).length,
    unexpected: [...gotSet].filter((v) => !want.has(v)).length,
  };
}
