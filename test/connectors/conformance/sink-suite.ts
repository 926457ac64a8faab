/**
 * The streaming sink conformance suite (not a test file itself): every sink passes it.
 * `sinkConformance(name, harness)` registers the tests under `describe(name)`.
 *
 * The contract (src/connectors/sink.ts), as checked here, for each output mode the sink accepts:
 *   - exactly-once sinks (memory, file, table): the result is every batch's rows in append and
 *     update mode and the last batch's rows in complete mode; a replayed batch id changes
 *     nothing, also when it reaches a new sink instance after a restart (where the sink is
 *     durable);
 *   - at-least-once sinks (console, foreachBatch): every addBatch is delivered once, in order, and
 *     a replay arrives again with the same batch id and the same rows;
 *   - `stop()` (where defined) resolves and leaves the output readable.
 * Rows are compared as text (console prints them), so the data has no nulls.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { batchFromRows } from "../../../src/columnar/batch.js";
import type { SinkBatch, StreamSink } from "../../../src/connectors/sink.js";
import { field, IntegerType, StringType, StructOf } from "../../../src/types/datatypes.js";

export type OutputMode = "append" | "update" | "complete";
export type Skip = { skip: string };

export interface SinkFixture {
  /** A sink for `mode` over this fixture's output and checkpoint; called again for a restart. */
  open(mode: OutputMode): StreamSink | Promise<StreamSink>;
  /** Exactly-once sinks: the rows the sink's output holds now. */
  result?(): Promise<unknown[][]>;
  /** At-least-once sinks: every delivery so far, in order. */
  deliveries?(): Promise<{ batchId: number; rows: unknown[][] }[]>;
  close?(): Promise<void>;
}

export interface SinkHarness {
  /** The output modes the sink accepts. */
  modes: readonly OutputMode[];
  delivery: "exactly-once" | "at-least-once";
  /** Exactly-once sinks: whether a new instance (a restarted query) still skips replays. */
  durable: true | Skip;
  setup(): Promise<SinkFixture>;
  /**
   * Modes the sink accepts whose result contract does not hold for it, with the reason (a log
   * such as Kafka keeps every complete-mode batch, not only the last).
   */
  modeSkips?: Partial<Record<OutputMode, string>>;
  /** Skips the whole suite with this message (a connector whose service is not there). */
  skip?: string | false;
}

/** The schema every sink is fed: `id INT, cat STRING`. */
export const SINK_SCHEMA = StructOf([field("id", IntegerType, false), field("cat", StringType, false)]);

export const BATCHES: readonly (readonly unknown[][])[] = [
  [
    [1, "a"],
    [2, "b"],
  ],
  [[3, "c"]],
  [
    [4, "d"],
    [5, "e"],
  ],
];

export function sinkBatch(rows: readonly unknown[][], outputMode: OutputMode): SinkBatch {
  return {
    names: ["id", "cat"],
    schema: SINK_SCHEMA,
    batches: rows.length ? [batchFromRows([IntegerType, StringType], rows)] : [],
    outputMode,
    timeZone: "UTC",
  };
}

const text = (rows: readonly (readonly unknown[])[]) => rows.map((r) => r.map((v) => String(v)).join("|")).sort();

function skipReason<T>(v: T | Skip): string | undefined {
  return typeof v === "object" && v !== null && "skip" in v ? v.skip : undefined;
}

async function withFixture(h: SinkHarness, body: (f: SinkFixture) => Promise<void>): Promise<void> {
  const f = await h.setup();
  try {
    await body(f);
  } finally {
    await f.close?.();
  }
}

/** The result an exactly-once sink must show after batches `ids` (each once). */
function expected(mode: OutputMode, ids: readonly number[]): string[] {
  if (ids.length === 0) return [];
  return mode === "complete" ? text(BATCHES[ids.at(-1)!]!) : text(ids.flatMap((i) => BATCHES[i]!));
}

export function sinkConformance(name: string, h: SinkHarness): void {
  const once = h.delivery === "exactly-once";
  async function check(f: SinkFixture, mode: OutputMode, delivered: readonly number[], context: string): Promise<void> {
    if (once) {
      assert.ok(f.result, "an exactly-once fixture needs result()");
      assert.deepEqual(text(await f.result()), expected(mode, [...new Set(delivered)]), `${context}: result`);
    } else {
      assert.ok(f.deliveries, "an at-least-once fixture needs deliveries()");
      const got = await f.deliveries();
      assert.deepEqual(
        got.map((d) => ({ batchId: d.batchId, rows: text(d.rows) })),
        delivered.map((id) => ({ batchId: id, rows: text(BATCHES[id]!) })),
        `${context}: deliveries`,
      );
    }
  }

  describe(`sink conformance: ${name}`, { skip: h.skip || undefined }, () => {
    for (const mode of h.modes) {
      const modeSkip = h.modeSkips?.[mode];
      if (modeSkip) {
        test(`${mode}: the result contract`, { skip: modeSkip }, () => {});
        continue;
      }
      test(`${mode}: each batch is delivered`, () =>
        withFixture(h, async (f) => {
          const sink = await f.open(mode);
          for (const id of [0, 1, 2]) await sink.addBatch(id, sinkBatch(BATCHES[id]!, mode));
          await check(f, mode, [0, 1, 2], mode);
          await sink.stop?.();
        }));

      test(`${mode}: a replayed batch id ${once ? "changes nothing" : "is delivered again with the same rows"}`, () =>
        withFixture(h, async (f) => {
          const sink = await f.open(mode);
          await sink.addBatch(0, sinkBatch(BATCHES[0]!, mode));
          await sink.addBatch(1, sinkBatch(BATCHES[1]!, mode));
          await sink.addBatch(1, sinkBatch(BATCHES[1]!, mode));
          await check(f, mode, [0, 1, 1], `${mode} after replaying batch 1`);
          await sink.addBatch(2, sinkBatch(BATCHES[2]!, mode));
          await check(f, mode, [0, 1, 1, 2], `${mode} after batch 2`);
          await sink.stop?.();
        }));

      test(
        `${mode}: a new sink after a restart skips the replayed batch`,
        { skip: once ? skipReason(h.durable) : "at-least-once: a restarted sink delivers the replay again, like any replay" },
        () =>
          withFixture(h, async (f) => {
            const a = await f.open(mode);
            await a.addBatch(0, sinkBatch(BATCHES[0]!, mode));
            await a.addBatch(1, sinkBatch(BATCHES[1]!, mode));
            await a.stop?.();
            const b = await f.open(mode);
            await b.addBatch(1, sinkBatch(BATCHES[1]!, mode));
            await check(f, mode, [0, 1], `${mode} after replaying batch 1 on a new sink`);
            await b.addBatch(2, sinkBatch(BATCHES[2]!, mode));
            await check(f, mode, [0, 1, 2], `${mode} after batch 2 on the new sink`);
            await b.stop?.();
          }),
      );
    }

    test("stop() resolves and leaves the output readable", () =>
      withFixture(h, async (f) => {
        const mode = h.modes.find((m) => !h.modeSkips?.[m]) ?? h.modes[0]!;
        const sink = await f.open(mode);
        await sink.addBatch(0, sinkBatch(BATCHES[0]!, mode));
        await sink.stop?.();
        await check(f, mode, [0], "after stop");
      }));
  });
}
