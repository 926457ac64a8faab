/**
 * The docs cannot rot: every ```ts block of README.md, docs/porting.md, docs/monitoring.md and docs/stateful-processing.md (and
 * docs/testing.md's runFor example) is type-checked with the project's compiler settings and run, in order, with
 * `arus` and `arus/testing` resolved to this checkout's sources.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "../..");
const PAGES: [page: string, keep: (block: string) => boolean][] = [
  ["README.md", () => true],
  ["docs/porting.md", () => true],
  ["docs/testing.md", (b) => b.includes("runFor(")],
  ["docs/monitoring.md", () => true],
  ["docs/stateful-processing.md", () => true],
];

interface Block {
  page: string;
  line: number;
  code: string;
}

function blocks(): Block[] {
  const out: Block[] = [];
  for (const [page, keep] of PAGES) {
    const md = readFileSync(path.join(root, page), "utf8");
    for (const m of md.matchAll(/^```ts\n([\s\S]*?)^```/gm)) {
      if (!keep(m[1]!)) continue;
      out.push({ page, line: md.slice(0, m.index).split("\n").length, code: m[1]! });
    }
  }
  return out;
}

/** The block with the package's names pointing at src/ (the text is otherwise as written). */
function localized(code: string, fromDir: string): string {
  const rel = (p: string) => {
    const r = path.relative(fromDir, path.join(root, p)).split(path.sep).join("/");
    return r.startsWith(".") ? r : `./${r}`;
  };
  return code
    .replaceAll('from "arus/testing"', `from "${rel("src/testing/index.js")}"`)
    .replaceAll('from "arus"', `from "${rel("src/index.js")}"`);
}

const dir = mkdtempSync(path.join(root, ".arus-tmp-docs-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const all = blocks();
const files = all.map((b, i) => {
  const file = path.join(dir, `block${i}.ts`);
  // `export {}` makes each block a module of its own (top-level await, no clashing names).
  writeFileSync(file, `${localized(b.code, dir)}\nexport {};\n`);
  return file;
});

describe("code blocks of the docs", () => {
  it("there are blocks on every page", () => {
    for (const [page] of PAGES)
      assert.ok(
        all.some((b) => b.page === page),
        `no ts block found in ${page}`,
      );
  });
  it("type-check with the project's compiler settings", () => {
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../tsconfig.json", compilerOptions: { noEmit: true, rootDir: ".." }, include: ["*.ts"] }),
    );
    try {
      execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(dir, "tsconfig.json")], {
        cwd: root,
      });
    } catch (e) {
      const out = (e as { stdout?: Buffer }).stdout?.toString() ?? String(e);
      // Name the page and line of each failing block.
      const named = out.replace(
        /block(\d+)\.ts\((\d+)/g,
        (_, i, l) => `${all[Number(i)]!.page}:${all[Number(i)]!.line + Number(l)} (block${i}.ts(${l}`,
      );
      assert.fail(named);
    }
  });
  for (const [i, b] of all.entries()) {
    it(`runs ${b.page}:${b.line}`, async () => {
      await import(pathToFileURL(files[i]!).href);
    });
  }
});
