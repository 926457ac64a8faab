/**
 * Child process of kafka-exit.test.ts (not a test file itself):
 *   node --import tsx test/connectors/kafka-exit-child.ts '{"bootstrap","input","output","eosOutput","checkpoint"}'
 * Runs what a user script does with Kafka, then stops everything and returns from the module
 * without process.exit: the process must end by itself. Prints `done` at the end.
 */
import { Session } from "../../src/index.js";

const cfg = JSON.parse(process.argv[2]!) as { bootstrap: string; input: string; output: string; eosOutput: string; checkpoint: string };
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const source = () =>
  session.readStream
    .format("kafka")
    .option("kafka.bootstrap.servers", cfg.bootstrap)
    .option("subscribe", cfg.input)
    .option("startingOffsets", "earliest")
    .load()
    .selectExpr("key", "upper(CAST(value AS STRING)) AS value");

// A long-running query, at-least-once sink, fetching from several partitions at once.
const q = await source()
  .writeStream.format("kafka")
  .option("kafka.bootstrap.servers", cfg.bootstrap)
  .option("topic", cfg.output)
  .option("checkpointLocation", `${cfg.checkpoint}/plain`)
  .trigger({ processingTime: "200 milliseconds" })
  .start();
await q.processAllAvailable();
await q.stop();

// The exactly-once sink, availableNow.
const eos = await source()
  .writeStream.format("kafka")
  .option("kafka.bootstrap.servers", cfg.bootstrap)
  .option("topic", cfg.eosOutput)
  .option("arus.exactlyOnce", true)
  .option("checkpointLocation", `${cfg.checkpoint}/eos`)
  .trigger({ availableNow: true })
  .start();
await eos.awaitTermination();

// A batch read and a batch write.
const rows = await session.read
  .format("kafka")
  .option("kafka.bootstrap.servers", cfg.bootstrap)
  .option("subscribe", cfg.input)
  .load()
  .count();
await session
  .createDataFrame([{ value: `rows=${rows}` }], "value STRING")
  .write.format("kafka")
  .option("kafka.bootstrap.servers", cfg.bootstrap)
  .option("topic", cfg.output)
  .save();

// A query still running when the session stops.
await source()
  .writeStream.format("memory")
  .queryName("still_running")
  .option("checkpointLocation", `${cfg.checkpoint}/memory`)
  .trigger({ processingTime: "200 milliseconds" })
  .start();
await session.stop();
process.stdout.write("done\n");
