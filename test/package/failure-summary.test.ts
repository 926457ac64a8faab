/**
 * `npm test` ends with a "== failures" section (scripts/failure-summary.mjs, added by
 * scripts/run-tests.mjs): the failed test with its message, the failed file, and the runner's
 * "asynchronous activity after the test ended" diagnostic — after the totals, where a CI log's
 * tail keeps them. A run without failures prints no such section.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { it } from "node:test";

const ROOT = resolve(import.meta.dirname, "../..");
const run = (file: string) =>
  spawnSync(process.execPath, ["scripts/run-tests.mjs", file], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_TEST_CONTEXT: undefined },
  });

it("lists the failed test, the failed file and the late error after the totals", () => {
  const r = run("test/fixtures/failure-summary/late-error.ts");
  assert.notEqual(r.status, 0);
  const out = r.stdout;
  const totals = out.lastIndexOf("# fail");
  const summary = out.indexOf("== failures");
  assert.ok(totals >= 0 && summary > totals, `the summary comes after the totals:\n${out.slice(-2000)}`);
  const tail = out.slice(summary);
  assert.match(tail, /late-error\.ts :: fails with its own message\n\s+.*arithmetic is broken here on purpose/);
  assert.match(tail, /generated asynchronous activity after the test ended[^\n]*late failure on purpose/);
});

it("prints no summary when nothing failed", () => {
  const r = run("test/fixtures/failure-summary/passes.ts");
  assert.equal(r.status, 0, r.stdout.slice(-2000));
  assert.doesNotMatch(r.stdout, /== failures/);
});
