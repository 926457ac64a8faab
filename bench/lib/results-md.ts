/**
 * bench/RESULTS.md keeps hand-written prose around generated tables; a run replaces only the
 * text between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`. Sections without
 * markers in the file are left out (add the markers to publish a new one). The file is then
 * formatted with Biome, as `npm run lint` expects (it pads the tables).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const RESULTS_MD = path.resolve(import.meta.dirname, "../RESULTS.md");

/** Replace the named sections; returns the names that had markers. */
export function updateResultsMd(sections: Record<string, string>, file = RESULTS_MD): string[] {
  if (!existsSync(file)) return [];
  let md = readFileSync(file, "utf8");
  const done: string[] = [];
  for (const [name, body] of Object.entries(sections)) {
    const start = `<!-- bench:${name}:start -->\n`;
    const end = `\n<!-- bench:${name}:end -->`;
    const i = md.indexOf(start);
    const j = i < 0 ? -1 : md.indexOf(end, i);
    if (i < 0 || j < 0) continue;
    md = md.slice(0, i + start.length) + body + md.slice(j);
    done.push(name);
  }
  writeFileSync(file, md);
  formatMarkdown(file);
  return done;
}

/** The linter (`npm run lint` covers bench/**) formats Markdown tables; keep the file as it wants it. */
function formatMarkdown(file: string): void {
  const biome = path.resolve(import.meta.dirname, "../../node_modules/@biomejs/biome/bin/biome");
  if (existsSync(biome)) spawnSync(process.execPath, [biome, "format", "--write", file], { stdio: "ignore" });
}
