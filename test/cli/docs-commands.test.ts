/**
 * Every command docs/cli.md shows runs, as written, through the real CLI (src/cli/main.ts), in
 * a directory holding the files the page names: `events/`, `events.csv`, `pipeline.ts`, `ckpt/`.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { it } from "node:test";
import { pathToFileURL } from "node:url";
import { Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const ROOT = resolve(import.meta.dirname, "../..");
const tempDir = tempDirs("arus-cli-docs-");

/** The `arus ...` lines of docs/cli.md's sh block, comments removed. */
async function documentedCommands(): Promise<string[]> {
  const md = await readFile(join(ROOT, "docs/cli.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(md)![1]!;
  return block
    .split("\n")
    .map((l) => l.replace(/\s{2,}#.*$/, "").trim())
    .filter((l) => l.startsWith("arus"));
}

async function fixtures(dir: string): Promise<void> {
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n'); // a user's ESM project
  await mkdir(join(dir, "events"));
  await writeFile(join(dir, "events", "part-0.json"), '{"k":"a","amount":12}\n{"k":"b","amount":3}\n{"k":"a","amount":40}\n');
  await writeFile(join(dir, "events.csv"), "k,amount\na,12\nb,3\na,40\n");
  await writeFile(
    join(dir, "pipeline.ts"),
    `import { Session } from ${JSON.stringify(pathToFileURL(join(ROOT, "src/index.ts")).href)};
const s = Session.builder().getOrCreate();
console.log("pipeline rows:", await s.range(Number(process.argv[2])).count());
await s.stop();
`,
  );
  const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
  const ms = session.memoryStream("k STRING");
  const q = await ms
    .toDF()
    .groupBy("k")
    .count()
    .writeStream.format("noop")
    .outputMode("complete")
    .option("checkpointLocation", join(dir, "ckpt"))
    .start();
  ms.addData([{ k: "a" }, { k: "b" }]);
  await q.processAllAvailable();
  await q.stop();
}

it("every command in docs/cli.md runs", async () => {
  const dir = await tempDir();
  await fixtures(dir);
  const commands = await documentedCommands();
  assert.ok(commands.length >= 6, commands.join("\n"));
  const main = join(ROOT, "src/cli/main.ts");
  const out = new Map<string, string>();
  for (const cmd of commands) {
    // bash does the quoting exactly as a user's shell would; `arus` is the CLI through tsx.
    const script = `arus() { "${process.execPath}" --import "${import.meta.resolve("tsx")}" "${main}" "$@"; }\n${cmd}`;
    try {
      out.set(cmd, execFileSync("bash", ["-c", script], { cwd: dir, env: { ...process.env, TZ: "UTC" } }).toString());
    } catch (e) {
      const err = e as { stderr?: Buffer; stdout?: Buffer };
      assert.fail(`${cmd}\n${err.stdout?.toString()}${err.stderr?.toString()}`);
    }
  }
  const get = (prefix: string) => [...out].find(([c]) => c.startsWith(prefix))![1];
  assert.match(get("arus --help"), /Usage: arus/);
  assert.match(get("arus run"), /pipeline rows: 10/);
  assert.equal(get('arus sql "SELECT k'), "+---+---+\n|  k|  n|\n+---+---+\n|  a|  2|\n|  b|  1|\n+---+---+\n\n");
  assert.match(get('arus sql --view e=events.csv "SELECT *'), /\|k {2}\|amount\|\n\+---\+------\+\n\|a {2}\|12 {4}\|\n\|a {2}\|40 {4}\|\n/);
  assert.match(get("arus sql --view e=events.csv --view f=events"), /\| {2}k\|amount\|/);
  assert.match(get("arus checkpoint inspect ckpt --json"), /^\{/);
  assert.match(get("arus checkpoint inspect ckpt"), /batch 0/i);
});
