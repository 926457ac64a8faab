/**
 * Spark's Kafka schema and the conversion of fetched records into a columnar batch (only the
 * columns the schema asks for). `key` and `value` arrive as one buffer + offsets each; with
 * `arus.columnar.utf8Strings` on they stay so (columnar/binary.ts: no object per record, and
 * CAST(value AS STRING) / from_json read the bytes), off they become a Buffer view per record.
 */

import { type Batch, makeBatch } from "../../columnar/batch.js";
import { binaryVector, binaryViews } from "../../columnar/binary.js";
import { tagRowOrigin } from "../../columnar/row-origin.js";
import { utf8Strings } from "../../columnar/utf8-conf.js";
import { makeVector, type Vector } from "../../columnar/vector.js";
import { IllegalArgumentException } from "../../common/errors.js";
import {
  ArrayOf,
  BinaryType,
  field,
  IntegerType,
  LongType,
  StringType,
  StructOf,
  type StructType,
  TimestampType,
} from "../../types/datatypes.js";
import type { FetchedColumns, TopicPartition } from "./client.js";

export const HEADERS_TYPE = ArrayOf(StructOf([field("key", StringType), field("value", BinaryType)]));

export function kafkaSchema(includeHeaders: boolean): StructType {
  const fields = [
    field("key", BinaryType),
    field("value", BinaryType),
    field("topic", StringType),
    field("partition", IntegerType),
    field("offset", LongType),
    field("timestamp", TimestampType),
    field("timestampType", IntegerType),
  ];
  if (includeHeaders) fields.push(field("headers", HEADERS_TYPE));
  return StructOf(fields);
}

export function fixedSchema(userSchema: StructType | null, includeHeaders: boolean): StructType {
  if (userSchema) throw new IllegalArgumentException("Kafka source has a fixed schema and cannot be set with a custom one");
  return kafkaSchema(includeHeaders);
}

export function columnsToBatch(schema: StructType, tp: TopicPartition, c: FetchedColumns): Batch {
  const n = c.count;
  const cols: Vector[] = schema.fields.map((f) => {
    switch (f.name) {
      case "key":
      case "value": {
        const b = (f.name === "key" ? c.keys : c.values).values();
        const validity = b.validity === null ? null : b.validity.subarray(0, n);
        if (utf8Strings()) return binaryVector(f.type, b, validity, n);
        return makeVector(f.type, binaryViews(b, validity, n), validity, n);
      }
      case "topic":
        return makeVector(f.type, new Array<unknown>(n).fill(tp.topic), null, n);
      case "partition":
        return makeVector(f.type, new Int32Array(n).fill(tp.partition), null, n);
      case "offset":
        return makeVector(f.type, c.offsets.subarray(0, n), null, n);
      case "timestamp": {
        const a = new Float64Array(n);
        for (let i = 0; i < n; i++) a[i] = c.timestamps[i]! * 1000;
        return makeVector(f.type, a, null, n);
      }
      case "timestampType":
        return makeVector(f.type, Int32Array.from(c.timestampTypes.subarray(0, n)), null, n);
      case "headers": {
        const vals = new Array<unknown>(n);
        let validity: Uint8Array | null = null;
        for (let i = 0; i < n; i++) {
          const h = c.headers[i]!;
          if (h.length === 0) {
            vals[i] = null;
            (validity ??= new Uint8Array(n).fill(1))[i] = 0;
          } else vals[i] = h.map((x) => ({ key: x.key, value: x.value }));
        }
        return makeVector(f.type, vals, validity, n);
      }
      default:
        throw new Error(`no column ${f.name} in the Kafka schema`);
    }
  });
  // An error on a row (from_json FAILFAST) names the record it came from.
  return tagRowOrigin(
    makeBatch(cols, n),
    (i) => `topic ${tp.topic}, partition ${tp.partition}, offset ${i < n ? c.offsets[i] : undefined}`,
  );
}
