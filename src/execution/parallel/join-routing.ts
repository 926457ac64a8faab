/**
 * A stream-stream join's input routed to the state threads (docs/parallel-execution.md): each
 * input row goes to the thread owning its key's state partition — p mod W = w, p the hash the
 * state files are split by (partitionOf of the join key's text) — and each thread runs the
 * batch's join over its partitions' state (state-thread-join.ts). A NULL key's row touches no
 * state; it goes to thread 0 (its partition is 0). Rows reach a thread one of two ways:
 *  - keyed on the main thread (join-input.ts: keys, key times, partitions), then split here
 *    (`routeSide`), columns moved;
 *  - already split by owner on the decode threads, where a scan's stateless stage ran
 *    (`rowsByOwner`, scan-stage.ts): the main thread only forwards each thread its batches
 *    (`postRows`) and the thread computes the keys itself (`arrivedRows`) — the late-row filter
 *    too, with the batch's watermark, since files are decoded ahead of their batch.
 * Either way a thread gets its rows in input order, so the output is the same. A join that
 * runs its first batches of a run on the main thread (stream-join.ts) has the decode threads
 * split its rows only from its move on (scan-tasks.ts): until then the split would be wasted.
 */
import { type Batch, makeBatch, takeBatch } from "../../columnar/batch.js";
import { carryInputFile } from "../../columnar/input-file.js";
import { fromPortable, portable, transferListOf } from "../../columnar/transfer.js";
import { identityIds, scatter, type Vector } from "../../columnar/vector.js";
import { keyTextHash } from "../../common/hash.js";
import type { EvalContext } from "../../functions/registry.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import type { SideCleanup } from "../../plan/join-cleanup.js";
import type { JoinType } from "../../plan/logical.js";
import { ownersOf } from "../../state/columnar/partitioning.js";
import type { DataType } from "../../types/datatypes.js";
import { compileExpr } from "../compile.js";
import { isNullKey, joinKeyHashes, type SideInput, sideInput } from "../stateful/join-input.js";

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
  /** Each key's hash (keyTextHash). */
  readonly hashes: Int32Array;
  /** Each row's partition as an index into the thread's owned partitions (p div W). */
  readonly parts: Int32Array;
  readonly plainKeys: boolean;
}

/** One side's rows for one thread as they came from the decode threads: the thread keys them. */
export interface PostedRows {
  /** The rows, columns portable, in input order, and each row's key hash (joinKeyHashes). */
  readonly batches: Batch[];
  readonly hashes: Int32Array[];
  /** The side's event-time column (-1: none) and the late watermark (micros) rows at or below it are dropped. */
  readonly timeCol: number;
  readonly lateMicros: number;
  readonly numPartitions: number;
  /** The number of state threads W. */
  readonly owners: number;
}

/** What a thread answers for a join batch. */
export interface JoinThreadReply {
  /** Output rows, columns portable. */
  readonly output: Batch[];
  /** Rows the thread dropped as late (of sides it keyed itself, PostedRows). */
  readonly lateRows: number;
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
  const hashes = Array.from({ length: W }, (_, w) => new Int32Array(counts[w]!));
  const parts = Array.from({ length: W }, (_, w) => new Int32Array(counts[w]!));
  const at = new Int32Array(W);
  for (let i = 0; i < n; i++) {
    const p = input.parts[i]!;
    const w = p % W;
    const j = at[w]!++;
    rows[w]![j] = input.rows[i]!;
    keys[w]!.push(input.keys[i]!);
    keyTimes[w]![j] = input.keyTimes[i]!;
    hashes[w]![j] = input.hashes[i]!;
    parts[w]![j] = Math.floor(p / W);
  }
  const sides: PostedSide[] = [];
  const transfer: ArrayBuffer[][] = [];
  for (let w = 0; w < W; w++) {
    const taken = takeBatch(input.batch, rows[w]!);
    const batch = { numRows: taken.numRows, columns: taken.columns.map(portable) };
    sides.push({ batch, keys: keys[w]!, keyTimes: keyTimes[w]!, hashes: hashes[w]!, parts: parts[w]!, plainKeys: input.plainKeys });
    transfer.push([
      ...(transferListOf(batch.columns) as ArrayBuffer[]),
      keyTimes[w]!.buffer as ArrayBuffer,
      hashes[w]!.buffer as ArrayBuffer,
      parts[w]!.buffer as ArrayBuffer,
    ]);
  }
  return { sides, transfer };
}

/** A posted side as the join's input on the thread (its rows are all of its batch's, in order). */
export function arrivedSide(s: PostedSide, types: readonly DataType[]): SideInput {
  const n = s.batch.numRows;
  const batch = makeBatch(
    s.batch.columns.map((c, i) => fromPortable(c, types[i]!)),
    n,
  );
  return {
    batch,
    rows: identityIds(n),
    keys: s.keys,
    keyTimes: s.keyTimes,
    hashes: s.hashes,
    parts: s.parts,
    plainKeys: s.plainKeys,
    late: 0,
  };
}

/** How the decode threads split a join side's rows (a scan stage's `joinRouting`). */
export interface JoinRouting {
  /** The side's join keys, over the stage's output. */
  readonly keys: readonly Expr[];
  readonly numPartitions: number;
  /** The number of state threads W. */
  readonly owners: number;
}

/** The owner a decode thread gave a batch of join rows, with the W it split by and the rows' key hashes. */
const owners = new WeakMap<Batch, { readonly owner: number; readonly owners: number; readonly hashes: Int32Array }>();

export function markOwner(batch: Batch, owner: number, of: number, hashes: Int32Array): void {
  owners.set(batch, { owner, owners: of, hashes });
}

/** One thread's routed batches of a side, with their rows' key hashes. */
export interface OwnedRows {
  readonly batches: Batch[];
  readonly hashes: Int32Array[];
}

/**
 * On a decode thread: `batches` (rows of `input`) split by the state thread owning each row's
 * key partition, in order; one batch per (input batch, owner) with rows.
 */
export function rowsByOwner(
  r: JoinRouting,
  input: readonly Attribute[],
  batches: readonly Batch[],
  ev: EvalContext,
): { rows: Batch[]; rowOwners: number[]; rowHashes: Int32Array[] } {
  const keys = r.keys.map((k) => compileExpr(k, input));
  const rows: Batch[] = [];
  const rowOwners: number[] = [];
  const rowHashes: Int32Array[] = [];
  for (const b of batches) {
    const n = b.numRows;
    const { hashes, parts } = joinKeyHashes(
      keys.map((k) => k(b, ev)),
      n,
      r.numPartitions,
    );
    const { owner, counts } = ownersOf(parts, n, r.owners);
    const columns = b.columns.map((v) => scatter(v, owner, counts));
    const at = new Int32Array(r.owners);
    const ownHashes = Array.from(counts, (m) => new Int32Array(m));
    for (let i = 0; i < n; i++) ownHashes[owner[i]!]![at[owner[i]!]!++] = hashes[i]!;
    for (let w = 0; w < r.owners; w++) {
      if (counts[w] === 0) continue;
      rows.push(
        carryInputFile(
          b,
          makeBatch(
            columns.map((c) => c[w]!),
            counts[w]!,
          ),
        ),
      );
      rowOwners.push(w);
      rowHashes.push(ownHashes[w]!);
    }
  }
  return { rows, rowOwners, rowHashes };
}

/** A side whose rows came split by owner from the decode threads: each thread's batches, and how to drop late rows. */
export interface RoutedSide {
  readonly byOwner: readonly OwnedRows[];
  readonly timeCol: number;
  readonly lateMicros: number;
}

/** A side's batches by owning thread, if every one came split for W threads (else null: key them here). */
export function routedRows(batches: readonly Batch[], W: number): OwnedRows[] | null {
  if (batches.length === 0) return null;
  const byOwner: OwnedRows[] = Array.from({ length: W }, () => ({ batches: [], hashes: [] }));
  for (const b of batches) {
    const o = owners.get(b);
    if (o === undefined || o.owners !== W) return null;
    byOwner[o.owner]!.batches.push(b);
    byOwner[o.owner]!.hashes.push(o.hashes);
  }
  return byOwner;
}

/** Each thread's share of a routed side, ready to post (its buffers move). */
export function postRows(
  byOwner: readonly OwnedRows[],
  side: Omit<PostedRows, "batches" | "hashes">,
): { sides: PostedRows[]; transfer: ArrayBuffer[][] } {
  const sides = byOwner.map((o) => ({
    ...side,
    batches: o.batches.map((b) => ({ numRows: b.numRows, columns: b.columns.map(portable) })),
    hashes: o.hashes,
  }));
  const transfer = sides.map((s) => [
    ...(transferListOf(s.batches.flatMap((b) => b.columns)) as ArrayBuffer[]),
    ...new Set(s.hashes.map((h) => h.buffer as ArrayBuffer)),
  ]);
  return { sides, transfer };
}

/**
 * On state thread `owner`: its routed rows as the join's input — late rows dropped, keys, key
 * times and partitions computed as the main thread would (join-input.ts) from the key hashes
 * the decode threads computed, partitions as owned indexes (p div W).
 */
export function arrivedRows(
  s: PostedRows,
  types: readonly DataType[],
  cleanup: SideCleanup | null,
  keyColumns: (b: Batch) => Vector[],
  owner: number,
): SideInput {
  const batches = s.batches.map((b) =>
    makeBatch(
      b.columns.map((c, i) => fromPortable(c, types[i]!)),
      b.numRows,
    ),
  );
  let total = 0;
  for (const h of s.hashes) total += h.length;
  const hashes = new Int32Array(total);
  let at = 0;
  for (const h of s.hashes) {
    hashes.set(h, at);
    at += h.length;
  }
  const input = sideInput(types, batches, s.timeCol, s.lateMicros, cleanup, s.numPartitions, keyColumns, hashes);
  ownedPartitions(input, s.owners, owner);
  return input;
}

/**
 * arrivedRows' loop, in its own function (docs/architecture.md, "Hot path rules"): checks that
 * each row's partition is `owner`'s of `W` threads, and a sample of the decode threads' hashes
 * against the keys' texts (both must hash alike); the partitions become owned indexes (p div W).
 */
function ownedPartitions(input: SideInput, W: number, owner: number): void {
  const parts = input.parts;
  const keys = input.keys;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p % W !== owner && !isNullKey(keys[i]!)) misrouted(p, owner, W);
    if ((i & 4095) === 0) checkHash(keys[i]!, input.hashes[i]!);
    parts[i] = Math.floor(p / W);
  }
}

function misrouted(p: number, owner: number, W: number): never {
  throw new Error(`stream-stream join: a row of state partition ${p} was routed to state thread ${owner} of ${W}`);
}

function checkHash(key: string, hash: number): void {
  if (hash !== keyTextHash(key))
    throw new Error(`stream-stream join: key ${key} was given hash ${hash}, its text hashes to ${keyTextHash(key)}`);
}
