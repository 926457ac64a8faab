/**
 * The file task of a streaming file source whose aggregation runs stage A on the decode threads
 * (`arus.exec.partialAggregation`), or whose scan runs its stateless stage there
 * (`arus.exec.scanTasks`, scan-stage.ts): a JSON-lines file is read into shared memory, cut into
 * `local[N]` line-aligned ranges as json-parallel.ts does, and each range is decoded and run
 * through stage A on the decode pool's N threads (which import stage-a-task.ts for it); the
 * partial groups come back in file order — or, once the query's first files showed that
 * aggregating does not shrink the rows enough (adaptive-skip.ts), stage A's rows. A file a
 * thread cannot take (compressed, partition directories, a custom or lone-CR line separator) or
 * whose range fails (a FAILFAST record, say) is read on this thread as before and stage A runs
 * here, so its errors are those of a row read.
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { makeBatch } from "../../columnar/batch.js";
import { tagInputFile } from "../../columnar/input-file.js";
import { fromPortable } from "../../columnar/transfer.js";
import { utf8Strings } from "../../columnar/utf8-conf.js";
import { siblingScript, WorkerCrashError } from "../../common/worker-pool.js";
import { readCharset } from "../../connectors/files/charset.js";
import { decodePool } from "../../connectors/files/decode-pool.js";
import { type JsonDecoder, jsonDecoder } from "../../connectors/files/json/json-decoder.js";
import { nominalRanges } from "../../connectors/files/line-range.js";
import { effectiveZone, SourceOptions } from "../../connectors/files/options.js";
import { partitionSpecFor } from "../../connectors/files/partitions.js";
import type { FileRead, FileTask, PreparedFile, StreamSource } from "../../connectors/source.js";
import { StructOf, type StructType } from "../../types/datatypes.js";
import { getDecimalPrecisionLoss } from "../../types/decimal.js";
import { AggregationSpec } from "../aggregation.js";
import { AdaptiveSkip, type SkipSettings } from "./adaptive-skip.js";
import type { StageASpec } from "./stage-a.js";
import { type PartialGroups, runStageA } from "./stage-a-run.js";

export interface StageARequest {
  readonly stage: StageASpec;
  readonly file: string;
  /** The file's size when it was listed; the thread reads the lines starting in [start, end). */
  readonly size: number;
  readonly start: number;
  readonly end: number;
  readonly schema: StructType;
  readonly options: Record<string, string>;
  readonly zone: string;
  readonly decoder: JsonDecoder;
  /** False: run stage A's operators only and ship their rows (adaptive-skip.ts). */
  readonly aggregate: boolean;
  /** This thread's `arus.columnar.utf8Strings`: the thread decodes STRING columns the same way. */
  readonly utf8Strings: boolean;
  /** This thread's `spark.sql.decimalOperations.allowPrecisionLoss`: decimal arithmetic gets the same result types. */
  readonly decimalPrecisionLoss: boolean;
}

type Reply = PartialGroups & { inputRows: number };

/**
 * What stage A did in this process: ranges on threads (of them, shipped as rows when
 * aggregating was skipped), files read on the main thread, queries that skipped aggregating.
 */
export const partialCounters = { ranges: 0, rowRanges: 0, mainThreadFiles: 0, skippedQueries: 0 };

/** The module the decode threads import for stage A. */
const TASK = siblingScript(import.meta.url, "stage-a-task").href;

/** A thread that cannot run stage A would fail every file: this thread does them from then on. */
let broken = false;

/**
 * Can the decode threads import stage A's task? Not from a bundle that left the module out (the
 * decode pool's own script is checked the same way, by failing): then the query reads rows.
 */
export function stageAThreadsAvailable(): boolean {
  return TASK.startsWith("file:") && existsSync(fileURLToPath(TASK));
}

function runOnThread(request: StageARequest): Promise<Reply> {
  return decodePool().run({ kind: "module", module: TASK, request }) as Promise<Reply>;
}

/**
 * Has source `sourceId` read its files through the task `makeTask()` builds (made only for a
 * file source that reads through file tasks); false when the source cannot.
 */
export function readThroughFileTask(
  sources: readonly StreamSource[],
  sourceIds: readonly string[],
  sourceId: string,
  makeTask: () => FileTask,
): boolean {
  const source = sources[sourceIds.indexOf(sourceId)];
  if (!source?.useFileTask || !source.getPrepared) return false;
  return source.useFileTask(makeTask());
}

/**
 * The file task running `stage` on `threads` threads (2 or more), aggregating until `skip`'s
 * probe finds the partial groups do not shrink the rows enough (adaptive-skip.ts); with `skip`
 * null (a scan's stateless stage, scan-stage.ts) it never aggregates and ships the rows.
 */
export function stageAFileTask(stage: StageASpec, threads: number, skip: SkipSettings | null): FileTask {
  const spec = skip ? new AggregationSpec(stage.groupingExprs, stage.aggregateExprs, aggregationInput(stage)) : null;
  const keyTypes = spec?.groupAttrs.map((a) => a.type) ?? [];
  const bufferTypes = spec?.bufferTypes() ?? [];
  const rowTypes = stageAOutput(stage).map((a) => a.type);
  const fromThread = (r: Reply, uri: string): PartialGroups => ({
    ...r,
    chunks: r.chunks.map((c) => ({
      ...c,
      keys: c.keys.map((v, i) => fromPortable(v, keyTypes[i]!)),
      buffers: c.buffers.map((bs, a) => bs.map((v, j) => fromPortable(v, bufferTypes[a]![j]!))),
    })),
    ...(r.rows
      ? {
          rows: r.rows.map((b) =>
            tagInputFile(
              makeBatch(
                b.columns.map((v, i) => fromPortable(v, rowTypes[i]!)),
                b.numRows,
              ),
              uri,
            ),
          ),
        }
      : {}),
  });
  const adaptive = skip ? new AdaptiveSkip(skip) : null;
  const observed = (parts: PartialGroups[]): PartialGroups[] => {
    if (!adaptive) return parts;
    const before = adaptive.aggregate;
    adaptive.observe(parts);
    if (before && !adaptive.aggregate) partialCounters.skippedQueries++;
    return parts;
  };
  warmUp(stage, threads, adaptive !== null);
  return async (file, read) => {
    const aggregate = adaptive?.aggregate ?? false;
    const ranges = broken ? null : await onThreads(stage, file, read, threads, aggregate);
    if (ranges) {
      partialCounters.ranges += ranges.length;
      if (!aggregate) partialCounters.rowRanges += ranges.length;
      const uri = pathToFileURL(resolve(file)).href; // the rows' input_file_name() above the stand-in
      return { inputRows: ranges.reduce((n, r) => n + r.inputRows, 0), value: observed(ranges.map((r) => fromThread(r, uri))) };
    }
    partialCounters.mainThreadFiles++;
    const batches = await read.rows();
    const partial = await runStageA(stage, batches, aggregate);
    return { inputRows: batches.reduce((n, b) => n + b.numRows, 0), value: observed([partial]) } satisfies PreparedFile;
  };
}

/**
 * Starts the threads now, at the query's start, each running stage A over no rows (loading the
 * engine, compiling the expressions), so that the first batch does not wait for that.
 */
function warmUp(stage: StageASpec, threads: number, aggregate: boolean): void {
  if (broken) return;
  const schema = StructOf([]);
  for (let i = 0; i < threads; i++) {
    runOnThread({
      stage,
      file: "(warm-up)",
      size: 0,
      start: 0,
      end: 0,
      schema,
      options: {},
      zone: stage.timeZone,
      decoder: jsonDecoder(),
      aggregate,
      utf8Strings: utf8Strings(),
      decimalPrecisionLoss: getDecimalPrecisionLoss(),
    }).catch(() => {});
  }
}

/** The Expand's or the last projection's output: what the aggregation reads. */
function aggregationInput(stage: StageASpec) {
  for (let i = stage.steps.length - 1; i >= 0; i--) {
    const s = stage.steps[i]!;
    if (s.kind === "project" || s.kind === "expand") return s.output;
  }
  return stage.scanOutput;
}

/** The rows stage A's operators produce: the aggregation's input, or with panes the Expand's input. */
export function stageAOutput(stage: StageASpec) {
  const steps = stage.panes ? stage.steps.slice(0, -1) : stage.steps;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (s.kind === "project" || s.kind === "expand") return s.output;
  }
  return stage.scanOutput;
}

/** `file`'s ranges through stage A on the threads, or null when this thread must read it. */
async function onThreads(stage: StageASpec, file: string, read: FileRead, threads: number, aggregate: boolean): Promise<Reply[] | null> {
  const o = new SourceOptions(read.options);
  if (read.format !== "json" || file.endsWith(".gz") || o.get("lineSep") !== undefined || o.bool("multiLine", false)) return null;
  if (readCharset(o, "JSONOptionsInRead") !== null) return null; // not UTF-8: decoded whole, as text
  const partitions = partitionSpecFor(file, o).map(([k]) => k.toLowerCase());
  if (read.schema.fields.some((f) => partitions.includes(f.name.toLowerCase()))) return null;
  // A file that cannot be read here is read by the row path, whose error names it.
  const size = await stat(file)
    .then((st) => st.size)
    .catch(() => 0);
  if (size === 0) return null;
  const options = { ...read.options } as Record<string, string>;
  const zone = effectiveZone(o, read.timeZone);
  const decoder = jsonDecoder();
  const utf8 = utf8Strings();
  try {
    return await Promise.all(
      nominalRanges(size, threads).map(([start, end]) =>
        runOnThread({
          stage,
          file,
          size,
          start,
          end,
          schema: read.schema,
          options,
          zone,
          decoder,
          aggregate,
          utf8Strings: utf8,
          decimalPrecisionLoss: getDecimalPrecisionLoss(),
        }),
      ),
    );
  } catch (e) {
    if (e instanceof WorkerCrashError) broken = true;
    return null;
  }
}
