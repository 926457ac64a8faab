/**
 * Prints a stored result compactly, batch by batch: the watermark, input rows, state operator
 * metrics and output rows.
 *
 *   tsx conformance/show.ts <case id or substring>... [--arus]
 *
 * Reads conformance/.cache/spark/<id> (or .cache/arus/<id> with --arus).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { readResult } from "./compare.js";

const root = join(import.meta.dirname, ".cache");

function resultDirs(base: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (existsSync(join(d, "meta.json"))) out.push(d);
    else for (const e of readdirSync(d)) if (statSync(join(d, e)).isDirectory()) walk(join(d, e));
  };
  if (existsSync(base)) walk(base);
  return out;
}

export function renderResult(dir: string): string {
  const r = readResult(dir);
  const lines: string[] = [];
  const err = r.meta.error ? ` error: ${r.meta.error.message.split("\n")[0].slice(0, 300)}` : "";
  lines.push(`status ${r.meta.status}${r.meta.sparkVersion ? ` (Spark ${r.meta.sparkVersion})` : ""}${err}`);
  if (r.schema) lines.push(`schema ${r.schema.map((f) => `${f.name}: ${f.type}`).join(", ")}`);
  const ids = [...new Set([...r.batchIds, ...r.progress.filter((p) => !p.idle).map((p) => p.batchId)])].sort((a, b) => a - b);
  for (const id of ids) {
    const p = r.progress.find((x) => x.batchId === id && !x.idle);
    const ops = (p?.stateOperators ?? [])
      .map(
        (o) =>
          `${o.operatorName}(total ${o.numRowsTotal}, updated ${o.numRowsUpdated}, removed ${o.numRowsRemoved}, dropped ${o.numRowsDroppedByWatermark}` +
          `${o.customMetrics?.numDroppedDuplicateRows !== undefined ? `, dupDropped ${o.customMetrics.numDroppedDuplicateRows}` : ""})`,
      )
      .join(" ");
    const run = p?.run ? ` run ${p.run}` : "";
    lines.push(`batch ${id}${run}: in ${p?.numInputRows ?? "?"} wm ${p?.watermark ?? "-"} ${ops}`);
    for (const row of r.batches.get(id) ?? []) lines.push(`    ${JSON.stringify(row)}`);
  }
  if (r.console !== null) lines.push("console:", r.console);
  return lines.join("\n");
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2);
  const base = join(root, args.includes("--arus") ? "arus" : "spark");
  const wanted = args.filter((a) => !a.startsWith("--"));
  for (const d of resultDirs(base)) {
    const id = relative(base, d);
    if (wanted.length && !wanted.some((w) => id.includes(w))) continue;
    process.stdout.write(`== ${id}\n${renderResult(d)}\n\n`);
  }
}
