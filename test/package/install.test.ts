/**
 * Installing arus as a dependency, as a user does: from an `npm pack` tarball and from a clone's
 * path (`npm install ../arus`), into a fresh project, offline (npm's cache holds the
 * dependencies after `npm ci`). Both entry points import, the `arus` bin runs, and the README's
 * first example runs through the installed package.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(tmpdir(), "arus-install-"));
after(() => rmSync(work, { recursive: true, force: true }));

const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, ...NPM_FLAGS], {
    cwd,
    stdio: "pipe",
    env: { ...process.env, npm_config_update_notifier: "false" },
  }).toString();

/** The README's first ts block. */
function firstReadmeExample(): string {
  const md = readFileSync(path.join(root, "README.md"), "utf8");
  return /```ts\n([\s\S]*?)```/.exec(md)![1]!;
}

/** A new ESM project with arus installed from `spec`. */
function project(name: string, spec: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true, type: "module" }));
  npm(["install", spec], dir);
  return dir;
}

/** What a clone holds: the tracked files (and new ones not ignored), no node_modules, no dist. */
function cloneTree(): string {
  const dir = path.join(work, "arus");
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root })
    .toString()
    .split("\0")
    .filter(Boolean);
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    try {
      copyFileSync(path.join(root, f), path.join(dir, f));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e; // deleted, not yet committed
    }
  }
  return dir;
}

function checkInstalled(dir: string): void {
  writeFileSync(
    path.join(dir, "entry.mjs"),
    `import { Session, functions as F } from "arus";
import { runFor, testStream, ManualClock } from "arus/testing";
const s = Session.builder().getOrCreate();
console.log(JSON.stringify({ n: await s.range(5).filter(F.col("id").mod(2).equalTo(0)).count(), kit: [typeof runFor, typeof testStream, typeof ManualClock] }));
await s.stop();
`,
  );
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, ["entry.mjs"], { cwd: dir }).toString()), {
    n: 3,
    kit: ["function", "function", "function"],
  });
  assert.match(execFileSync(path.join(dir, "node_modules/.bin/arus"), ["--help"], { cwd: dir }).toString(), /Usage: arus/);
  // The README's first example, as written (TypeScript, run through tsx), against the installed package.
  writeFileSync(path.join(dir, "readme.ts"), firstReadmeExample());
  const out = execFileSync(process.execPath, ["--import", import.meta.resolve("tsx"), "readme.ts"], { cwd: dir }).toString();
  assert.match(out, /\|\s*produk\|total\|/);
  assert.match(out, /Batch: 0\n/);
}

describe("installing arus into a new project", { timeout: 900_000 }, () => {
  let clone: string | undefined;
  const theClone = () => (clone ??= cloneTree());
  it("from a clone's path (no node_modules, no dist/: prepare installs and builds)", () => {
    checkInstalled(project("from-clone", theClone()));
  });
  it("from an npm pack tarball (of the clone: the worktree's dist/ is left alone)", () => {
    const packDir = path.join(work, "pack");
    mkdirSync(packDir);
    npm(["pack", "--pack-destination", packDir], theClone()); // runs prepare: dist/ is built
    const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz"))!;
    checkInstalled(project("from-tarball", path.join(packDir, tarball)));
  });
});
