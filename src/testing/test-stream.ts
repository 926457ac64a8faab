/**
 * `testStream(df, outputMode, actions, options)`: runs a streaming DataFrame as a script of
 * actions (Spark's StreamTest.testStream). The query writes to the kit's memory sink, uses a
 * temporary checkpoint directory shared by every (re)start, and, with a processingTime
 * trigger, a manual clock, so tests never sleep. On failure the error lists every action with
 * a `=>` cursor at the failing one, the expected and actual rows, the query's state and what
 * the sink received batch by batch (that report is failure-report.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DataFrame } from "../api/dataframe.js";
import type { StreamingQuery } from "../api/streaming/query.js";
import type { OutputMode } from "../api/streaming/writer.js";
import type { RuntimeConfig } from "../common/conf.js";
import { ManualClock } from "../runtime/clock.js";
import { parseTrigger, type TriggerSpec } from "../runtime/trigger.js";
import type { FailureMatcher, QueryContext, StartOptions, StreamAction } from "./actions.js";
import { checkFailure, failureOf, matchFailure, StreamTestFailure } from "./failure-report.js";
import { KIT_SINK_FORMAT, KitSink, type SinkBatchRows } from "./kit-sink.js";
import { diffRows } from "./rows.js";
import { KitTimeoutError, waitUntilQuiet, withTimeout } from "./wait.js";

export interface TestStreamOptions extends StartOptions {
  /** Checkpoint directory to use (kept). Default: a fresh temporary one, removed at the end. */
  checkpointLocation?: string;
  /** Keep the temporary checkpoint directory (its path is in `QueryContext`). */
  keepCheckpoint?: boolean;
  queryName?: string;
  /** Extra `writeStream.option(...)` values. */
  writerOptions?: Readonly<Record<string, string | number | boolean>>;
  /** Wall-clock limit for any single wait (processing, termination). Default 10 000 ms. */
  timeoutMs?: number;
}

/** What testStream hands back once every action passed. */
export interface StreamTestResult {
  /** The last query started (stopped by now). */
  readonly query: StreamingQuery | null;
  readonly sinkBatches: readonly SinkBatchRows[];
}

const NEEDS_STREAM = new Set<StreamAction["kind"]>([
  "check",
  "advanceClock",
  "stopStream",
  "expectFailure",
  "assertOnQuery",
  "processAllAvailable",
  "awaitTermination",
]);

/** Insert `startStream()` unless the script starts the stream before it first needs one. */
function withImplicitStart(actions: readonly StreamAction[]): StreamAction[] {
  const firstStart = actions.findIndex((a) => a.kind === "startStream");
  const firstNeed = actions.findIndex((a) => NEEDS_STREAM.has(a.kind));
  if (firstStart >= 0 && (firstNeed < 0 || firstStart < firstNeed)) return [...actions];
  return [{ kind: "startStream", options: {}, implicit: true }, ...actions];
}

/**
 * Run `actions` against `df` written in `outputMode`. Resolves when every action passed;
 * rejects with a StreamTestFailure otherwise. The query is always stopped at the end.
 *
 * @example
 * const ms = session.memoryStream("v INT");
 * await testStream(ms.toDF().groupBy("v").count(), "update", [
 *   addData(ms, [{ v: 1 }, { v: 1 }]),
 *   checkLastBatch([{ v: 1, count: 2 }]),
 * ]);
 */
export async function testStream(
  df: DataFrame,
  outputMode: OutputMode,
  actions: readonly StreamAction[],
  options: TestStreamOptions = {},
): Promise<StreamTestResult> {
  const runner = new Runner(df, outputMode, withImplicitStart(actions), options);
  return runner.run();
}

class Runner {
  private readonly sink: KitSink;
  private readonly timeoutMs: number;
  private readonly tz: string;
  private readonly conf: RuntimeConfig;
  private readonly confBackup = new Map<string, string | undefined>();
  private checkpointDir = "";
  private ownsDir = false;
  private query: StreamingQuery | null = null;
  /** The manual clock of the current (or last) start, shared by later starts. */
  private clock: ManualClock | null;
  private manual = false;
  private trigger: TriggerSpec | undefined;
  private pendingStartError: Error | null = null;
  /** A failure that expectFailure already accounted for. */
  private consumedFailure: Error | null = null;
  private fetchedUpTo = -1;
  private dataSinceAdvance = false;
  private started = false;

  constructor(
    private readonly df: DataFrame,
    private readonly mode: OutputMode,
    private readonly actions: readonly StreamAction[],
    private readonly options: TestStreamOptions,
  ) {
    this.sink = new KitSink(mode);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.conf = df.session.conf;
    this.tz = df.session.timeZone;
    this.clock = options.clock ?? null;
  }

  async run(): Promise<StreamTestResult> {
    let index = 0;
    try {
      if (!this.df.isStreaming)
        throw new StreamTestFailure("testStream needs a streaming DataFrame (from readStream or a MemoryStream).", -1);
      this.ownsDir = !this.options.checkpointLocation;
      this.checkpointDir = this.options.checkpointLocation ?? (await mkdtemp(path.join(tmpdir(), "arus-teststream-")));
      for (; index < this.actions.length; index++) {
        try {
          await this.step(this.actions[index]!, index);
        } catch (e) {
          throw this.failure(e, index);
        }
      }
      const q = this.query;
      if (q?.isActive) await q.stop();
      if (q?.exception && q.exception !== this.consumedFailure)
        throw this.failure(new Error(`the query failed: ${q.exception.message}`), -1);
      return { query: this.query, sinkBatches: this.sink.batches };
    } finally {
      await this.cleanup();
    }
  }

  private async cleanup(): Promise<void> {
    if (this.query?.isActive) await this.query.stop().catch(() => {});
    for (const [k, v] of this.confBackup) restoreConf(this.conf, k, v);
    this.sink.release();
    if (this.ownsDir && !this.options.keepCheckpoint && this.checkpointDir) await rm(this.checkpointDir, { recursive: true, force: true });
  }

  private async step(a: StreamAction, index: number): Promise<void> {
    switch (a.kind) {
      case "addData":
        a.source.addData(a.rows);
        this.dataSinceAdvance = true;
        return;
      case "check":
        return this.check(a.scope, a.rows);
      case "advanceClock":
        return this.advance(a.ms);
      case "startStream":
        return this.start(a.options, index);
      case "stopStream": {
        const q = this.requireQuery("stopStream");
        await withTimeout(q.stop(), this.timeoutMs, "the query to stop");
        this.throwIfFailed(q);
        return;
      }
      case "expectFailure":
        return this.expectFailure(a.matcher);
      case "assertOnQuery": {
        const q = this.requireQuery("assertOnQuery");
        if (a.sync) await this.sync();
        let ok: unknown;
        try {
          ok = await a.fn(q, this.context());
        } catch (e) {
          const msg = (e as Error).message;
          throw new Error(a.message ? `${a.message}: ${msg}` : msg, { cause: e });
        }
        if (ok === false) throw new Error(a.message ?? "assertOnQuery returned false");
        return;
      }
      case "processAllAvailable":
        return this.sync();
      case "awaitTermination": {
        const q = this.requireQuery("awaitTermination");
        try {
          await withTimeout(q.awaitTermination(), this.timeoutMs, "the query to terminate");
        } catch (e) {
          if (e instanceof KitTimeoutError) throw e;
          throw new Error(`the query failed: ${(e as Error).message}`, { cause: e });
        }
        return;
      }
      default: {
        const never: never = a;
        throw new Error(`unknown action ${JSON.stringify(never)}`);
      }
    }
  }

  private requireQuery(what: string): StreamingQuery {
    if (this.pendingStartError)
      throw new Error(`${what}: the stream failed to start: ${this.pendingStartError.message}`, { cause: this.pendingStartError });
    if (!this.query) throw new Error(`${what}: no stream has been started`);
    return this.query;
  }

  private async start(opts: StartOptions, index: number): Promise<void> {
    if (this.query?.isActive) throw new Error("startStream: the stream is already running; add stopStream() first");
    // options.conf applies from the first start; a start's own conf sticks for later starts too.
    const first = !this.started;
    this.started = true;
    for (const [k, v] of Object.entries({ ...(first ? this.options.conf : {}), ...opts.conf })) {
      if (!this.confBackup.has(k)) this.confBackup.set(k, readConf(this.conf, k));
      this.conf.set(k, v);
    }
    const trigger = opts.trigger ?? this.trigger ?? this.options.trigger;
    this.trigger = trigger;
    const parsed = parseTrigger(trigger);
    const manual = parsed.kind === "processingTime" && parsed.intervalMs > 0;
    if (opts.clock) this.clock = opts.clock;
    if (manual) this.clock ??= new ManualClock(0);
    if (this.clock && parsed.kind === "processingTime" && !manual) {
      throw new Error(
        "a manual clock needs a processingTime trigger with an interval, e.g. { processingTime: '1 second' }: the default trigger would poll on it and never advance",
      );
    }
    let w = this.df.writeStream
      .format(KIT_SINK_FORMAT)
      .outputMode(this.mode)
      .option("kitSinkId", this.sink.id)
      .option("checkpointLocation", this.checkpointDir);
    for (const [k, v] of Object.entries(this.options.writerOptions ?? {})) w = w.option(k, v);
    if (this.options.queryName) w = w.queryName(this.options.queryName);
    if (trigger) w = w.trigger(trigger);
    if (this.clock && (manual || parsed.kind !== "processingTime")) w = w.withClock(this.clock);
    this.pendingStartError = null;
    this.consumedFailure = null;
    try {
      this.query = await w.start();
    } catch (e) {
      const next = this.actions.slice(index + 1).find((x) => NEEDS_STREAM.has(x.kind));
      if (next?.kind !== "expectFailure") throw e;
      this.pendingStartError = e as Error;
      return;
    }
    this.manual = manual;
    if (manual) await waitUntilQuiet(this.query, this.clock!, this.timeoutMs);
  }

  /** Wait until the query has processed everything it can (idle, waiting for the clock, or ended). */
  private async sync(): Promise<void> {
    const q = this.query;
    if (!q) return;
    if (q.isActive) {
      if (this.manual) await waitUntilQuiet(q, this.clock!, this.timeoutMs);
      else {
        try {
          await withTimeout(q.processAllAvailable(), this.timeoutMs, "processAllAvailable()");
        } catch (e) {
          if (e instanceof KitTimeoutError) throw e;
        }
      }
    }
    this.throwIfFailed(q);
  }

  private throwIfFailed(q: StreamingQuery): void {
    if (q.exception && q.exception !== this.consumedFailure) {
      throw new Error(`the query failed: ${q.exception.message}`, { cause: q.exception });
    }
  }

  private async advance(ms: number): Promise<void> {
    if (!this.clock)
      throw new Error(
        "advanceClock needs a processingTime trigger (the kit then drives a manual clock): pass { trigger: { processingTime: '1 second' } }",
      );
    const q = this.query;
    const running = q?.isActive && this.manual;
    if (running) await waitUntilQuiet(q, this.clock, this.timeoutMs);
    this.clock.advance(ms);
    this.dataSinceAdvance = false;
    if (running) await waitUntilQuiet(q, this.clock, this.timeoutMs);
    if (q) this.throwIfFailed(q);
  }

  private async expectFailure(matcher: FailureMatcher | undefined): Promise<void> {
    let err = this.pendingStartError;
    this.pendingStartError = null;
    if (!err) {
      const q = this.query;
      if (!q) throw new Error("expectFailure: no stream has been started");
      try {
        await withTimeout(q.awaitTermination(), this.timeoutMs, "the query to fail");
      } catch (e) {
        if (e instanceof KitTimeoutError) throw new Error(`expectFailure: the query is still running after ${this.timeoutMs} ms`);
        err = e as Error;
      }
      if (!err) throw new Error("expectFailure: the query terminated without an error");
      this.consumedFailure = err;
    }
    const verdict = matchFailure(err, matcher);
    if (verdict !== true)
      throw new Error(`expectFailure: the query failed, but not as expected: ${verdict}\nactual error: ${err.message}`, { cause: err });
  }

  private async check(
    scope: "all" | "lastBatch" | "newRows",
    expected: readonly (Readonly<Record<string, unknown>> | readonly unknown[])[],
  ): Promise<void> {
    await this.sync();
    const sink = this.sink;
    const actual =
      scope === "all" ? sink.allRows : scope === "lastBatch" ? [...(sink.lastBatch?.rows ?? [])] : sink.rowsAfter(this.fetchedUpTo);
    this.fetchedUpTo = sink.lastBatchId;
    const schema = sink.schema ?? this.df.schema;
    const diff = diffRows(expected, actual, schema, this.tz);
    if (diff.equal) return;
    throw checkFailure(scope, expected, actual, diff, sink, this.manual && this.dataSinceAdvance);
  }

  private context(): QueryContext {
    return {
      checkpointLocation: this.checkpointDir,
      clock: this.clock,
      sinkBatches: this.sink.batches,
      replayedBatchIds: this.sink.replayedBatchIds,
      sinkRows: this.sink.allRows,
    };
  }

  private failure(e: unknown, index: number): StreamTestFailure {
    return failureOf(e, index, {
      actions: this.actions,
      schema: this.df.schema,
      tz: this.tz,
      mode: this.mode,
      trigger: this.trigger,
      checkpointDir: this.checkpointDir,
      clock: this.clock,
      query: this.query,
      pendingStartError: this.pendingStartError,
      sink: this.sink,
    });
  }
}

// The kit restores a conf it set by unsetting it again, so the session falls back to Spark's
// default rather than keeping an explicit copy of it.
function readConf(conf: RuntimeConfig, key: string): string | undefined {
  return conf.getExplicit(key);
}
function restoreConf(conf: RuntimeConfig, key: string, value: string | undefined): void {
  if (value === undefined) conf.unset(key);
  else conf.set(key, value);
}
