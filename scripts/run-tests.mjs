// Runs node's test runner over every test file under the given folders (Node 20's --test
// takes no globs). Usage: node scripts/run-tests.mjs [--node-test-flag ...] [folder|file ...];
// default: test/. Flags are passed to node, e.g. --test-reporter=tap to list every verdict.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) collect(p, out);
    else if (name.endsWith(".test.ts")) out.push(p);
  }
  return out;
}
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith("--"));
const roots = args.filter((a) => !a.startsWith("--"));
const files = (roots.length ? roots : ["test"]).flatMap((r) => (r.endsWith(".ts") ? [r] : collect(r, [])));
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
// No --test-force-exit: with it node's runner drops the verdicts a file is still reporting when
// the file is made to exit (nodejs/node#64833), so the totals printed were lower bounds. What it
// guarded against is bounded instead:
// - a file whose tests all finished but whose process stays alive on a handle left open:
//   test-exit-guard.mjs ends it after a grace period, naming the handle, and the file fails;
// - a test that never ends: --test-timeout (ARUS_TEST_TIMEOUT_MS, default 20 min; a test's own
//   `timeout` option wins). On Node 20 and 22 it also bounds each file's process as a whole.
const guard = fileURLToPath(new URL("./test-exit-guard.mjs", import.meta.url));
// Node's default reporter (TAP when stdout is not a terminal, spec on one), then a summary of the
// failures and their files' stderr at the very end, where a CI log's tail keeps them
// (failure-summary.mjs). A caller's own --test-reporter flags replace both.
const summary = fileURLToPath(new URL("./failure-summary.mjs", import.meta.url));
const reporters = flags.some((f) => f.startsWith("--test-reporter"))
  ? []
  : [
      `--test-reporter=${process.stdout.isTTY ? "spec" : "tap"}`,
      "--test-reporter-destination=stdout",
      `--test-reporter=${summary}`,
      "--test-reporter-destination=stdout",
    ];
const timeoutMs = Number(process.env.ARUS_TEST_TIMEOUT_MS ?? 20 * 60_000);
const r = spawnSync(
  process.execPath,
  ["--import", "tsx", "--import", guard, "--test", `--test-timeout=${timeoutMs}`, "--test-concurrency=2", ...reporters, ...flags, ...files],
  { stdio: "inherit" },
);
process.exit(r.status ?? 1);
