/**
 * Writes the Spark-side JSON spec of each case.
 *
 *   tsx conformance/export_cases.ts [--out DIR | --stdout] [--filter S]... [case files or dirs]
 *
 * --out DIR (default conformance/.cache/specs) writes DIR/<id>.json; --stdout prints one JSON array.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { loadCases } from "./load_cases.js";

export const DEFAULT_SPECS_DIR = resolve(import.meta.dirname, ".cache", "specs");

async function main() {
  const args = process.argv.slice(2);
  let out = DEFAULT_SPECS_DIR;
  let toStdout = false;
  const filter: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--out") out = resolve(args[++i]);
    else if (a === "--stdout") toStdout = true;
    else if (a === "--filter") filter.push(args[++i]);
    else paths.push(resolve(a));
  }
  const cases = await loadCases(paths.length ? paths : undefined, filter);
  if (toStdout) {
    process.stdout.write(`${JSON.stringify(cases.map((c) => c.spec))}\n`);
    return;
  }
  for (const c of cases) {
    const p = join(out, `${c.id}.json`);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, `${JSON.stringify(c.spec, null, 2)}\n`);
  }
  process.stderr.write(`exported ${cases.length} case spec(s) to ${out}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main();
}
