/**
 * String kernels on one thread: ORDER BY a STRING key, `<` against a literal, contains / LIKE /
 * instr, max(STRING), over JS-string vectors and UTF-8 vectors (`arus.columnar.utf8Strings`;
 * each run on a fresh vector, so nothing decoded is reused), and the CSV reader with the flag
 * off and on (and on, then every string decoded). Three string shapes: short keys with a
 * common prefix, URLs with a long one, and keys holding an emoji (where code-point order needs
 * more than JS's `<`).
 *
 *   nice node --expose-gc --import tsx bench/string-kernels.ts [--rows 200000] [--rounds 9] [--src path/to/src]
 *
 * `--src` runs the same measurements against another checkout's sources (e.g. an older commit
 * unpacked with `git archive`), for before/after figures. Prints the median ns per row.
 */
import path from "node:path";

const argv = process.argv.slice(2);
const get = (k: string) => (argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined);
const n = Number(get("--rows") ?? 200_000);
const rounds = Number(get("--rounds") ?? 9);
const src = path.resolve(get("--src") ?? path.join(import.meta.dirname, "../src"));
const load = (m: string) => import(path.join(src, m));

const { utf8FromStrings, utf8Vector } = await load("columnar/utf8.js");
const { setUtf8Strings } = await load("columnar/utf8-conf.js");
const { constantVector, vectorFromValues } = await load("columnar/vector.js");
const { sortIndices } = await load("execution/operators/sort.js");
const { lookupFunction } = await load("functions/index.js");
const { StringType, parseSchemaDdl } = {
  ...(await load("types/datatypes.js")),
  parseSchemaDdl: (await load("sql/datatype.js")).parseSchema,
};
const { csvReadOptions } = await load("connectors/files/csv/csv-options.js");
const { readCsvBytes } = await load("connectors/files/csv/csv-scan.js");
const { dateTimeText } = await load("connectors/files/datetime-text.js");
const { SourceOptions } = await load("connectors/files/options.js");

const gc = (globalThis as { gc?: () => void }).gc;
const ctx = { timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi: false };
const BATCH = 32_768;

/**
 * Median ns per row of each run (each processes `rows` rows) over the rounds, after one untimed
 * warm-up round; the runs alternate within a round, so a change in the machine's load moves
 * them alike.
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

const shapes: [string, (i: number) => string][] = [
  ["short (`user_…`)", (i) => `user_${((i * 2654435761) % 1e9).toString(36)}`],
  ["URL (55-byte prefix)", (i) => `https://example.com/some/long/path/to/resource/items?id=${((i * 2654435761) % 1e9).toString(36)}`],
  ["emoji (`😀_…`, `\\uff61_…`)", (i) => `${i % 2 ? "😀" : "\uff61"}_${((i * 2654435761) % 1e9).toString(36)}`],
];

const fmt = (x: number) => x.toFixed(1).padStart(7);
console.log(
  "| strings | ORDER BY | < lit, JS | < lit, UTF-8 | contains, JS | contains, UTF-8 | LIKE '%a%b%', UTF-8 | instr, UTF-8 | max, JS |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const [name, make] of shapes) {
  const vals = Array.from({ length: BATCH }, (_, i) => make(i));
  const plain = vectorFromValues(StringType, vals);
  const u = utf8FromStrings(vals);
  const fresh = () => utf8Vector(StringType, u, null, BATCH);
  const lit = (s: string) => constantVector(StringType, s, BATCH);
  const call = (f: string, args: unknown[]) => () => lookupFunction(f).kernel(args, BATCH, ctx);
  const middle = make(BATCH >> 1);
  const order = [{ ascending: true, nullsFirst: true }];
  const sortKey = vectorFromValues(
    StringType,
    Array.from({ length: n }, (_, i) => make(i)),
  );
  const max = lookupFunction("max");
  const groups = Int32Array.from({ length: BATCH }, (_, i) => i % 100);
  const [sorted] = nsPerRow(n, [() => sortIndices([sortKey], order, n)]);
  const row = [
    sorted!,
    ...nsPerRow(BATCH, [
      call("<", [plain, lit(middle)]),
      () => call("<", [fresh(), lit(middle)])(),
      call("contains", [plain, lit("ab")]),
      () => call("contains", [fresh(), lit("ab")])(),
      () => call("like", [fresh(), lit("%a%b%")])(),
      () => call("instr", [fresh(), lit("ab")])(),
      () => {
        const acc = max.create([StringType]);
        acc.resize(100);
        acc.update(groups, BATCH, [plain]);
      },
    ]),
  ];
  console.log(`| ${name} | ${row.map(fmt).join(" | ")} |`);
}

// CSV: the bid shape (3 STRING columns of 7).
const lines = Array.from(
  { length: n },
  (_, i) =>
    `${i},${i * 7},${i % 1000},channel-${i % 10},https://www.nexmark.com/item.htm?query=${i}&channel_id=${i % 97},2024-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z,extra${"x".repeat(i % 20)}`,
);
const csv = Buffer.from(`${lines.join("\n")}\n`);
const schema = parseSchemaDdl("auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP, extra STRING");
const so = new SourceOptions({});
const read = (utf8: boolean, decode: boolean) => () => {
  setUtf8Strings(utf8);
  const batches = readCsvBytes("bid.csv", csv, schema, csvReadOptions(so), dateTimeText(so, "UTC"));
  if (decode) for (const b of batches) for (const c of b.columns) if (c.type.kind === "string") void c.values.length;
};
console.log("\n| CSV reader (7 columns, 3 STRING) | ns per line |");
console.log("| --- | ---: |");
const labels = ["utf8Strings=false", "utf8Strings=true", "utf8Strings=true, every string decoded after"];
const csvRates = nsPerRow(n, [read(false, false), read(true, false), read(true, true)], true);
for (const [k, label] of labels.entries()) console.log(`| ${label} | ${fmt(csvRates[k]!)} |`);
