/**
 * The offset log (`offsets/N`): what batch N reads, written before the batch runs.
 * Format v1 as Spark: version line, metadata JSON (batch watermark, batch timestamp, sticky
 * confs), then one offset JSON per source ("-" when a source has none).
 */
import type { LogCodec } from "./metadata-log.js";

/** A source offset: any JSON value, written verbatim into `offsets/N`. */
export type Offset = string | number | boolean | null | Offset[] | { [k: string]: Offset };

export interface OffsetSeqMetadata {
  batchWatermarkMs: number;
  batchTimestampMs: number;
  conf: Record<string, string>;
}

export interface OffsetSeq {
  metadata: OffsetSeqMetadata;
  offsets: (Offset | null)[];
}

/** Confs frozen into the checkpoint at the first batch and re-applied on restart. */
export const STICKY_CONFS = [
  "spark.sql.shuffle.partitions",
  "spark.sql.streaming.stateStore.providerClass",
  "spark.sql.streaming.multipleWatermarkPolicy",
  "spark.sql.streaming.aggregation.stateFormatVersion",
  "spark.sql.streaming.stateStore.compression.codec",
  "arus.state.aggregation.columnar",
  "arus.state.aggregation.columnarStructs",
  "arus.state.join.columnar",
];

/**
 * The value a sticky conf had before arus recorded it: a checkpoint whose offset log lacks the
 * key was written with this behaviour, whatever the default is now.
 */
export const STICKY_CONF_BEFORE_RECORDED: Readonly<Record<string, string>> = {
  "arus.state.aggregation.columnar": "false",
  "arus.state.aggregation.columnarStructs": "false",
  "arus.state.join.columnar": "false",
};

export const offsetCodec: LogCodec<OffsetSeq> = {
  version: 1,
  serialize(e) {
    return [JSON.stringify(e.metadata), ...e.offsets.map((o) => (o === null ? "-" : JSON.stringify(o)))].join("\n");
  },
  deserialize(body, file) {
    const lines = body.split("\n");
    const meta = JSON.parse(lines[0]!) as Partial<OffsetSeqMetadata>;
    if (typeof meta.batchWatermarkMs !== "number" || typeof meta.batchTimestampMs !== "number") {
      throw new Error(`${file}: metadata line lacks batchWatermarkMs/batchTimestampMs`);
    }
    return {
      metadata: { batchWatermarkMs: meta.batchWatermarkMs, batchTimestampMs: meta.batchTimestampMs, conf: meta.conf ?? {} },
      offsets: lines.slice(1).map((l) => (l === "-" ? null : (JSON.parse(l) as Offset))),
    };
  },
};

export interface CommitMetadata {
  nextBatchWatermarkMs: number;
}

export const commitCodec: LogCodec<CommitMetadata> = {
  version: 1,
  serialize: (e) => JSON.stringify({ nextBatchWatermarkMs: e.nextBatchWatermarkMs }),
  deserialize(body, file) {
    const c = JSON.parse(body) as Partial<CommitMetadata> | null;
    if (typeof c !== "object" || c === null || Array.isArray(c)) throw new Error(`${file}: expected a JSON object`);
    return { nextBatchWatermarkMs: c.nextBatchWatermarkMs ?? 0 };
  },
};

/**
 * arus: the state stores whose version batchId + 1 has a file, per operator id (or
 * "<op>/<store name>"), their partitions as ranges like "0-3,7" (runtime/state-heads.ts). Kept
 * in `state/<op>/_metadata/writes/<batchId>` beside the operator's metadata, so `commits/N` and
 * the checkpoint's folders stay Spark's.
 */
export type StateWrites = Record<string, string>;

export const stateWritesCodec: LogCodec<StateWrites> = {
  version: 1,
  serialize: (e) => JSON.stringify(e),
  deserialize(body, file) {
    const w = JSON.parse(body) as unknown;
    if (typeof w !== "object" || w === null || Array.isArray(w) || !Object.values(w).every((v) => typeof v === "string"))
      throw new Error(`${file}: expected a JSON object of partition ranges`);
    return w as StateWrites;
  },
};
