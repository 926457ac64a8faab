/**
 * Child process of kafka-crash.test.ts (not a test file itself):
 *   node --import tsx test/recovery/kafka-crash-child.ts '{"bootstrap","input","output","checkpoint"}'
 * Kafka topic → Kafka topic with the exactly-once sink, availableNow, small batches. Prints
 * `ready` once the query started and `done` when it finished.
 */
import { Session } from "../../src/index.js";

const cfg = JSON.parse(process.argv[2]!) as { bootstrap: string; input: string; output: string; checkpoint: string };
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const q = await session.readStream
  .format("kafka")
  .option("kafka.bootstrap.servers", cfg.bootstrap)
  .option("subscribe", cfg.input)
  .option("startingOffsets", "earliest")
  .option("maxOffsetsPerTrigger", 7)
  .load()
  .selectExpr("key", "value")
  .writeStream.format("kafka")
  .option("kafka.bootstrap.servers", cfg.bootstrap)
  .option("topic", cfg.output)
  .option("arus.exactlyOnce", true)
  .option("checkpointLocation", cfg.checkpoint)
  .trigger({ availableNow: true })
  .start();
process.stdout.write("ready\n");
await q.awaitTermination();
process.stdout.write("done\n");
process.exit(0);
