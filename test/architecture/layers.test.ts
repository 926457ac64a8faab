// The folders of src/ form layers in the order a query travels (docs/architecture.md); a
// module may import only from its own folder or from folders below it.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";

const SRC = path.resolve(import.meta.dirname, "../../src");
// Top to bottom. Folders on one line share a layer.
const LAYERS: string[][] = [
  ["index.ts", "index.js", "testing"],
  ["cli"],
  ["monitoring"],
  ["api"],
  ["sql"],
  ["runtime"],
  ["planner"],
  ["execution"],
  ["optimizer"],
  ["analyzer"],
  ["functions"],
  ["state"],
  ["connectors"],
  ["checkpoint"],
  ["plan"],
  ["columnar", "types", "common"],
];
const rank = (folder: string) => LAYERS.findIndex((l) => l.includes(folder));

function files(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) files(p, out);
    else if (n.endsWith(".ts")) out.push(p);
  }
  return out;
}

it("src/ imports only go down the layers", () => {
  const violations: string[] = [];
  for (const f of files(SRC)) {
    const from = path.relative(SRC, f).split(path.sep)[0]!;
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(
      /(?:import|export)[^"']*?from\s+["'](\.[^"']+)["']|import\s*\(\s*["'](\.[^"']+)["']\s*\)|import\s+["'](\.[^"']+)["']/g,
    )) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      const target = path.relative(SRC, path.resolve(path.dirname(f), spec)).split(path.sep)[0]!;
      if (target === from || target.startsWith("..")) continue;
      const rf = rank(from);
      const rt = rank(target);
      assert.ok(rf >= 0, `unknown folder src/${from}: add it to LAYERS and docs/architecture.md`);
      assert.ok(rt >= 0, `unknown folder src/${target}`);
      if (rt < rf) violations.push(`${path.relative(SRC, f)} imports ${spec} (${target} is above ${from})`);
    }
  }
  assert.deepEqual(violations, []);
});

// Query execution has one entry point (runtime/query-execution.ts): api/ builds plans, collects
// options and hands them over; it does not analyze, optimize, plan or execute by itself.
const API_FORBIDDEN = ["analyzer", "optimizer", "planner", "execution"];
// Besides the entry point, api/ uses the runtime's public value types (triggers, clocks, progress).
const API_RUNTIME = ["runtime/query-execution.ts", "runtime/trigger.ts", "runtime/clock.ts", "runtime/progress.ts"];

function imports(f: string): string[] {
  const text = readFileSync(f, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)[^"']*?from\s+["'](\.[^"']+)["']|import\s*\(\s*["'](\.[^"']+)["']\s*\)|import\s+["'](\.[^"']+)["']/g,
  )) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    out.push(
      path
        .relative(SRC, path.resolve(path.dirname(f), spec))
        .replace(/\.js$/, ".ts")
        .split(path.sep)
        .join("/"),
    );
  }
  return out;
}

it("api/ reaches query execution only through the runtime's entry point", () => {
  const violations: string[] = [];
  for (const f of files(path.join(SRC, "api"))) {
    for (const target of imports(f)) {
      const folder = target.split("/")[0]!;
      if (API_FORBIDDEN.includes(folder) || (folder === "runtime" && !API_RUNTIME.includes(target)))
        violations.push(`${path.relative(SRC, f)} imports src/${target}`);
    }
  }
  assert.deepEqual(violations, []);
});

it("execution/ does not import the analyzer", () => {
  const violations: string[] = [];
  for (const f of files(path.join(SRC, "execution"))) {
    for (const target of imports(f)) if (target.startsWith("analyzer/")) violations.push(`${path.relative(SRC, f)} imports src/${target}`);
  }
  assert.deepEqual(violations, []);
});
