/** Finds and loads `*.case.ts` files; ids are the path under cases/ without the suffix. */
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { type CaseDef, type CaseSpec, toSpec } from "./case.js";

export const CASES_DIR = resolve(import.meta.dirname, "cases");

export interface LoadedCase {
  id: string;
  file: string;
  def: CaseDef;
  spec: CaseSpec;
}

export function findCaseFiles(root: string = CASES_DIR): string[] {
  const st = statSync(root);
  if (st.isFile()) return [resolve(root)];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".case.ts")) out.push(resolve(p));
    }
  };
  walk(root);
  return out;
}

export function caseId(file: string): string {
  const rel = relative(CASES_DIR, file);
  return rel
    .split(sep)
    .join("/")
    .replace(/\.case\.ts$/, "");
}

/** Loads every case under the given files/dirs; `filter` keeps ids containing any of the substrings. */
export async function loadCases(paths: string[] = [CASES_DIR], filter: string[] = []): Promise<LoadedCase[]> {
  const files = [...new Set(paths.flatMap((p) => findCaseFiles(p)))];
  const out: LoadedCase[] = [];
  for (const file of files) {
    const id = caseId(file);
    if (filter.length > 0 && !filter.some((f) => id.includes(f))) continue;
    const mod = await import(pathToFileURL(file).href);
    const def: CaseDef | undefined = mod.default;
    if (!def || typeof def !== "object") throw new Error(`${file}: no default export (use export default defineCase({...}))`);
    out.push({ id, file, def, spec: toSpec(id, def) });
  }
  out.sort((a, b) => (a.id < b.id ? -1 : 1));
  return out;
}
