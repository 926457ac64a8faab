/**
 * The `rate` source (Spark's RateStreamProvider): `rowsPerSecond` rows per second of wall
 * clock since the source was created, optional `rampUpTime`, spread over `numPartitions`.
 * The offset is whole seconds since creation, so data appears at second boundaries. The
 * creation time is kept in `<checkpoint>/sources/<i>/0` so a restart continues the sequence.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { nodeFs, writeAtomic } from "../../checkpoint/atomic-file.js";
import { type Batch, makeBatch } from "../../columnar/batch.js";
import { makeVector } from "../../columnar/vector.js";
import { IllegalArgumentException } from "../../common/errors.js";
import { durationMicros } from "../../common/interval.js";
import { LongType, TimestampType } from "../../types/datatypes.js";
import { findOption, intOption, registerSource } from "../registry.js";
import type { Offset, ReadLimit, SourceContext, StreamSource } from "../source.js";
import { parseSchemaText, RATE_SCHEMA } from "./schema.js";

/** Rows emitted before second s (Spark's valueAtSecond). */
export function valueAtSecond(s: number, rowsPerSecond: number, rampUpSeconds: number): number {
  const delta = Math.floor(rowsPerSecond / (rampUpSeconds + 1));
  if (s <= rampUpSeconds) return Math.floor((delta * s * (s + 1)) / 2);
  return Math.floor((delta * rampUpSeconds * (rampUpSeconds + 1)) / 2) + (s - rampUpSeconds) * rowsPerSecond;
}

/** Rows for values [from, to) with evenly spread timestamps, partition-major like Spark. */
export function rateRows(from: number, to: number, tsOf: (v: number) => number, numPartitions: number): Batch {
  const n = to - from;
  const ts = new Float64Array(n);
  const vals = new Float64Array(n);
  let k = 0;
  for (let p = 0; p < numPartitions; p++) {
    for (let v = from + p; v < to; v += numPartitions) {
      vals[k] = v;
      ts[k] = tsOf(v) * 1000;
      k++;
    }
  }
  return makeBatch([makeVector(TimestampType, ts, null, n), makeVector(LongType, vals, null, n)], n);
}

class RateSource implements StreamSource {
  readonly schema = RATE_SCHEMA;
  readonly supportsAvailableNow = false;
  readonly description: string;
  private creationMs: number | null = null;

  constructor(
    private readonly rowsPerSecond: number,
    private readonly rampUpSeconds: number,
    private readonly numPartitions: number,
    private readonly ctx: SourceContext,
    partitionsText: string,
  ) {
    this.description = `RateStreamV2[rowsPerSecond=${rowsPerSecond}, rampUpTimeSeconds=${rampUpSeconds}, numPartitions=${partitionsText}`;
  }

  private async creationTime(): Promise<number> {
    if (this.creationMs !== null) return this.creationMs;
    const dir = this.ctx.metadataDir;
    const file = dir ? path.join(dir, "0") : null;
    if (file) {
      const text = await fs.readFile(file, "utf8").catch(() => null);
      const m = text ? /^v1\n(\d+)/.exec(text) : null;
      if (m) return (this.creationMs = Number(m[1]));
    }
    const now = this.ctx.now();
    if (file) await writeAtomic(nodeFs, file, `v1\n${now}`, true);
    return (this.creationMs = now);
  }

  defaultReadLimit(): ReadLimit {
    return { kind: "all" };
  }
  async prepareForAvailableNow(): Promise<void> {}
  async latestOffset(): Promise<Offset | null> {
    const c = await this.creationTime();
    return Math.max(0, Math.floor((this.ctx.now() - c) / 1000));
  }
  async getBatch(start: Offset | null, end: Offset): Promise<Batch[]> {
    const c = await this.creationTime();
    const s0 = (start as number | null) ?? 0;
    const s1 = end as number;
    if (s1 <= s0) return [];
    const from = valueAtSecond(s0, this.rowsPerSecond, this.rampUpSeconds);
    const to = valueAtSecond(s1, this.rowsPerSecond, this.rampUpSeconds);
    if (to <= from) return [];
    const span = (s1 - s0) * 1000;
    const tsOf = (v: number) => c + s0 * 1000 + Math.round(((v - from) * span) / (to - from));
    return [rateRows(from, to, tsOf, this.numPartitions)];
  }
  async commit(): Promise<void> {}
  async stop(): Promise<void> {}
}

registerSource("rate", {
  schema: (_o, userSchema) => parseSchemaText(userSchema, "rate"),
  create(options, _schema, ctx) {
    const rowsPerSecond = intOption(options, "rowsPerSecond", 1, 1);
    const ramp = findOption(options, "rampUpTime");
    const rampUpSeconds =
      ramp === undefined ? 0 : Math.floor(durationMicros(/^\d+$/.test(ramp) ? `${ramp} seconds` : ramp, "rampUpTime") / 1e6);
    if (rampUpSeconds < 0) throw new IllegalArgumentException(`Invalid value '${ramp}' for option 'rampUpTime': must not be negative.`);
    const np = findOption(options, "numPartitions");
    const numPartitions = intOption(options, "numPartitions", 1, 1);
    return new RateSource(rowsPerSecond, rampUpSeconds, numPartitions, ctx, np ?? "default");
  },
});
