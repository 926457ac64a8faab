/**
 * The state of one side of a stream-stream join for one micro-batch, over every state
 * partition: what `StreamStreamJoinExec` (stream-join.ts) asks of it, whichever backend keeps
 * the rows. Two backends: the row stores (join-row-side.ts, Spark's keyToNumValues +
 * keyWithIndexToValue layout of join-state.ts) and the columnar join tables
 * (join-columnar-side.ts, `arus.state.join.columnar`, src/state/join/).
 *
 * Stored rows are named by refs: numbers valid until the batch commits. A removed row's
 * values stay readable through its ref for the rest of the batch.
 */
import { getValue, type Vector, vectorFromValues } from "../../columnar/vector.js";
import type { SideCleanup } from "../../plan/join-cleanup.js";
import type { DataType } from "../../types/datatypes.js";

export interface JoinSide {
  /**
   * Appends the refs of `key`'s stored rows (in the order they were stored) to `out`; `hash`:
   * the FNV-1a of the key's text (keyTextHash), `part`: the key's partition (partitionOf).
   */
  rowsOf(key: string, hash: number, part: number, out: number[]): void;
  /** Copies the stored row's values into `out` from position `at`. */
  copyRow(ref: number, out: unknown[], at: number): void;
  /** Field `c` of the stored row. */
  value(ref: number, c: number): unknown;
  /** Field `c` (of type `type`) of the stored rows `refs`, as a vector (a ref of -1: NULL). */
  column(c: number, type: DataType, refs: readonly number[]): Vector;
  matched(ref: number): boolean;
  setMatched(ref: number): void;
  /** Removes a stored row (left semi's first match); removing it twice is a no-op. */
  remove(ref: number): void;
  /** Was the row stored in this batch? */
  isNew(ref: number): boolean;
  /** The probe of this side (a series of `rowsOf`, flags and removals) is over. */
  endProbe(): void;
  /**
   * Stores row `i` of the columns `cols` under `key` (`hash`, `part` as for `rowsOf`; `keyTime`:
   * the key's event time when the side is evicted by key, else NaN).
   */
  append(key: string, hash: number, part: number, keyTime: number, cols: readonly Vector[], i: number, matched: boolean): void;
  /** Appended rows are in the state once this returns. */
  flush(): void;
  /**
   * Removes the rows the watermark `evictMs` settles, handing each to `onRow` first (that ref
   * may be valid during the call only); returns how many.
   */
  evict(cleanup: SideCleanup, evictMs: number, onRow: (ref: number) => void): number;
  /** Commits every partition; returns the rows the side then holds. */
  commit(): Promise<number>;
  memoryUsedBytes(): number;
}

/** The value as eviction compares it: a time (micros), or a window's end. */
/** A time, or a window's end; NULL as NaN, which no watermark passes (the row is never evicted by it, as in Spark). */
export const endOf = (v: unknown): number => (typeof v === "number" ? v : ((v as { end: number } | null)?.end ?? Number.NaN));

/** Row i of `cols` as an array of internal values. */
export const rowOf = (cols: readonly Vector[], i: number): unknown[] => cols.map((c) => getValue(c, i));

/** `JoinSide.column` through `value`, for a side with no faster way. */
export function columnOfValues(side: JoinSide, c: number, type: DataType, refs: readonly number[]): Vector {
  return vectorFromValues(
    type,
    refs.map((r) => (r < 0 ? null : (side.value(r, c) ?? null))),
  );
}
