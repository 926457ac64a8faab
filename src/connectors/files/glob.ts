/**
 * Hadoop's glob patterns, as Spark reads load paths and `pathGlobFilter`: `?` one character,
 * `*` any run of characters (neither crosses a `/`), `[abc]`, `[a-z]`, `[^a]` a character class,
 * `{a,b}` alternatives (nested, and holding `/` or other patterns), `\` escapes the next
 * character. A path with a pattern is expanded by walking its directories one segment at a time.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";

const META = new Set(["*", "?", "[", "{"]);

/** Is `p` a glob (Hadoop's isGlobPath: a pattern character, or `\\` escaping one to unescape)? */
export function hasGlob(p: string): boolean {
  for (let i = 0; i < p.length; i++) if (p[i] === "\\" || META.has(p[i]!)) return true;
  return false;
}

/** Every alternative of the `{a,b}` groups in `p` (escapes kept for the matcher). */
export function expandBraces(p: string): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "{") {
      if (depth++ === 0) open = i;
    } else if (c === "}" && depth > 0) {
      if (--depth === 0) {
        const parts: string[] = [];
        let from = open + 1;
        for (const k of commas) {
          parts.push(p.slice(from, k));
          from = k + 1;
        }
        parts.push(p.slice(from, i));
        const rest = expandBraces(p.slice(i + 1));
        return parts.flatMap((part) => expandBraces(p.slice(0, open) + part).flatMap((head) => rest.map((tail) => head + tail)));
      }
    } else if (c === "," && depth === 1) commas.push(i);
  }
  return [p];
}

/** A RegExp matching one path segment (no `/`) against a brace-free glob. */
export function segmentRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\" && i + 1 < glob.length) re += escapeRe(glob[++i]!);
    else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) {
        re += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith("^") || body.startsWith("!");
      if (negate) body = body.slice(1);
      re += `[${negate ? "^" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      i = end;
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`, "s");
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** Does a file name match `glob` (Spark's pathGlobFilter, braces included)? */
export function globMatcher(glob: string): (name: string) => boolean {
  const res = expandBraces(glob).map(segmentRegExp);
  return (name) => res.some((r) => r.test(name));
}

/** The existing paths `pattern` matches (absolute, sorted); empty when none. */
export function expandGlob(pattern: string): string[] {
  const out = new Set<string>();
  for (const alt of expandBraces(pattern)) {
    const abs = resolve(alt);
    const segs = abs.split(sep).filter((s) => s !== "");
    let current: string[] = [sep];
    for (const seg of segs) {
      const next: string[] = [];
      if (!hasGlob(seg)) {
        const lit = seg.replace(/\\(.)/g, "$1");
        for (const dir of current) {
          const p = join(dir, lit);
          try {
            if (statSync(p, { throwIfNoEntry: false })) next.push(p);
          } catch {
            // below a file (ENOTDIR): nothing there
          }
        }
      } else {
        const re = segmentRegExp(seg);
        for (const dir of current) {
          let names: string[];
          try {
            names = readdirSync(dir);
          } catch {
            continue; // a file, or unreadable: nothing below it
          }
          for (const n of names.sort()) if (re.test(n)) next.push(join(dir, n));
        }
      }
      current = next;
      if (current.length === 0) break;
    }
    for (const p of current) out.add(p);
  }
  return [...out].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
