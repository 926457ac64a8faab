/**
 * Runs one Kafka differential case through arus and writes the layout spark_kafka_runner.py
 * writes (meta.json, schema.json, batch_ids.json, batches/, progress.jsonl, sources.jsonl,
 * offsets.jsonl, readback/<which>/ for sink cases).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { functions as F, Session } from "../../src/index.js";
import { compactProgress, typeString } from "../arus_runner.js";
import { canonRow } from "../canonical.js";
import type { KafkaCaseDef, KafkaSpec } from "./cases.js";

// biome-ignore lint/suspicious/noExplicitAny: progress and DataFrames as the conformance harness sees them
type Any = any;

export const READBACK_COLUMNS = ["key", "value", "partition", "offset", "timestampType", "headers"];

function schemaOf(df: Any): { name: string; type: string; nullable: boolean }[] {
  return (df.schema.fields as Any[]).map((f) => ({ name: f.name, type: typeString(f.dataType ?? f.type), nullable: f.nullable !== false }));
}

function jsonl(p: string, items: unknown[]): void {
  writeFileSync(p, items.map((x) => `${JSON.stringify(x)}\n`).join(""));
}

function plain(p: Any): Record<string, Any> {
  if (typeof p?.json === "string") return JSON.parse(p.json);
  if (typeof p?.json === "function") return JSON.parse(p.json());
  return JSON.parse(JSON.stringify(p, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));
}

/** The checkpoint's offsets/N files: the batch watermark of line 2 and the source JSON line 3 as text. */
export function checkpointOffsets(ck: string): { batchId: number; batchWatermarkMs: unknown; source: string }[] {
  const dir = join(ck, "offsets");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^\d+$/.test(f))
    .sort((a, b) => Number(a) - Number(b))
    .map((f) => {
      const lines = readFileSync(join(dir, f), "utf8").split("\n");
      return { batchId: Number(f), batchWatermarkMs: JSON.parse(lines[1]!).batchWatermarkMs, source: lines[2]! };
    });
}

function newSession() {
  return Session.builder()
    .appName("arus-kafka-conformance")
    .master("local[1]")
    .config("spark.sql.shuffle.partitions", "1")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate();
}

async function readBack(session: Any, bootstrap: string, topic: string, outdir: string): Promise<void> {
  const df = session.read
    .format("kafka")
    .option("kafka.bootstrap.servers", bootstrap)
    .option("subscribe", topic)
    .option("includeHeaders", "true")
    .load()
    .select(...READBACK_COLUMNS);
  mkdirSync(outdir, { recursive: true });
  const schema = schemaOf(df);
  jsonl(
    join(outdir, "rows.jsonl"),
    (await df.collect()).map((r: unknown) => canonRow(r, schema)),
  );
  writeFileSync(join(outdir, "schema.json"), JSON.stringify(schema, null, 1));
}

/**
 * The case's streaming query on arus. `mode` "sink-only" runs only the write into
 * `spec.sinkTopics.arus` (before Spark runs, so Spark can read it); "read-back" reads back the
 * sink topics of an earlier "sink-only" run; "query" is a foreachBatch case.
 */
export async function runArusKafkaCase(
  def: KafkaCaseDef,
  spec: KafkaSpec,
  outdir: string,
  mode: "query" | "sink-only" | "read-back",
): Promise<void> {
  if (mode !== "read-back") {
    rmSync(outdir, { recursive: true, force: true });
    mkdirSync(join(outdir, "batches"), { recursive: true });
  }
  const session: Any = newSession();
  const t0 = Date.now();
  const meta: Record<string, unknown> = { id: spec.id, status: "ok", error: null };
  const work = mkdtempSync(join(tmpdir(), "arus-kafka-conf-"));
  const ck = join(work, "checkpoint");
  try {
    if (mode === "read-back") {
      for (const which of ["spark", "arus"] as const)
        await readBack(session, spec.bootstrap, spec.sinkTopics![which], join(outdir, "readback", which));
      return;
    }
    const batches = new Map<number, unknown[]>();
    const batchIds: number[] = [];
    let schema: ReturnType<typeof schemaOf> | null = null;
    let progress: Record<string, Any>[] = [];
    try {
      let r = session.readStream.format("kafka").option("kafka.bootstrap.servers", spec.bootstrap);
      if (!("assign" in spec.options || "subscribePattern" in spec.options)) r = r.option("subscribe", spec.topic);
      for (const [k, v] of Object.entries(spec.options)) r = r.option(k, v);
      const q = def.arus(r.load(), F);
      let w = q.writeStream.outputMode(spec.outputMode).option("checkpointLocation", ck).trigger({ availableNow: true });
      if (mode === "sink-only") {
        schema = schemaOf(q);
        w = w.format("kafka").option("kafka.bootstrap.servers", spec.bootstrap).option("topic", spec.sinkTopics!.arus);
      } else {
        w = w.foreachBatch(async (bdf: Any, id: Any) => {
          const s = schemaOf(bdf);
          schema ??= s;
          batches.set(
            Number(id),
            (await bdf.collect()).map((row: unknown) => canonRow(row, s)),
          );
          batchIds.push(Number(id));
        });
      }
      const sq = await w.start();
      try {
        await sq.awaitTermination();
      } finally {
        progress = (sq.recentProgress ?? []).map(plain);
      }
    } catch (e) {
      meta.status = spec.expectError ? "expected-error" : "error";
      meta.error = { type: (e as Error).name, message: String((e as Error).stack ?? e) };
    }
    for (const [id, rows] of batches) jsonl(join(outdir, "batches", `${id}.jsonl`), rows);
    writeFileSync(join(outdir, "batch_ids.json"), JSON.stringify(batchIds));
    writeFileSync(join(outdir, "schema.json"), JSON.stringify(schema, null, 1));
    jsonl(
      join(outdir, "progress.jsonl"),
      progress.map((p) => compactProgress(p, 0)),
    );
    jsonl(
      join(outdir, "sources.jsonl"),
      progress.flatMap((p) =>
        (p.sources ?? []).slice(0, 1).map((s: Any) => ({
          batchId: Number(p.batchId),
          startOffset: s.startOffset ?? null,
          endOffset: s.endOffset ?? null,
          latestOffset: s.latestOffset ?? null,
        })),
      ),
    );
    jsonl(join(outdir, "offsets.jsonl"), checkpointOffsets(ck));
    meta.durationSec = (Date.now() - t0) / 1000;
    writeFileSync(join(outdir, "meta.json"), `${JSON.stringify(meta, null, 1)}\n`);
  } finally {
    for (const q of session.streams?.active ?? []) await q.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
