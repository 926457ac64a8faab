/**
 * String kernels on one thread: ORDER BY a STRING key, `<` against a literal, contains / LIKE /
 * instr, max(STRING), over JS-string vectors and UTF-8 vectors (`arus.columnar.utf8Strings`;
 * each run on a fresh vector, so nothing decoded is reused), and the CSV reader with the flag
 * off and on (and on, then every string decoded). Three string shapes: short keys with a
 * common prefix, URLs with a long one, and keys holding an emoji or U+FF61 (where code-point
 * order needs more than JS's `<`).
 *
 *   nice node --expose-gc --import tsx bench/string-kernels.ts [--rows 200000] [--rounds 9] [--before path/to/old/src]
 *
 * `--before` loads a second copy of the engine from another checkout's sources (e.g. an older
 * commit unpacked with `git archive <commit> src package.json | tar -x -C /tmp/old`, with a
 * `node_modules` link) and runs every measurement on both, alternating within each round so the
 * machine's load moves both alike; cells read "before → after". Prints median ns per row.
 */
import path from "node:path";

const argv = process.argv.slice(2);
const get = (k: string) => (argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined);
const n = Number(get("--rows") ?? 200_000);
const rounds = Number(get("--rounds") ?? 9);
const before = get("--before");
const gc = (globalThis as { gc?: () => void }).gc;
const ctx = { timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi: false };
const BATCH = 32_768;

// biome-ignore lint/suspicious/noExplicitAny: two copies of the engine, loaded by path
type Module = any;

/** The entry points this benchmark uses, from one copy of the sources. */
async function engine(src: string): Promise<Record<string, Module>> {
  const load = (m: string) => import(path.join(src, m));
  return {
    ...(await load("columnar/utf8.js")),
    ...(await load("columnar/utf8-conf.js")),
    ...(await load("columnar/vector.js")),
    ...(await load("execution/operators/sort.js")),
    ...(await load("functions/index.js")),
    ...(await load("types/datatypes.js")),
    parseSchemaDdl: (await load("sql/datatype.js")).parseSchema,
    ...(await load("connectors/files/csv/csv-options.js")),
    ...(await load("connectors/files/csv/csv-scan.js")),
    ...(await load("connectors/files/datetime-text.js")),
    ...(await load("connectors/files/options.js")),
  };
}

const engines = await Promise.all([...(before ? [path.resolve(before)] : []), path.join(import.meta.dirname, "../src")].map(engine));

/**
 * Median ns per row of each run (each processes `rows` rows) over the rounds, after one untimed
 * warm-up round; the runs alternate within a round.
 */
function nsPerRow(rows: number, runs: (() => unknown)[], collect = false): number[] {
  const xs = runs.map(() => [] as number[]);
  for (let r = 0; r <= rounds; r++) {
    runs.forEach((run, k) => {
      // Large runs: none pays for the garbage of the one before (with --expose-gc). Not for the
      // small ones: a full GC every few ms ages their code out of V8's caches.
      if (collect) gc?.();
      const t = performance.now();
      run();
      if (r > 0) xs[k]!.push(((performance.now() - t) * 1e6) / rows);
    });
  }
  return xs.map((x) => x.sort((a, b) => a - b)[Math.floor(x.length / 2)]!);
}

/** One cell: the same measurement on every engine ("before → after"). */
function cell(rows: number, make: (e: Record<string, Module>) => () => unknown, collect = false): string {
  return nsPerRow(rows, engines.map(make), collect)
    .map((x) => x.toFixed(x < 100 ? 1 : 0))
    .join(" → ");
}

const shapes: [string, (i: number) => string][] = [
  ["short (`user_…`)", (i) => `user_${((i * 2654435761) % 1e9).toString(36)}`],
  ["URL (55-byte prefix)", (i) => `https://example.com/some/long/path/to/resource/items?id=${((i * 2654435761) % 1e9).toString(36)}`],
  ["emoji / U+FF61 (`😀_…`, `｡_…`)", (i) => `${i % 2 ? "😀" : "\uff61"}_${((i * 2654435761) % 1e9).toString(36)}`],
];

console.log(
  "| strings | ORDER BY, JS | ORDER BY, UTF-8 | < lit, JS | < lit, UTF-8 | contains, JS | contains, UTF-8 | LIKE '%a%b%', UTF-8 | instr, UTF-8 | max, JS |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
const order = [{ ascending: true, nullsFirst: true }];
for (const [name, make] of shapes) {
  const vals = Array.from({ length: BATCH }, (_, i) => make(i));
  const keys = Array.from({ length: n }, (_, i) => make(i));
  const middle = make(BATCH >> 1);
  const groups = Int32Array.from({ length: BATCH }, (_, i) => i % 100);
  const per = (e: Record<string, Module>) => {
    const bytes = e.utf8FromStrings(vals);
    return {
      plain: e.vectorFromValues(e.StringType, vals),
      fresh: () => e.utf8Vector(e.StringType, bytes, null, BATCH),
      lit: (s: string) => e.constantVector(e.StringType, s, BATCH),
      call: (f: string, args: unknown[]) => e.lookupFunction(f).kernel(args, BATCH, ctx),
    };
  };
  const sortPlain = engines.map((e) => e.vectorFromValues(e.StringType, keys));
  const sortBytes = engines.map((e) => e.utf8FromStrings(keys));
  const row = [
    cell(n, (e) => () => e.sortIndices([sortPlain[engines.indexOf(e)]], order, n)),
    cell(n, (e) => () => e.sortIndices([e.utf8Vector(e.StringType, sortBytes[engines.indexOf(e)], null, n)], order, n)),
    cell(BATCH, (e) => {
      const p = per(e);
      return () => p.call("<", [p.plain, p.lit(middle)]);
    }),
    cell(BATCH, (e) => {
      const p = per(e);
      return () => p.call("<", [p.fresh(), p.lit(middle)]);
    }),
    cell(BATCH, (e) => {
      const p = per(e);
      return () => p.call("contains", [p.plain, p.lit("ab")]);
    }),
    cell(BATCH, (e) => {
      const p = per(e);
      return () => p.call("contains", [p.fresh(), p.lit("ab")]);
    }),
    cell(BATCH, (e) => {
      const p = per(e);
      return () => p.call("like", [p.fresh(), p.lit("%a%b%")]);
    }),
    cell(BATCH, (e) => {
      const p = per(e);
      return () => p.call("instr", [p.fresh(), p.lit("ab")]);
    }),
    cell(BATCH, (e) => {
      const p = per(e);
      const max = e.lookupFunction("max");
      return () => {
        const acc = max.create([e.StringType]);
        acc.resize(100);
        acc.update(groups, BATCH, [p.plain]);
      };
    }),
  ];
  console.log(`| ${name} | ${row.join(" | ")} |`);
}

// CSV: the bid shape (3 STRING columns of 7).
const lines = Array.from(
  { length: n },
  (_, i) =>
    `${i},${i * 7},${i % 1000},channel-${i % 10},https://www.nexmark.com/item.htm?query=${i}&channel_id=${i % 97},2024-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z,extra${"x".repeat(i % 20)}`,
);
const csv = Buffer.from(`${lines.join("\n")}\n`);
const read = (utf8: boolean, decode: boolean) => (e: Record<string, Module>) => {
  const schema = e.parseSchemaDdl(
    "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP, extra STRING",
  );
  const so = new e.SourceOptions({});
  return () => {
    e.setUtf8Strings(utf8);
    const batches = e.readCsvBytes("bid.csv", csv, schema, e.csvReadOptions(so), e.dateTimeText(so, "UTC"));
    if (decode) for (const b of batches) for (const c of b.columns) if (c.type.kind === "string") void c.values.length;
  };
};
console.log("\n| CSV reader (7 columns, 3 STRING) | ns per line |");
console.log("| --- | ---: |");
for (const [label, utf8, decode] of [
  ["utf8Strings=false", false, false],
  ["utf8Strings=true", true, false],
  ["utf8Strings=true, every string decoded after", true, true],
] as const)
  console.log(`| ${label} | ${cell(n, read(utf8, decode), true)} |`);
