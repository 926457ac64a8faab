/**
 * Crash injection for the exactly-once Kafka sink (kafka-crash-driver.ts): a Kafka → Kafka
 * query is SIGKILLed at random moments and restarted, ARUS_KAFKA_CRASH_KILLS times (default
 * 50; `npm run soak` runs 1 000). At the end, the output topic read with read_committed holds
 * every input record exactly once. Needs ARUS_KAFKA_BOOTSTRAP.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kafkaBootstrap, kafkaSkip } from "../connectors/kafka-helpers.js";
import { tempDirs } from "../temp-dirs.js";
import { kafkaCrashLoop } from "./kafka-crash-driver.js";

const tempDir = tempDirs("arus-kafka-crash-");
const KILLS = Number(process.env.ARUS_KAFKA_CRASH_KILLS ?? 50);

describe("exactly-once Kafka sink under SIGKILL", kafkaSkip(), () => {
  it(`holds every input record exactly once for read_committed after ${KILLS} kills`, { timeout: 900_000 }, async () => {
    const seed = Number(process.env.ARUS_CRASH_SEED ?? Date.now() % 1_000_000);
    const r = await kafkaCrashLoop({ bootstrap: kafkaBootstrap()!, kills: KILLS, seed, workDir: await tempDir() });
    assert.equal(r.kills, KILLS);
    assert.equal(r.duplicates, 0, `seed ${seed}: ${r.duplicates} duplicated records`);
    assert.equal(r.missing, 0, `seed ${seed}: ${r.missing} input records missing`);
    assert.equal(r.unexpected, 0, `seed ${seed}: ${r.unexpected} unexpected records`);
    assert.equal(r.outputRecords, r.inputRecords);
  });
});
