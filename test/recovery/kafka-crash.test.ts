/**
 * Crash injection for the exactly-once Kafka sink: a Kafka → Kafka query (kafka-crash-child.ts)
 * is SIGKILLed at random moments (during fetches, inside the producer's transaction, between
 * the Kafka commit and commits/N) and restarted, ARUS_KAFKA_CRASH_KILLS times (default 50;
 * `npm run soak` style runs can raise it). At the end, the output topic read with
 * read_committed holds every input record exactly once. Needs ARUS_KAFKA_BOOTSTRAP.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, readValues } from "../connectors/kafka-helpers.js";
import { tempDirs } from "../temp-dirs.js";
import { rng } from "./driver.js";

const tempDir = tempDirs("arus-kafka-crash-");
const KILLS = Number(process.env.ARUS_KAFKA_CRASH_KILLS ?? 50);
const CHILD = path.join(import.meta.dirname, "kafka-crash-child.ts");

function runChild(cfg: object, killAfterReadyMs: number | null): Promise<"done" | "killed"> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(cfg)], {
      cwd: path.join(import.meta.dirname, "..", ".."),
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

describe("exactly-once Kafka sink under SIGKILL", kafkaSkip(), () => {
  it(`holds every input record exactly once for read_committed after ${KILLS} kills`, { timeout: 900_000 }, async () => {
    const bootstrap = kafkaBootstrap()!;
    const seed = Number(process.env.ARUS_CRASH_SEED ?? Date.now() % 1_000_000);
    const random = rng(seed);
    const input = await newTopic(bootstrap, 2, "crash-in");
    const output = await newTopic(bootstrap, 1, "crash-out");
    const cfg = { bootstrap, input, output, checkpoint: path.join(await tempDir(), "ckpt") };
    let next = 0;
    const expected: string[] = [];
    const addInput = async (n: number) => {
      const recs = Array.from({ length: n }, () => {
        const v = String(next++);
        expected.push(v);
        return { value: v, partition: Number(v) % 2 };
      });
      await produce(bootstrap, input, recs);
    };
    await addInput(200);
    let kills = 0;
    while (kills < KILLS) {
      const outcome = await runChild(cfg, Math.floor(random() * 700));
      if (outcome === "killed") kills++;
      else await addInput(60); // finished before the kill: more input for the next runs
    }
    assert.equal(await runChild(cfg, null), "done");
    const got = await readValues(bootstrap, output, true);
    const dupes = got.length - new Set(got).size;
    assert.equal(dupes, 0, `seed ${seed}: ${dupes} duplicated records`);
    assert.deepEqual([...got].sort(), [...expected].sort(), `seed ${seed}: output differs from the input`);
  });
});
