/**
 * A one-node Kafka broker of a test file's own (scripts/kafka.sh in a temp ARUS_KAFKA_DIR), for
 * tests that stop and restart their broker: the shared one is never touched. `kafkaSh("start")`
 * creates it and prints its address; it is stopped after the file's tests.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { after } from "node:test";
import { promisify } from "node:util";

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, "..", "..", "scripts", "kafka.sh");

export function privateBroker(tempDir: () => Promise<string>): (cmd: "start" | "stop" | "restart") => Promise<string> {
  let dir: string | null = null;
  const kafkaSh = async (cmd: "start" | "stop" | "restart"): Promise<string> => {
    if (cmd === "start" && !dir) dir = path.join(await tempDir(), "kafka");
    if (!dir) throw new Error(`private broker: ${cmd} before start`);
    const { stdout } = await run("bash", [SCRIPT, cmd], { env: { ...process.env, ARUS_KAFKA_DIR: dir }, timeout: 180_000 });
    return stdout.trim();
  };
  after(async () => {
    if (dir) await kafkaSh("stop").catch(() => {});
  });
  return kafkaSh;
}
