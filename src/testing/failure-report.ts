/**
 * What a failed testStream (test-stream.ts) reports: the StreamTestFailure with the script's
 * actions and a `=>` cursor at the failing one, a failed check's expected and actual rows, the
 * query's state and the sink's batches; and how expectFailure matches an error.
 */
import type { StreamingQuery } from "../api/streaming/query.js";
import type { OutputMode } from "../api/streaming/writer.js";
import type { ManualClock } from "../runtime/clock.js";
import type { TriggerSpec } from "../runtime/trigger.js";
import type { StructType } from "../types/datatypes.js";
import type { FailureMatcher, StreamAction } from "./actions.js";
import type { KitSink } from "./kit-sink.js";
import { type ExpectedRow, type RowDiff, renderRows } from "./rows.js";

/** A failed testStream: the message carries the action listing with a `=>` cursor. */
export class StreamTestFailure extends Error {
  override readonly name = "StreamTestFailure";
  constructor(
    message: string,
    /** Index of the failing action in the listing (implicit startStream included), or -1 after the last. */
    readonly actionIndex: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A check that failed with details to print (expected vs actual). */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly details: string,
  ) {
    super(message);
  }
}

/**
 * The failure of a check of `scope`: `diff` of `expected` against `actual` (the sink's rows
 * the check read), with a hint when `dataPending` (rows added since the manual clock last
 * moved, which a processingTime trigger has not processed yet).
 */
export function checkFailure(
  scope: "all" | "lastBatch" | "newRows",
  expected: readonly ExpectedRow[],
  actual: readonly unknown[],
  diff: RowDiff,
  sink: KitSink,
  dataPending: boolean,
): CheckFailure {
  const what = {
    all: "sink content",
    lastBatch: `last batch (${sink.lastBatch ? `batch ${sink.lastBatch.batchId}` : "no batch has run"})`,
    newRows: "rows since the previous check",
  }[scope];
  const lines = [`== Expected ${what} (${expected.length} ${plural(expected.length)}) ==`];
  for (const [i, t] of diff.expectedText.entries()) lines.push(`${diff.missing.has(i) ? "!  " : "   "}${t}`);
  lines.push(`== Actual ${what} (${actual.length} ${plural(actual.length)}) ==`);
  for (const [i, t] of diff.actualText.entries()) lines.push(`${diff.unexpected.has(i) ? "!  " : "   "}${t}`);
  lines.push("(! marks rows without a partner on the other side)");
  if (dataPending) {
    lines.push(
      "note: data was added after the last advanceClock; with a processingTime trigger it is processed once the clock reaches the next trigger",
    );
  }
  return new CheckFailure(
    `${what} does not match (expected ${expected.length} ${plural(expected.length)}, actual ${actual.length})`,
    lines.join("\n"),
  );
}

/** What the report shows of a testStream run, read when it fails. */
export interface RunState {
  readonly actions: readonly StreamAction[];
  /** The DataFrame's schema, to render a check's rows. */
  readonly schema: StructType;
  readonly tz: string;
  readonly mode: OutputMode;
  readonly trigger: TriggerSpec | undefined;
  readonly checkpointDir: string;
  readonly clock: ManualClock | null;
  readonly query: StreamingQuery | null;
  readonly pendingStartError: Error | null;
  readonly sink: KitSink;
}

/**
 * The error testStream rejects with when action `index` (-1: the end of the script) failed with
 * `e`: every action with a `=>` cursor at the failing one, a check's expected and actual rows,
 * the query's state and what the sink received batch by batch.
 */
export function failureOf(e: unknown, index: number, run: RunState): StreamTestFailure {
  if (e instanceof StreamTestFailure) return e;
  const err = e instanceof Error ? e : new Error(String(e));
  const label =
    index >= 0
      ? `action ${index + 1} of ${run.actions.length} (${describe(run.actions[index]!, run.schema, run.tz)})`
      : "the end of the script";
  const parts = [`testStream failed at ${label}: ${err.message}`, "", "== Actions =="];
  for (const [i, a] of run.actions.entries()) parts.push(`${i === index ? "=> " : "   "}${describe(a, run.schema, run.tz)}`);
  if (index < 0) parts.push("=> (end of script)");
  if (err instanceof CheckFailure) parts.push("", err.details);
  parts.push("", "== Stream ==", ...streamState(run), "", "== Sink (per batch) ==", ...sinkState(run));
  return new StreamTestFailure(parts.join("\n"), index, { cause: err instanceof CheckFailure ? undefined : err });
}

function streamState(run: RunState): string[] {
  const q = run.query;
  const lines = [
    `output mode: ${run.mode}; trigger: ${run.trigger ? JSON.stringify(run.trigger) : "default"}; checkpoint: ${run.checkpointDir}`,
  ];
  if (run.clock) lines.push(`manual clock: ${run.clock.now()} ms`);
  if (!q) {
    lines.push(run.pendingStartError ? `failed to start: ${run.pendingStartError.message}` : "not started");
    return lines;
  }
  lines.push(`active: ${q.isActive}; status: ${JSON.stringify(q.status)}`);
  const p = q.lastProgress;
  lines.push(
    p
      ? `last progress: batch ${p.batchId}, ${p.numInputRows} input rows, watermark ${p.eventTime?.watermark ?? "none"}`
      : "no progress yet",
  );
  if (q.exception) lines.push(`exception: ${q.exception.message}`);
  return lines;
}

function sinkState(run: RunState): string[] {
  const batches = run.sink.batches;
  if (!batches.length) return ["(no batches)"];
  const schema = run.sink.schema;
  const shown = batches.slice(-10);
  const lines = batches.length > shown.length ? [`... ${batches.length - shown.length} earlier batches`] : [];
  for (const b of shown) lines.push(`${b.batchId}: ${renderRows(b.rows, schema, run.tz, 6)}`);
  if (run.sink.replayedBatchIds.length) lines.push(`replayed (ignored) batch ids: ${run.sink.replayedBatchIds.join(", ")}`);
  return lines;
}

function plural(n: number): string {
  return n === 1 ? "row" : "rows";
}

/** true, or why the error does not match. */
export function matchFailure(err: Error, matcher: FailureMatcher | undefined): true | string {
  if (matcher === undefined) return true;
  const messages: string[] = [];
  for (let e: unknown = err; e instanceof Error && messages.length < 10; e = e.cause) messages.push(e.message);
  if (typeof matcher === "string")
    return messages.some((m) => m.includes(matcher)) ? true : `no message contains ${JSON.stringify(matcher)}`;
  if (matcher instanceof RegExp) return messages.some((m) => matcher.test(m)) ? true : `no message matches ${matcher}`;
  try {
    return matcher(err) === false ? "the predicate returned false" : true;
  } catch (e) {
    return `the predicate threw: ${(e as Error).message}`;
  }
}

export function describe(a: StreamAction, schema: StructType, tz: string): string {
  switch (a.kind) {
    case "addData":
      return `addData(MemoryStream[${a.source.schema.fields.map((f) => f.name).join(",")}], ${renderRows(a.rows, a.source.schema, tz)})`;
    case "check": {
      const name = { all: "checkAnswer", lastBatch: "checkLastBatch", newRows: "checkNewRows" }[a.scope];
      return `${name}(${renderRows(a.rows, schema, tz)})`;
    }
    case "advanceClock":
      return `advanceClock(${a.ms})`;
    case "startStream": {
      const o = a.options;
      const bits = [
        o.trigger ? `trigger=${JSON.stringify(o.trigger)}` : "",
        o.conf ? `conf=${JSON.stringify(o.conf)}` : "",
        o.clock ? "clock" : "",
      ].filter(Boolean);
      return `startStream(${bits.join(", ")})${a.implicit ? " [implicit]" : ""}`;
    }
    case "stopStream":
      return "stopStream()";
    case "expectFailure":
      return `expectFailure(${a.matcher === undefined ? "" : typeof a.matcher === "function" ? "<predicate>" : typeof a.matcher === "string" ? JSON.stringify(a.matcher) : String(a.matcher)})`;
    case "assertOnQuery":
      return a.sync ? `assertOnQuery(${a.message ?? "<fn>"})` : `execute(${a.message ?? "<fn>"})`;
    case "processAllAvailable":
      return "processAllAvailable()";
    case "awaitTermination":
      return "awaitTermination()";
    default: {
      const never: never = a;
      return String(never);
    }
  }
}
