// Runs node's test runner over every test file under the given folders (Node 20's --test
// takes no globs). Usage: node scripts/run-tests.mjs [folder ...]; default: test/
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) collect(p, out);
    else if (name.endsWith(".test.ts")) out.push(p);
  }
  return out;
}
const roots = process.argv.slice(2).length ? process.argv.slice(2) : ["test"];
const files = roots.flatMap((r) => (r.endsWith(".ts") ? [r] : collect(r, [])));
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
// --test-force-exit: a file whose tests have all finished ends even if a handle stays open (a
// client still reconnecting to a broker a test stopped); without it, node's runner waits for that
// file forever and the run never ends. Node has it from 20.14 (the package itself runs on 20.10+).
const [major, minor] = process.versions.node.split(".").map(Number);
const forceExit = major > 20 || (major === 20 && minor >= 14) ? ["--test-force-exit"] : [];
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", ...forceExit, "--test-concurrency=2", ...files], { stdio: "inherit" });
process.exit(r.status ?? 1);
