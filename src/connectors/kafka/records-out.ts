/**
 * Rows to Kafka records for the sink: Spark's KafkaWriter column checks (value required,
 * key/value STRING or BINARY, topic STRING unless the `topic` option is set, partition INT,
 * headers ARRAY<STRUCT<key STRING, value BINARY>>).
 */

import type { Batch } from "../../columnar/batch.js";
import { binaryOf } from "../../columnar/binary.js";
import { utf8Of } from "../../columnar/utf8.js";
import { getValue, type Vector } from "../../columnar/vector.js";
import { AnalysisException, ArusError } from "../../common/errors.js";
import type { DataType, StructType } from "../../types/datatypes.js";
import { estimatedRecordSize, type OutRecord } from "./client.js";

export interface Layout {
  readonly value: number;
  readonly key: number | null;
  readonly topic: number | null;
  readonly partition: number | null;
  readonly headers: number | null;
}

const isText = (t: DataType) => t.kind === "string" || t.kind === "binary";

/** Spark's KafkaWriter.validateQuery: raised at start(), before any batch runs. */
export function checkSinkSchema(names: readonly string[], schema: StructType, topicOption: string | null): Layout {
  const idx = (n: string) => {
    const i = names.indexOf(n);
    return i < 0 ? null : i;
  };
  const topic = idx("topic");
  if (topicOption === null) {
    if (topic === null) {
      throw new AnalysisException(
        "KAFKA_TOPIC_REQUIRED",
        "topic option required when no 'topic' attribute is present. Use the topic option for setting a topic.",
      );
    }
    if (schema.fields[topic]!.type.kind !== "string") throw new AnalysisException("KAFKA_SCHEMA", "Topic type must be a string");
  }
  const value = idx("value");
  if (value === null) throw new AnalysisException("KAFKA_SCHEMA", "Required attribute 'value' not found");
  if (!isText(schema.fields[value]!.type)) {
    throw new AnalysisException("KAFKA_SCHEMA", "value attribute type must be a string or binary");
  }
  const key = idx("key");
  if (key !== null && !isText(schema.fields[key]!.type)) {
    throw new AnalysisException("KAFKA_SCHEMA", "key attribute type must be a string or binary");
  }
  const partition = idx("partition");
  if (partition !== null && schema.fields[partition]!.type.kind !== "int") {
    throw new AnalysisException("KAFKA_SCHEMA", "partition attribute type must be an int");
  }
  const headers = idx("headers");
  if (headers !== null) {
    const t = schema.fields[headers]!.type;
    const ok =
      t.kind === "array" &&
      t.elementType.kind === "struct" &&
      t.elementType.fields.length === 2 &&
      t.elementType.fields[0]!.name === "key" &&
      t.elementType.fields[0]!.type.kind === "string" &&
      t.elementType.fields[1]!.name === "value" &&
      t.elementType.fields[1]!.type.kind === "binary";
    if (!ok) throw new AnalysisException("KAFKA_SCHEMA", "headers attribute type must be a array<struct<key:string,value:binary>>");
  }
  return { value, key, topic: topicOption === null ? topic : null, partition, headers };
}

/**
 * Row i's bytes, null for NULL: a UTF-8 STRING vector's (to_json's output) or a contiguous
 * BINARY vector's rows are views of their bytes (no string decoded and encoded again).
 */
function bytesOf(v: Vector): (i: number) => Uint8Array | null {
  const u = utf8Of(v) ?? binaryOf(v);
  if (u !== undefined) {
    const { bytes, offsets } = u;
    return (i) =>
      v.validity !== null && v.validity[i] === 0
        ? null
        : Buffer.from(bytes.buffer, bytes.byteOffset + offsets[i]!, offsets[i + 1]! - offsets[i]!);
  }
  return (i) => {
    const x = getValue(v, i);
    if (x === null || x === undefined) return null;
    return typeof x === "string" ? Buffer.from(x, "utf8") : (x as Uint8Array);
  };
}

export function toRecords(layout: Layout, batches: readonly Batch[], topicOption: string | null): OutRecord[] {
  const out: OutRecord[] = [];
  for (const b of batches) {
    const c = b.columns;
    const key = layout.key === null ? null : bytesOf(c[layout.key]!);
    const value = bytesOf(c[layout.value]!);
    for (let i = 0; i < b.numRows; i++) {
      const topic = topicOption ?? (getValue(c[layout.topic!]!, i) as string | null);
      if (topic === null) {
        throw new ArusError("KAFKA_NULL_TOPIC", "null topic present in the data. Use the topic option for setting a topic.");
      }
      const h = layout.headers === null ? null : (getValue(c[layout.headers]!, i) as { key: string; value: Uint8Array | null }[] | null);
      out.push({
        topic,
        partition: layout.partition === null ? null : (getValue(c[layout.partition]!, i) as number | null),
        key: key === null ? null : key(i),
        value: value(i),
        headers: h ? h.map((x) => ({ key: x.key, value: x.value ?? null })) : [],
      });
    }
  }
  return out;
}

/**
 * Kafka's producer check (KafkaProducer.ensureValidRecordSize), in its words, for every record
 * before any is sent: a batch with a record too large writes nothing.
 */
export function checkRecordSizes(records: readonly OutRecord[], maxRequestSize: number): void {
  for (const r of records) {
    const size = estimatedRecordSize(r);
    if (size > maxRequestSize) {
      throw new ArusError(
        "KAFKA_RECORD_TOO_LARGE",
        `The message is ${size} bytes when serialized which is larger than ${maxRequestSize}, which is the value of the max.request.size configuration. (A record for topic ${r.topic}; set the sink option kafka.max.request.size to allow larger records.)`,
      );
    }
  }
}
