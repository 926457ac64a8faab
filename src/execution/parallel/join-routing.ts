/**
 * A stream-stream join's input routed to the state threads (docs/parallel-execution.md): the
 * main thread computes each input row's join key and partition (join-input.ts; the partition
 * is the hash the state files are split by), then each thread gets the rows of the partitions
 * it owns — p mod W = w — as columns moved, with their keys, key times and partitions, and runs
 * the batch's join over its partitions' state (state-thread-join.ts). A NULL key's row touches
 * no state; it goes to thread 0 (its partition is 0).
 */
import { type Batch, takeBatch } from "../../columnar/batch.js";
import { fromPortable, portable, transferListOf } from "../../columnar/transfer.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import type { JoinType } from "../../plan/logical.js";
import type { DataType } from "../../types/datatypes.js";
import type { SideInput } from "../stateful/join-input.js";

/** What a thread needs to rebuild a join (plain data: expressions clone). */
export interface JoinOperatorDef {
  readonly operatorId: number;
  readonly leftKeys: readonly Expr[];
  readonly rightKeys: readonly Expr[];
  readonly joinType: JoinType;
  readonly fullCondition: Expr | null;
  readonly leftOutput: readonly Attribute[];
  readonly rightOutput: readonly Attribute[];
  /** Expression ids below this are taken on the main thread (`reserveExprIds`). */
  readonly exprIdsInUse: number;
}

/** One side's rows for one thread, as posted. */
export interface PostedSide {
  /** The rows, columns made portable (UTF-8 strings as bytes). */
  readonly batch: Batch;
  readonly keys: string[];
  readonly keyTimes: Float64Array;
  /** Each row's partition as an index into the thread's owned partitions (p div W). */
  readonly parts: Int32Array;
  readonly plainKeys: boolean;
}

/** What a thread answers for a join batch. */
export interface JoinThreadReply {
  /** Output rows, columns portable. */
  readonly output: Batch[];
  readonly numRowsUpdated: number;
  readonly numRowsRemoved: number;
  readonly numRowsTotal: number;
  readonly memoryUsedBytes: number;
  /** State directories whose commit wrote a delta (the commit log lists them). */
  readonly writtenDirs: readonly string[];
}

/** `input`'s rows split by owning thread (W threads), with the buffers that can move. */
export function routeSide(input: SideInput, W: number): { sides: PostedSide[]; transfer: ArrayBuffer[][] } {
  const n = input.keys.length;
  const counts = new Int32Array(W);
  for (let i = 0; i < n; i++) counts[input.parts[i]! % W]!++;
  const rows = Array.from({ length: W }, (_, w) => new Int32Array(counts[w]!));
  const keys = Array.from({ length: W }, () => [] as string[]);
  const keyTimes = Array.from({ length: W }, (_, w) => new Float64Array(counts[w]!));
  const parts = Array.from({ length: W }, (_, w) => new Int32Array(counts[w]!));
  const at = new Int32Array(W);
  for (let i = 0; i < n; i++) {
    const p = input.parts[i]!;
    const w = p % W;
    const j = at[w]!++;
    rows[w]![j] = input.rows[i]!;
    keys[w]!.push(input.keys[i]!);
    keyTimes[w]![j] = input.keyTimes[i]!;
    parts[w]![j] = Math.floor(p / W);
  }
  const sides: PostedSide[] = [];
  const transfer: ArrayBuffer[][] = [];
  for (let w = 0; w < W; w++) {
    const taken = takeBatch(input.batch, rows[w]!);
    const batch = { numRows: taken.numRows, columns: taken.columns.map(portable) };
    sides.push({ batch, keys: keys[w]!, keyTimes: keyTimes[w]!, parts: parts[w]!, plainKeys: input.plainKeys });
    transfer.push([
      ...(transferListOf(batch.columns) as ArrayBuffer[]),
      keyTimes[w]!.buffer as ArrayBuffer,
      parts[w]!.buffer as ArrayBuffer,
    ]);
  }
  return { sides, transfer };
}

/** A posted side as the join's input on the thread (its rows are all of its batch's, in order). */
export function arrivedSide(s: PostedSide, types: readonly DataType[]): SideInput {
  const n = s.batch.numRows;
  const batch = { numRows: n, columns: s.batch.columns.map((c, i) => fromPortable(c, types[i]!)) };
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return { batch, rows, keys: s.keys, keyTimes: s.keyTimes, parts: s.parts, plainKeys: s.plainKeys, late: 0 };
}
