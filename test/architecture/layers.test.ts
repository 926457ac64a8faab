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
