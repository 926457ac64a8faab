/**
 * `npm run test:conformance:kafka`: the Kafka source and sink against real PySpark reading the
 * same topics (conformance/README.md, "Kafka").
 *
 * 1. creates one topic per case on ARUS_KAFKA_BOOTSTRAP and produces its records once (the
 *    producer sets the timestamps, so both engines read the very same records);
 * 2. sink cases: arus writes its output topic first;
 * 3. spark_kafka_runner.py runs every case in one JVM (Spark's Kafka connector from
 *    scripts/spark-kafka-jars.sh, passed with spark.jars) and writes its own output topics;
 * 4. arus runs every case; sink cases read back both output topics;
 * 5. compares rows per batch, batch ids, schema, progress (numInputRows, watermark, state
 *    operators, and sources[].startOffset/endOffset/latestOffset), the checkpoint's offsets/N,
 *    and for sink cases the records of both output topics; writes conformance/KAFKA-REPORT.md.
 *
 * Without a broker it skips with a message, unless ARUS_REQUIRE_KAFKA=1 (CI), which fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { kafkajsClient } from "../../src/connectors/kafka/client-kafkajs.js";
import { type CaseOutcome, compareResults, type Diff, diffRows, readResult, stableStringify } from "../compare.js";
import { venvPython } from "../run.js";
import { runArusKafkaCase } from "./arus_kafka.js";
import { KAFKA_CASES, type KafkaCaseDef, type KafkaSpec } from "./cases.js";
import { KAFKA_KNOWN_DIFFERENCES } from "./known-differences.js";

const HERE = import.meta.dirname;
const REPO = resolve(HERE, "..", "..");
const OUT = join(HERE, "..", ".cache", "kafka");
const SKIP =
  'no Kafka broker: set ARUS_KAFKA_BOOTSTRAP (export ARUS_KAFKA_BOOTSTRAP="$(scripts/kafka.sh start)") to run the Kafka conformance suite';

function client(bootstrap: string) {
  return kafkajsClient({
    bootstrapServers: bootstrap,
    clientId: "arus-kafka-conformance",
    connectTimeoutMs: 5000,
    requestTimeoutMs: 30000,
    readCommitted: false,
  });
}

async function setUpTopics(bootstrap: string, defs: readonly KafkaCaseDef[]): Promise<KafkaSpec[]> {
  const c = client(bootstrap);
  const admin = await c.admin();
  const producer = await c.producer();
  const run = Date.now().toString(36);
  const specs: KafkaSpec[] = [];
  try {
    for (const d of defs) {
      const topic = `conf-${d.id.replace(/\W+/g, "-")}-${run}`;
      await admin.createTopic(topic, d.partitions);
      await producer.send(
        d.records.map((r) => ({
          topic,
          partition: r.partition,
          key: r.key == null ? null : Buffer.from(r.key),
          value: r.value === null ? null : Buffer.from(r.value),
          headers: (r.headers ?? []).map((h) => ({ key: h.key, value: h.value === null ? null : Buffer.from(h.value) })),
          ...(r.timestamp === undefined ? {} : { timestamp: r.timestamp }),
        })),
      );
      const spec: KafkaSpec = {
        id: d.id,
        topic,
        bootstrap,
        options: Object.fromEntries(Object.entries(d.options).map(([k, v]) => [k, v.replaceAll("$TOPIC", topic)])),
        outputMode: d.outputMode ?? "append",
        pyspark: d.pyspark,
        ...(d.expectError ? { expectError: d.expectError } : {}),
      };
      if (d.sink) {
        spec.sinkTopics = { spark: `${topic}-out-spark`, arus: `${topic}-out-arus` };
        await admin.createTopic(spec.sinkTopics.spark, d.sink.partitions);
        await admin.createTopic(spec.sinkTopics.arus, d.sink.partitions);
      }
      specs.push(spec);
    }
  } finally {
    await Promise.all([producer.close(), admin.close()]);
  }
  return specs;
}

function readJsonl(p: string): Record<string, unknown>[] {
  if (!existsSync(p)) return [];
  return readFileSync(p, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** sources[] offsets per progress entry, and the checkpoint's offsets/N files. */
function compareOffsets(sdir: string, adir: string): Diff[] {
  const diffs: Diff[] = [];
  for (const [file, what] of [
    ["sources.jsonl", "progress sources[0]"],
    ["offsets.jsonl", "checkpoint offsets/N"],
  ] as const) {
    const s = readJsonl(join(sdir, file));
    const a = readJsonl(join(adir, file));
    if (s.length !== a.length) diffs.push({ kind: "progress", message: `${what}: Spark has ${s.length} entries, arus ${a.length}` });
    for (let i = 0; i < Math.min(s.length, a.length); i++) {
      for (const k of Object.keys(s[i]!)) {
        const sv = stableStringify(s[i]![k]);
        const av = stableStringify(a[i]![k]);
        if (sv !== av)
          diffs.push({
            kind: "progress",
            batchId: Number(s[i]!.batchId),
            message: `${what} batch ${s[i]!.batchId} ${k}: Spark ${sv} vs arus ${av}`,
          });
      }
    }
  }
  return diffs;
}

/** Sink cases: both engines read the same topics alike, and the two output topics hold the same records. */
function compareReadBack(sdir: string, adir: string): Diff[] {
  const diffs: Diff[] = [];
  const rows = (d: string, which: string) => readJsonl(join(d, "readback", which, "rows.jsonl"));
  for (const which of ["spark", "arus"]) {
    const d = diffRows(rows(sdir, which), rows(adir, which));
    if (d.missing.length || d.unexpected.length)
      diffs.push({
        kind: "rows",
        message: `${which}'s output topic read back: arus misses ${d.missing.slice(0, 3).join(" ")} and has extra ${d.unexpected.slice(0, 3).join(" ")}`,
      });
    const ss = readFileSync(join(sdir, "readback", which, "schema.json"), "utf8");
    const as = existsSync(join(adir, "readback", which, "schema.json"))
      ? readFileSync(join(adir, "readback", which, "schema.json"), "utf8")
      : "";
    if (stableStringify(JSON.parse(ss)) !== stableStringify(as ? JSON.parse(as) : null))
      diffs.push({ kind: "schema", message: `${which}'s output topic read back: schema differs` });
  }
  // The offset of a record within its partition follows the order a batch's rows were written in,
  // which is the aggregation's hash order: compared without it.
  const noOffset = (r: Record<string, unknown>[]) => r.map(({ offset: _o, ...rest }) => rest);
  const d = diffRows(noOffset(rows(sdir, "spark")), noOffset(rows(sdir, "arus")));
  if (d.missing.length || d.unexpected.length)
    diffs.push({
      kind: "rows",
      message: `arus's sink wrote other records than Spark's: missing ${d.missing.slice(0, 3).join(" ")}, extra ${d.unexpected.slice(0, 3).join(" ")}`,
    });
  return diffs;
}

function report(outcomes: (CaseOutcome & { description: string })[], sparkVersion: string, seconds: number): void {
  const n = (v: string) => outcomes.filter((o) => o.verdict === v).length;
  const lines = [
    "# Kafka conformance report",
    "",
    "Regenerated by `npm run test:conformance:kafka`. Do not edit by hand.",
    "",
    `- Spark (PySpark) ${sparkVersion} with org.apache.spark:spark-sql-kafka-0-10_2.13:4.2.0; Kafka broker from scripts/kafka.sh`,
    "- Settings: local[1], spark.sql.shuffle.partitions=1, session time zone UTC, trigger availableNow, maxOffsetsPerTrigger per case",
    `- Result: ${n("pass")} passed, ${n("fail")} failed, ${n("known")} known differences, ${outcomes.length} cases, ${seconds.toFixed(0)} s`,
    "",
    "| case | result | what it checks | first difference / note |",
    "|---|---|---|---|",
    ...outcomes.map(
      (o) =>
        `| \`${o.id}\` | ${o.verdict === "fail" ? "**FAIL**" : o.verdict} | ${o.description.replace(/\|/g, "\\|")} | ${o.reason.replace(/\|/g, "\\|").replace(/\n/g, " ").slice(0, 200)} |`,
    ),
    "",
  ];
  writeFileSync(join(HERE, "..", "KAFKA-REPORT.md"), lines.join("\n"));
}

async function main() {
  const t0 = Date.now();
  const args = process.argv.slice(2);
  const filter = args.filter((a) => !a.startsWith("--"));
  const noSpark = args.includes("--no-spark");
  const bootstrap = process.env.ARUS_KAFKA_BOOTSTRAP?.trim();
  if (!bootstrap) {
    if (process.env.ARUS_REQUIRE_KAFKA === "1") throw new Error(`ARUS_REQUIRE_KAFKA=1 but ${SKIP}`);
    process.stdout.write(`kafka conformance: skipped (${SKIP})\n`);
    return;
  }
  const py = venvPython();
  if (!existsSync(py)) throw new Error(`no PySpark venv at ${py}: run scripts/setup-pyspark.sh first`);
  const jarsRun = spawnSync("bash", [join(REPO, "scripts", "spark-kafka-jars.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (jarsRun.status !== 0) throw new Error("scripts/spark-kafka-jars.sh failed (Spark's Kafka connector could not be fetched)");
  const jars = jarsRun.stdout.trim();

  const defs = KAFKA_CASES.filter((d) => filter.length === 0 || filter.some((f) => d.id.includes(f)));
  const byId = new Map(defs.map((d) => [d.id, d]));
  let specs: KafkaSpec[];
  if (noSpark) {
    // A developer's loop: the topics and Spark results of the last run, arus run again (its
    // sink cases into a new topic each, so the Spark-reads-arus check compares an earlier arus run).
    specs = (JSON.parse(readFileSync(join(OUT, "specs.json"), "utf8")) as KafkaSpec[]).filter((s) => byId.has(s.id));
    const admin = await client(bootstrap).admin();
    try {
      for (const [i, s] of specs.entries()) {
        if (!s.sinkTopics) continue;
        const fresh = { ...s, sinkTopics: { ...s.sinkTopics, arus: `${s.sinkTopics.arus}-${Date.now().toString(36)}` } };
        await admin.createTopic(fresh.sinkTopics.arus, byId.get(s.id)!.sink!.partitions);
        await runArusKafkaCase(byId.get(s.id)!, fresh, join(OUT, "arus", s.id), "sink-only");
        specs[i] = fresh;
      }
    } finally {
      await admin.close();
    }
  } else {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    specs = await setUpTopics(bootstrap, defs);
    for (const s of specs) if (s.sinkTopics) await runArusKafkaCase(byId.get(s.id)!, s, join(OUT, "arus", s.id), "sink-only");
    writeFileSync(join(OUT, "specs.json"), JSON.stringify(specs, null, 1));
    const sr = spawnSync(py, [join(HERE, "spark_kafka_runner.py"), join(OUT, "specs.json"), join(OUT, "spark"), jars], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (sr.status !== 0) throw new Error(`spark_kafka_runner.py exited with ${sr.status}`);
  }

  const outcomes: (CaseOutcome & { description: string })[] = [];
  let sparkVersion = "?";
  for (const s of specs) {
    const def = byId.get(s.id)!;
    const sdir = join(OUT, "spark", s.id);
    const adir = join(OUT, "arus", s.id);
    await runArusKafkaCase(def, s, adir, s.sinkTopics ? "read-back" : "query");
    const sres = readResult(sdir);
    sparkVersion = sres.meta.sparkVersion ?? sparkVersion;
    let o = compareResults(s.id, sres, readResult(adir), {}, def.expectError ?? null);
    if (o.verdict === "pass") {
      const diffs = [...compareOffsets(sdir, adir), ...(s.sinkTopics ? compareReadBack(sdir, adir) : [])];
      if (diffs.length) o = { id: s.id, verdict: "fail", reason: diffs[0]!.message, diffs };
    }
    const known = KAFKA_KNOWN_DIFFERENCES[s.id];
    if (known)
      o =
        o.verdict === "fail"
          ? { ...o, verdict: "known", reason: `known difference: ${known} (${o.reason})` }
          : { ...o, verdict: "fail", reason: "listed in kafka/known-differences.ts but passes now: remove it" };
    outcomes.push({ ...o, description: def.description });
    process.stderr.write(
      `[kafka-conformance] ${o.verdict.padEnd(4)} ${s.id}${o.verdict !== "pass" ? `: ${o.reason.slice(0, 300)}` : ""}\n`,
    );
    for (const d of o.diffs.slice(1, 8)) process.stderr.write(`    ${d.message.slice(0, 300)}\n`);
  }
  const seconds = (Date.now() - t0) / 1000;
  if (filter.length === 0 && !noSpark) report(outcomes, sparkVersion, seconds);
  const pass = outcomes.filter((o) => o.verdict === "pass").length;
  const fail = outcomes.filter((o) => o.verdict === "fail").length;
  const known = outcomes.filter((o) => o.verdict === "known").length;
  if (known) process.stdout.write(`kafka-conformance: ${known} known differences (conformance/KAFKA-REPORT.md)\n`);
  process.stdout.write(`kafka-conformance: ${seconds.toFixed(0)} s\nkafka-conformance: ${pass} passed, ${fail} failed\n`);
  if (fail > 0) process.exitCode = 1;
}

await main();
process.exit(process.exitCode ?? 0);
