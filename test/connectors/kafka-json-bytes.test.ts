// The Kafka JSON idiom on a real broker (ARUS_KAFKA_BOOTSTRAP): records with tricky values
// (invalid UTF-8, line breaks, NULL, the literal null, arrays, non-ASCII) read with
// `arus.columnar.utf8Strings` on and off give the same from_json rows and cast strings, and
// writing to_json(struct(...)) back through the sink gives the same record bytes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { OutRecord } from "../../src/connectors/kafka/client.js";
import { functions as F, Session } from "../../src/index.js";
import { kafkaBootstrap, kafkaSkip, newTopic, testClient } from "./kafka-helpers.js";

const bootstrap = kafkaBootstrap() ?? "";
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const SCHEMA = "a INT, s STRING, t STRUCT<x: DOUBLE>";

const VALUES: (Buffer | null)[] = [
  Buffer.from('{"a":1,"s":"plain"}'),
  null,
  Buffer.from("null"),
  Buffer.from("  "),
  Buffer.from('{"a":2,\n"s":"line\\nbreak"}'),
  Buffer.from('{"a":3,\r\n"s":"crlf"}'),
  Buffer.from('[{"a":4}]'),
  Buffer.from('{"a":5,"s":"é€😀","t":{"x":1.5}}'),
  Buffer.concat([Buffer.from('{"a":6,"s":"'), Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]), Buffer.from('"}')]),
  Buffer.from([0x80, 0x81]),
  Buffer.from('{"a":"x","s":7}'),
  Buffer.from('{"a":8'),
  Buffer.from('\ufeff{"a":9}'),
  Buffer.from(`{"a":10,"s":"${"long ".repeat(80)}"}`),
];

async function produceBytes(topic: string, values: readonly (Buffer | null)[]): Promise<void> {
  const p = await testClient(bootstrap).producer();
  try {
    const recs: OutRecord[] = values.map((value, i) => ({ topic, partition: 0, key: Buffer.from(`k${i}`), value, headers: [] }));
    await p.send(recs);
  } finally {
    await p.close();
  }
}

async function rawValues(topic: string): Promise<(string | null)[]> {
  const client = testClient(bootstrap);
  const admin = await client.admin();
  const fetcher = await client.fetcher();
  try {
    const [tp] = await admin.partitions([topic]);
    const r = (await admin.offsetRange([tp!])).get(`${topic}-0`)!;
    return (await fetcher.fetch(tp!, r.earliest, r.latest)).map((rec) =>
      rec.value === null ? null : Buffer.from(rec.value).toString("hex"),
    );
  } finally {
    await Promise.all([admin.close(), fetcher.close()]);
  }
}

function withUtf8<T>(on: boolean, f: () => Promise<T>): Promise<T> {
  session.conf.set("arus.columnar.utf8Strings", String(on));
  return f().finally(() => session.conf.unset("arus.columnar.utf8Strings"));
}

describe("Kafka JSON values on bytes (real broker)", kafkaSkip(), () => {
  it("from_json(CAST(value AS STRING)) and the sink's to_json give the same with utf8Strings on and off", async () => {
    const topic = await newTopic(bootstrap, 1, "kjb");
    await produceBytes(topic, VALUES);
    const outs = { on: await newTopic(bootstrap, 1, "kjb-on"), off: await newTopic(bootstrap, 1, "kjb-off") };
    const read = () => session.read.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic).load();
    const rows = async (on: boolean) =>
      withUtf8(on, async () => {
        const df = read().select(
          F.col("offset"),
          F.from_json(F.col("value").cast("string"), SCHEMA).alias("j"),
          F.col("value").cast("string").alias("v"),
        );
        await df
          .select(F.col("offset").cast("string").alias("key"), F.to_json(F.struct(F.col("j"), F.col("v"))).alias("value"))
          .write.format("kafka")
          .option("kafka.bootstrap.servers", bootstrap)
          .option("topic", on ? outs.on : outs.off)
          .save();
        return (await df.collect()).map((r) => ({ ...r }));
      });
    const on = await rows(true);
    const off = await rows(false);
    assert.equal(on.length, VALUES.length);
    assert.deepStrictEqual(on, off);
    // what the per-row strings give
    const strings = VALUES.map((v) => (v === null ? null : new TextDecoder("utf-8", { ignoreBOM: true }).decode(v)));
    assert.deepStrictEqual(
      on.map((r) => r.v),
      strings,
    );
    const expected = await session
      .createDataFrame(
        strings.map((v) => ({ v })),
        "v STRING",
      )
      .select(F.from_json(F.col("v"), SCHEMA).alias("j"))
      .collect();
    assert.deepStrictEqual(
      on.map((r) => r.j),
      expected.map((r) => r.j),
    );
    assert.deepStrictEqual(on[2]!.j, null, "the literal null gives NULL");
    assert.deepStrictEqual(await rawValues(outs.on), await rawValues(outs.off));
  });
});
