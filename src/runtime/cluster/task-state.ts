/**
 * The state of one group-mode task (a repartition partition p): every store its stateful
 * operator opens, kept in memory and made durable in the changelog topic's partition p
 * (Kafka Streams' changelogs). The local copy is a cache; the changelog is the truth.
 *
 * A batch's changes go to the changelog inside the worker's transaction. They are folded into
 * the committed maps only once that transaction committed (`publish`); if it aborts, the
 * changes are dropped (`discard`), so the memory never holds anything Kafka does not.
 *
 * Changelog record: key `<operator>\u0000<store>\u0000<state key>`, value the row encoded as
 * the state files encode it, or null (a tombstone) for a removed key; the topic is compacted.
 */
import { decodeValue, encodeValue } from "../../state/codec.js";
import { estimateBytes } from "../../state/size.js";
import type { StateRow, StateStore, StateStoreMetrics } from "../../state/store.js";

const SEP = "\u0000";

export interface ChangelogRecord {
  readonly key: Uint8Array;
  readonly value: Uint8Array | null;
}

function storeId(operatorId: number, storeName: string): string {
  return `${operatorId}${SEP}${storeName}`;
}

/** One store of one batch: reads the committed map under this batch's changes. */
class TaskStore implements StateStore {
  private readonly changes = new Map<string, StateRow | null>();
  private state: "open" | "committed" | "aborted" = "open";
  private removed = 0;
  private puts = 0;
  private liveKeys: number;

  constructor(
    readonly version: number,
    private readonly committed: Map<string, StateRow>,
    private readonly onCommit: (changes: Map<string, StateRow | null>) => void,
  ) {
    this.liveKeys = committed.size;
  }

  private writable(): void {
    if (this.state !== "open") throw new Error(`state store version ${this.version} is already ${this.state}`);
  }
  get(key: string): StateRow | undefined {
    const c = this.changes.get(key);
    if (c !== undefined) return c ?? undefined;
    return this.committed.get(key);
  }
  put(key: string, value: StateRow): void {
    this.writable();
    if (this.get(key) === undefined) this.liveKeys++;
    this.changes.set(key, value);
    this.puts++;
  }
  remove(key: string): void {
    this.writable();
    if (this.get(key) === undefined) return;
    this.changes.set(key, null);
    this.liveKeys--;
    this.removed++;
  }
  *entries(): IterableIterator<[string, StateRow]> {
    for (const [k, v] of this.committed) {
      if (this.changes.has(k)) continue;
      yield [k, v];
    }
    for (const [k, v] of this.changes) if (v !== null) yield [k, v];
  }
  *prefixScan(prefix: string): IterableIterator<[string, StateRow]> {
    for (const e of this.entries()) if (e[0].startsWith(prefix)) yield e;
  }
  get numKeys(): number {
    return this.liveKeys;
  }
  async commit(): Promise<number> {
    this.writable();
    this.state = "committed";
    this.onCommit(this.changes);
    return this.version + 1;
  }
  abort(): void {
    if (this.state === "open") this.state = "aborted";
  }
  memoryUsedBytes(): number {
    let n = 0;
    let seen = 0;
    for (const [k, v] of this.committed) {
      n += 2 * k.length + estimateBytes(v);
      if (++seen >= 64) break;
    }
    return seen ? Math.round((n / seen) * this.liveKeys) : 0;
  }
  metrics(): StateStoreMetrics {
    return {
      numKeys: this.liveKeys,
      numUpdatedKeys: this.puts,
      numRemovedKeys: this.removed,
      memoryUsedBytes: this.memoryUsedBytes(),
      customMetrics: {},
    };
  }
}

export class TaskState {
  private readonly stores = new Map<string, Map<string, StateRow>>();
  /** Committed by the operators in this batch, waiting for the Kafka transaction. */
  private staged: { id: string; changes: Map<string, StateRow | null> }[] = [];
  /** Batches this task committed (a version number for the stores; the changelog is the truth). */
  version = 0;

  constructor(readonly partition: number) {}

  open(operatorId: number, storeName: string): StateStore {
    const id = storeId(operatorId, storeName);
    let committed = this.stores.get(id);
    if (!committed) this.stores.set(id, (committed = new Map()));
    return new TaskStore(this.version, committed, (changes) => this.staged.push({ id, changes }));
  }

  /** The staged changes as changelog records (key order within a store: the operator's). */
  changelogRecords(): ChangelogRecord[] {
    const out: ChangelogRecord[] = [];
    for (const { id, changes } of this.staged) {
      for (const [k, v] of changes) {
        out.push({ key: Buffer.from(`${id}${SEP}${k}`, "utf8"), value: v === null ? null : encodeValue(v) });
      }
    }
    return out;
  }

  /** The transaction committed: the staged changes become the state. */
  publish(): void {
    for (const { id, changes } of this.staged) {
      const m = this.stores.get(id)!;
      for (const [k, v] of changes) {
        if (v === null) m.delete(k);
        else m.set(k, v);
      }
    }
    if (this.staged.length) this.version++;
    this.staged = [];
  }

  /** The transaction aborted: forget the batch's changes. */
  discard(): void {
    this.staged = [];
  }

  /** Restore: apply one changelog record (read in offset order). */
  apply(key: Uint8Array, value: Uint8Array | null): void {
    const text = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("utf8");
    const a = text.indexOf(SEP);
    const b = text.indexOf(SEP, a + 1);
    if (a < 0 || b < 0) throw new Error(`malformed changelog key '${text}' in partition ${this.partition}`);
    const id = text.slice(0, b);
    let m = this.stores.get(id);
    if (!m) this.stores.set(id, (m = new Map()));
    const k = text.slice(b + 1);
    if (value === null) m.delete(k);
    else m.set(k, decodeValue(value));
  }

  /** The committed state as changelog puts (a snapshot's entries: `apply` reads them back). */
  *committedRecords(): IterableIterator<{ key: Uint8Array; value: Uint8Array }> {
    for (const [id, m] of this.stores) {
      for (const [k, v] of m) yield { key: Buffer.from(`${id}${SEP}${k}`, "utf8"), value: encodeValue(v) };
    }
  }

  get numKeys(): number {
    let n = 0;
    for (const m of this.stores.values()) n += m.size;
    return n;
  }
}
