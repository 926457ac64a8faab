/**
 * The actions of a `testStream` script (Spark's StreamTest actions), as plain data with a
 * `kind`; the runner in test-stream.ts handles every kind. Constructors below are the public
 * vocabulary.
 */
import type { MemoryStream } from "../api/streaming/memory-stream.js";
import type { StreamingQuery } from "../api/streaming/query.js";
import type { Row } from "../api/values.js";
import type { ManualClock } from "../runtime/clock.js";
import type { TriggerSpec } from "../runtime/trigger.js";
import type { SinkBatchRows } from "./kit-sink.js";
import type { ExpectedRow } from "./rows.js";

/** Rows for `addData`: objects keyed by column, or arrays in schema order. */
export type InputRow = Readonly<Record<string, unknown>> | readonly unknown[];

/** How to (re)start the query: each field overrides the testStream options for this start. */
export interface StartOptions {
  trigger?: TriggerSpec;
  /** Manual clock for a processingTime trigger (default: the kit's own, shared across restarts). */
  clock?: ManualClock;
  /** Session confs set before this start and restored when testStream ends. */
  conf?: Readonly<Record<string, string | number | boolean>>;
}

/** What `assertOnQuery` callbacks get besides the query. */
export interface QueryContext {
  /** The checkpoint directory every start of this testStream uses. */
  readonly checkpointLocation: string;
  /** The manual clock, when the trigger is processingTime with an interval. */
  readonly clock: ManualClock | null;
  /** The sink's batches so far (replayed batch ids are not stored twice). */
  readonly sinkBatches: readonly SinkBatchRows[];
  /** Batch ids the sink received again after a restart and ignored. */
  readonly replayedBatchIds: readonly number[];
  /** Whole sink content, as `checkAnswer` sees it. */
  readonly sinkRows: readonly Row[];
}

/** Matches an expected failure: a message pattern, a substring, or a predicate. */
/** A predicate rejects by returning `false` or throwing; any other result accepts. */
export type FailureMatcher = RegExp | string | ((error: Error) => unknown);

export type StreamAction =
  | { readonly kind: "addData"; readonly source: MemoryStream; readonly rows: readonly InputRow[] }
  | { readonly kind: "check"; readonly scope: "all" | "lastBatch" | "newRows"; readonly rows: readonly ExpectedRow[] }
  | { readonly kind: "advanceClock"; readonly ms: number }
  | { readonly kind: "startStream"; readonly options: StartOptions; readonly implicit: boolean }
  | { readonly kind: "stopStream" }
  | { readonly kind: "expectFailure"; readonly matcher: FailureMatcher | undefined }
  | {
      readonly kind: "assertOnQuery";
      readonly fn: (q: StreamingQuery, ctx: QueryContext) => unknown;
      readonly message: string | undefined;
      /** Process all available data first (false for `execute`). */
      readonly sync: boolean;
    }
  | { readonly kind: "processAllAvailable" }
  | { readonly kind: "awaitTermination" };

/** Append rows to a MemoryStream (one `addData` call = one block; the next trigger takes all new blocks). */
export function addData(source: MemoryStream, rows: readonly InputRow[]): StreamAction {
  return { kind: "addData", source, rows };
}
/** The whole sink content equals `rows` as a multiset (complete mode: the latest batch). */
export function checkAnswer(rows: readonly ExpectedRow[]): StreamAction {
  return { kind: "check", scope: "all", rows };
}
/** The output of the most recent batch equals `rows` (an empty no-data batch counts). */
export function checkLastBatch(rows: readonly ExpectedRow[]): StreamAction {
  return { kind: "check", scope: "lastBatch", rows };
}
/** The rows written since the previous check equal `rows` (Spark's CheckNewAnswer). */
export function checkNewRows(rows: readonly ExpectedRow[]): StreamAction {
  return { kind: "check", scope: "newRows", rows };
}
/** Move the manual clock forward; with a processingTime trigger this fires the due triggers. */
export function advanceClock(ms: number): StreamAction {
  return { kind: "advanceClock", ms };
}
/** (Re)start the query from the kit's checkpoint directory. */
export function startStream(options: StartOptions = {}): StreamAction {
  return { kind: "startStream", options, implicit: false };
}
export function stopStream(): StreamAction {
  return { kind: "stopStream" };
}
/**
 * The query fails: either the preceding `startStream` threw (analysis errors), or the running
 * query terminates with an exception. A RegExp / string is matched against the message of the
 * error and of its causes; a predicate gets the error (return false or throw to reject it).
 */
export function expectFailure(matcher?: FailureMatcher): StreamAction {
  return { kind: "expectFailure", matcher };
}
/** After processing all available data, `fn(query, ctx)` must not return false or throw. */
export function assertOnQuery(fn: (q: StreamingQuery, ctx: QueryContext) => unknown, message?: string): StreamAction {
  return { kind: "assertOnQuery", fn, message, sync: true };
}
/** Run `fn` right away, without waiting for the query to process anything. */
export function execute(fn: (q: StreamingQuery, ctx: QueryContext) => unknown, description?: string): StreamAction {
  return {
    kind: "assertOnQuery",
    fn: async (q, ctx) => {
      await fn(q, ctx);
    },
    message: description,
    sync: false,
  };
}
/** Wait until all available data is processed (checks do this implicitly). */
export function processAllAvailable(): StreamAction {
  return { kind: "processAllAvailable" };
}
/** Wait until the query ends by itself (triggers once / availableNow). */
export function awaitTermination(): StreamAction {
  return { kind: "awaitTermination" };
}
