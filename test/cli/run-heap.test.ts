/**
 * `arus run` starts the pipeline's process with node's `--initial-old-space-size` (`--node-heap`,
 * default 128 MB; docs/cli.md): once, not when node was started with the flag, with the pipeline's
 * arguments, exit code and signals carried through.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { tempDirs } from "../temp-dirs.js";

const ROOT = resolve(import.meta.dirname, "../..");
const MAIN = join(ROOT, "src/cli/main.ts");
const tempDir = tempDirs("arus-cli-heap-");

const PIPELINE = `import { writeFileSync } from "node:fs";
writeFileSync(process.argv[2], JSON.stringify({ execArgv: process.execArgv, args: process.argv.slice(3), pid: process.pid }));
if (process.argv[3] === "fail") process.exitCode = 3;
if (process.argv[3] === "wait") setInterval(() => {}, 1000);
`;

interface Seen {
  execArgv: string[];
  args: string[];
  pid: number;
}

async function setup(): Promise<{ dir: string; pipeline: string; out: string }> {
  const dir = await tempDir();
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  const pipeline = join(dir, "pipeline.mjs");
  await writeFile(pipeline, PIPELINE);
  return { dir, pipeline, out: join(dir, "seen.json") };
}

function arus(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], { env, encoding: "utf8" });
}

const heapFlags = (s: Seen) => s.execArgv.filter((a) => a.startsWith("--initial-old-space-size"));

describe("arus run: node's heap flag", () => {
  it("runs the pipeline once, in a process with --initial-old-space-size=128, with its arguments", async () => {
    const { pipeline, out } = await setup();
    const r = arus(["run", pipeline, out, "a", "b"]);
    assert.equal(r.status, 0, r.stderr);
    const seen = JSON.parse(await readFile(out, "utf8")) as Seen;
    assert.deepEqual(heapFlags(seen), ["--initial-old-space-size=128"]);
    assert.deepEqual(seen.args, ["a", "b"]);
  });

  it("takes the size from --node-heap, and 0 leaves node's default", async () => {
    const { pipeline, out } = await setup();
    assert.equal(arus(["run", "--node-heap", "64", pipeline, out]).status, 0);
    assert.deepEqual(heapFlags(JSON.parse(await readFile(out, "utf8"))), ["--initial-old-space-size=64"]);
    assert.equal(arus(["run", "--node-heap", "0", pipeline, out]).status, 0);
    assert.deepEqual(heapFlags(JSON.parse(await readFile(out, "utf8"))), []);
    const bad = arus(["run", "--node-heap", "lots", pipeline, out]);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /--node-heap must be a whole number of MB/);
  });

  it("keeps the flag node was started with, and then runs the pipeline in its own process", async () => {
    const { pipeline, out } = await setup();
    const cli = spawn(process.execPath, ["--initial-old-space-size=200", "--import", "tsx", MAIN, "run", pipeline, out], {
      stdio: "ignore",
    });
    assert.equal(await new Promise((res) => cli.on("exit", res)), 0);
    const seen = JSON.parse(await readFile(out, "utf8")) as Seen;
    assert.deepEqual(heapFlags(seen), ["--initial-old-space-size=200"]);
    assert.equal(seen.pid, cli.pid, "no second process");
  });

  it("ends with the pipeline's exit code", async () => {
    const { pipeline, out } = await setup();
    assert.equal(arus(["run", pipeline, out, "fail"]).status, 3);
  });

  it("passes a SIGTERM sent to the command on to the pipeline's process", async () => {
    const { pipeline, out } = await setup();
    const cli = spawn(process.execPath, ["--import", "tsx", MAIN, "run", pipeline, out, "wait"], { stdio: "ignore" });
    let seen: Seen | null = null;
    for (let i = 0; i < 200 && !seen; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await readFile(out, "utf8").then(
        (t) => JSON.parse(t) as Seen,
        () => null,
      );
    }
    assert.ok(seen, "the pipeline started");
    assert.notEqual(seen.pid, cli.pid, "the pipeline runs in a process of its own");
    const ended = new Promise<NodeJS.Signals | null>((res) => cli.on("exit", (_code, signal) => res(signal)));
    cli.kill("SIGTERM");
    assert.equal(await ended, "SIGTERM");
    assert.throws(() => process.kill(seen!.pid, 0), /ESRCH/, "the pipeline's process is gone too");
  });
});
