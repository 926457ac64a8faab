/**
 * `arus/testing`: the test kit for streaming queries — a manual clock and `testStream`, a
 * StreamTest-style runner over a MemoryStream, the kit's memory sink and a temporary
 * checkpoint. See docs/testing.md.
 *
 * @example
 * import { Session, functions as F } from "arus";
 * import { testStream, addData, checkAnswer, win } from "arus/testing";
 *
 * const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
 * const ms = session.memoryStream("id INT, ts TIMESTAMP");
 * const counts = ms.toDF().withWatermark("ts", "10 seconds").groupBy(F.window("ts", "10 seconds")).count();
 * await testStream(counts, "append", [
 *   addData(ms, [{ id: 1, ts: new Date(5_000) }, { id: 2, ts: new Date(25_000) }]),
 *   checkAnswer([{ window: win(0, 10_000), count: 1 }]),
 * ]);
 */
import "../index.js";

export type { Clock } from "../runtime/clock.js";
export { ManualClock } from "../runtime/clock.js";
export type { FailureMatcher, InputRow, QueryContext, StartOptions, StreamAction } from "./actions.js";
export {
  addData,
  advanceClock,
  assertOnQuery,
  awaitTermination,
  checkAnswer,
  checkLastBatch,
  checkNewRows,
  execute,
  expectFailure,
  processAllAvailable,
  startStream,
  stopStream,
} from "./actions.js";
export { StreamTestFailure } from "./failure-report.js";
export type { SinkBatchRows } from "./kit-sink.js";
export type { ExpectedRow } from "./rows.js";
export type { RunForOptions } from "./run-for.js";
export { runFor } from "./run-for.js";
export type { StreamTestResult, TestStreamOptions } from "./test-stream.js";
export { testStream } from "./test-stream.js";
export type { TwsTesterOptions } from "./tws-tester.js";
export { TwsTester } from "./tws-tester.js";
export { win } from "./values.js";
