/**
 * ValueState / ListState / MapState over the versioned state store. Every variable has its own
 * key space in the partition's store (`<kind>\u0001<name>\u0001<grouping key>`), and a grouping
 * key's value of one variable is one store row:
 *   value  [expiresAtMs | null, ...fields]
 *   list   [[expiresAtMs | null, ...fields], ...]            (one row: a key's list is read whole)
 *   map    [[mapKeyText, mapKey[], expiresAtMs | null, ...fields], ...]
 * Lists and maps are one row per grouping key because the in-memory store has no ordered prefix
 * scan: a per-element layout would make each key's iteration a scan of the whole partition.
 * TTL (processingTime mode) stamps `batchTimestampMs + ttl` on each value at update; a value whose
 * stamp is <= the batch's processing time reads as absent and is removed at the end of the batch
 * (Spark's doTtlCleanup).
 */
import { ArusError } from "../../../common/errors.js";
import type { ListState, MapState, ProcessorRow, ValueState } from "../../../plan/stateful-processor.js";
import { encodeKey, type StateRow, type StateStore } from "../../../state/store.js";
import type { RowCodec } from "./row-codec.js";

/** Where the current grouping key's state lives; throws outside a key's handler call. */
export interface KeyScope {
  readonly store: StateStore;
  readonly gk: string;
}

export interface VarEnv {
  scope(op: string): KeyScope;
  /** The batch's processing time (ms), for TTL. */
  readonly nowMs: number;
  readonly counters: { numValuesRemovedDueToTTLExpiry: number };
}

export const SEP = "\u0001";
export type VarKind = "value" | "list" | "map";
export const storeKeyOf = (kind: VarKind, name: string, gk: string) => `${kind[0]}${SEP}${name}${SEP}${gk}`;

const live = (expires: unknown, now: number) => expires === null || (expires as number) > now;

abstract class StateVar {
  constructor(
    readonly kind: VarKind,
    readonly name: string,
    protected readonly env: VarEnv,
    readonly ttlMs: number | null,
  ) {}
  protected key(op: string): { store: StateStore; key: string } {
    const s = this.env.scope(`${op} on ${this.kind} state "${this.name}"`);
    return { store: s.store, key: storeKeyOf(this.kind, this.name, s.gk) };
  }
  protected stamp(): number | null {
    return this.ttlMs === null ? null : this.env.nowMs + this.ttlMs;
  }
  /** Remove what TTL expired from one stored row; returns the row to keep (null = remove) and how many values went. */
  abstract expire(row: StateRow, now: number): { keep: StateRow | null; removed: number };
}

export class ValueStateImpl extends StateVar implements ValueState {
  constructor(
    name: string,
    env: VarEnv,
    ttlMs: number | null,
    private readonly codec: RowCodec,
  ) {
    super("value", name, env, ttlMs);
  }
  private row(op: string): StateRow | undefined {
    const { store, key } = this.key(op);
    const r = store.get(key);
    return r && live(r[0], this.env.nowMs) ? r : undefined;
  }
  exists(): boolean {
    return this.row("exists") !== undefined;
  }
  get(): ProcessorRow | null {
    const r = this.row("get");
    return r ? this.codec.toExternal(r, 1) : null;
  }
  update(value: ProcessorRow): void {
    if (value === null || value === undefined)
      throw new ArusError("ILLEGAL_STATE_VALUE", `value state "${this.name}": update(null); use clear() to remove the value.`);
    const { store, key } = this.key("update");
    store.put(key, [this.stamp(), ...this.codec.toInternal(value)]);
  }
  clear(): void {
    const { store, key } = this.key("clear");
    store.remove(key);
  }
  expire(row: StateRow, now: number) {
    return live(row[0], now) ? { keep: row, removed: 0 } : { keep: null, removed: 1 };
  }
}

export class ListStateImpl extends StateVar implements ListState {
  constructor(
    name: string,
    env: VarEnv,
    ttlMs: number | null,
    private readonly codec: RowCodec,
  ) {
    super("list", name, env, ttlMs);
  }
  /** The live elements; `rewriting`: the caller writes them back, so the expired ones it drops count as TTL removals. */
  private elements(op: string, rewriting = false): (readonly unknown[])[] {
    const { store, key } = this.key(op);
    const r = store.get(key) as readonly (readonly unknown[])[] | undefined;
    if (!r) return [];
    const now = this.env.nowMs;
    const kept = r.filter((e) => live(e[0], now));
    if (rewriting) this.env.counters.numValuesRemovedDueToTTLExpiry += r.length - kept.length;
    return kept;
  }
  exists(): boolean {
    return this.elements("exists").length > 0;
  }
  *get(): IterableIterator<ProcessorRow> {
    for (const e of this.elements("get")) yield this.codec.toExternal(e, 1);
  }
  private encode(values: readonly ProcessorRow[], op: string): unknown[][] {
    if (!Array.isArray(values)) throw new ArusError("ILLEGAL_STATE_VALUE", `list state "${this.name}": ${op} takes an array of rows.`);
    const t = this.stamp();
    return values.map((v) => {
      if (v === null || v === undefined) throw new ArusError("ILLEGAL_STATE_VALUE", `list state "${this.name}": ${op} got a null element.`);
      return [t, ...this.codec.toInternal(v)];
    });
  }
  put(values: readonly ProcessorRow[]): void {
    const rows = this.encode(values, "put");
    const { store, key } = this.key("put");
    if (rows.length === 0) store.remove(key);
    else store.put(key, rows);
  }
  appendValue(value: ProcessorRow): void {
    this.appendList([value]);
  }
  appendList(values: readonly ProcessorRow[]): void {
    const rows = this.encode(values, "appendList");
    if (rows.length === 0) return;
    const old = this.elements("appendList", true);
    const { store, key } = this.key("appendList");
    store.put(key, [...old, ...rows]);
  }
  clear(): void {
    const { store, key } = this.key("clear");
    store.remove(key);
  }
  expire(row: StateRow, now: number) {
    const keep = (row as readonly (readonly unknown[])[]).filter((e) => live(e[0], now));
    if (keep.length === row.length) return { keep: row, removed: 0 };
    return { keep: keep.length ? keep : null, removed: row.length - keep.length };
  }
}

type MapEntry = readonly unknown[]; // [mapKeyText, mapKey[], expiresAt, ...fields]

export class MapStateImpl extends StateVar implements MapState {
  constructor(
    name: string,
    env: VarEnv,
    ttlMs: number | null,
    private readonly keyCodec: RowCodec,
    private readonly codec: RowCodec,
  ) {
    super("map", name, env, ttlMs);
  }
  private entries(op: string): { store: StateStore; key: string; live: MapEntry[]; expired: number } {
    const { store, key } = this.key(op);
    const r = (store.get(key) ?? []) as readonly MapEntry[];
    const now = this.env.nowMs;
    const kept = r.filter((e) => live(e[2], now));
    return { store, key, live: kept, expired: r.length - kept.length };
  }
  private find(k: ProcessorRow, op: string) {
    if (k === null || k === undefined) throw new ArusError("ILLEGAL_STATE_VALUE", `map state "${this.name}": ${op} with a null key.`);
    const internal = this.keyCodec.toInternal(k);
    const text = encodeKey(internal);
    const e = this.entries(op);
    return { ...e, internal, text, at: e.live.findIndex((x) => x[0] === text) };
  }
  exists(): boolean {
    return this.entries("exists").live.length > 0;
  }
  getValue(k: ProcessorRow): ProcessorRow | null {
    const f = this.find(k, "getValue");
    return f.at < 0 ? null : this.codec.toExternal(f.live[f.at]!, 3);
  }
  containsKey(k: ProcessorRow): boolean {
    return this.find(k, "containsKey").at >= 0;
  }
  updateValue(k: ProcessorRow, v: ProcessorRow): void {
    if (v === null || v === undefined)
      throw new ArusError("ILLEGAL_STATE_VALUE", `map state "${this.name}": updateValue with a null value; use removeKey.`);
    const f = this.find(k, "updateValue");
    const entry = [f.text, f.internal, this.stamp(), ...this.codec.toInternal(v)];
    const next = [...f.live];
    this.env.counters.numValuesRemovedDueToTTLExpiry += f.expired;
    if (f.at < 0) next.push(entry);
    else next[f.at] = entry;
    f.store.put(f.key, next);
  }
  *iterator(): IterableIterator<[ProcessorRow, ProcessorRow]> {
    for (const e of this.entries("iterator").live) yield [this.keyCodec.toExternal(e[1] as unknown[]), this.codec.toExternal(e, 3)];
  }
  *keys(): IterableIterator<ProcessorRow> {
    for (const e of this.entries("keys").live) yield this.keyCodec.toExternal(e[1] as unknown[]);
  }
  *values(): IterableIterator<ProcessorRow> {
    for (const e of this.entries("values").live) yield this.codec.toExternal(e, 3);
  }
  removeKey(k: ProcessorRow): void {
    const f = this.find(k, "removeKey");
    if (f.at < 0) return;
    const next = f.live.filter((_, i) => i !== f.at);
    this.env.counters.numValuesRemovedDueToTTLExpiry += f.expired;
    if (next.length) f.store.put(f.key, next);
    else f.store.remove(f.key);
  }
  clear(): void {
    const { store, key } = this.key("clear");
    store.remove(key);
  }
  expire(row: StateRow, now: number) {
    const keep = (row as readonly MapEntry[]).filter((e) => live(e[2], now));
    if (keep.length === row.length) return { keep: row, removed: 0 };
    return { keep: keep.length ? keep : null, removed: row.length - keep.length };
  }
}

export type AnyStateVar = ValueStateImpl | ListStateImpl | MapStateImpl;
