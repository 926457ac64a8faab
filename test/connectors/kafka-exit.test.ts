/**
 * A script that stops its Kafka queries exits by itself: no kafkajs socket or timer outlives
 * the queries (a socket kafkajs lost track of used to keep the process alive until the broker's
 * 10-minute idle timeout). The child (kafka-exit-child.ts) reads 3 partitions, writes with both
 * sinks, reads and writes a batch, and stops; the parent only waits for it to end. The 60 s
 * timeout is a guard against a hang, not a speed check.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";
import { tempDirs } from "../temp-dirs.js";
import { kafkaBootstrap, kafkaSkip, newTopic, produce, readValues } from "./kafka-helpers.js";

const tempDir = tempDirs("arus-kafka-exit-");
const CHILD = path.join(import.meta.dirname, "kafka-exit-child.ts");
const GUARD_MS = 60_000;

describe("a Kafka script exits after stopping its queries", kafkaSkip(), () => {
  it("ends by itself once every query and the session are stopped", { timeout: GUARD_MS + 30_000 }, async () => {
    const bootstrap = kafkaBootstrap()!;
    const input = await newTopic(bootstrap, 3, "exit-in");
    const output = await newTopic(bootstrap, 1, "exit-out");
    const eosOutput = await newTopic(bootstrap, 1, "exit-eos");
    await produce(
      bootstrap,
      input,
      Array.from({ length: 9 }, (_, i) => ({ value: `v${i}`, partition: i % 3 })),
    );
    const cfg = { bootstrap, input, output, eosOutput, checkpoint: await tempDir() };
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(cfg)], {
      cwd: path.join(import.meta.dirname, "..", ".."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    const guard = setTimeout(() => child.kill("SIGKILL"), GUARD_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on("close", (c, s) => resolve([c, s])),
    );
    clearTimeout(guard);
    assert.equal(signal, null, `the child did not exit by itself (killed after ${GUARD_MS} ms); stdout:\n${out}\nstderr:\n${err}`);
    assert.equal(code, 0, `child failed; stderr:\n${err}`);
    assert.match(out, /done\n/);
    const want = Array.from({ length: 9 }, (_, i) => `V${i}`).sort();
    assert.deepEqual((await readValues(bootstrap, output)).sort(), [...want, "rows=9"].sort());
    assert.deepEqual((await readValues(bootstrap, eosOutput, true)).sort(), want);
  });
});
