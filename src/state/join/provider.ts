/**
 * The columnar join state of one side of a stream-stream join in one partition, versioned like
 * every state store (provider-base.ts): batch N opens version N, `commit` writes
 * `<ckpt>/state/<op>/<partition>/<side>/<N+1>.delta` (format 4, format.ts; none when nothing
 * changed) and makes N+1, `abort` puts the table back to N, loading version v reads the newest
 * snapshot <= v and the deltas after it (the `prev` chain checked), maintenance snapshots once
 * `minDeltasForSnapshot` deltas piled up, then applies retention.
 */
import { crashPoint } from "../../common/crash-points.js";
import { type DataType, simpleString } from "../../types/datatypes.js";
import { JOIN_FORMAT_VERSION } from "../codec.js";
import { nodeStateFs, StateFiles } from "../files.js";
import { type ProviderOptions, StateStoreClosedError, snapshotVersion, VersionedProvider } from "../provider-base.js";
import { encodeJoinFile, type JoinChunk, type JoinFileContent, type JoinRowSource, readJoinFile } from "./format.js";
import { JoinSideTable } from "./table.js";

const OPEN = 0;
const COMMITTED = 1;
const ABORTED = 2;

function rowSource(t: JoinSideTable): JoinRowSource {
  return {
    seqOf: (r) => t.seq[r]!,
    keyOf: (r) => t.keyString(t.rowKey[r]!),
    keyTimeOf: (r) => t.keyTime[t.rowKey[r]!]!,
    matchedOf: (r) => t.matched(r),
    encodeColumns: (ids) => t.cols.map((c) => c.encode(ids)),
  };
}

export class ColumnarJoinProvider extends VersionedProvider<ColumnarJoinStore> {
  private table: JoinSideTable;
  private readonly files: StateFiles | null;
  private readonly signature: string;
  private readonly structNames: (readonly string[] | null)[];

  constructor(
    /** `<ckpt>/state/<op>/<partition>/<side>`, or null: no checkpoint, no files. */
    readonly dir: string | null,
    /** The side's row types. */
    readonly types: readonly DataType[],
    private readonly opts: ProviderOptions & { readonly compactSlack?: number },
  ) {
    super();
    this.files = dir === null ? null : new StateFiles(dir, opts.fs ?? nodeStateFs);
    this.signature = types.map(simpleString).join(",");
    this.structNames = types.map((t) => (t.kind === "struct" ? t.fields.map((f) => f.name) : null));
    this.table = new JoinSideTable(types, opts.compactSlack);
  }

  protected newStore(version: number): ColumnarJoinStore {
    this.table.beginBatch();
    return new ColumnarJoinStore(this, version, this.table);
  }

  protected async load(version: number): Promise<void> {
    const hadState = this.version > 0;
    this.table = new JoinSideTable(this.types, this.opts.compactSlack);
    this.version = -1;
    if (version === 0) {
      this.version = 0;
      return;
    }
    if (!this.files) {
      if (hadState) throw new Error(`state version ${version} is not available: there is no checkpoint location to load it from`);
      this.version = version;
      return;
    }
    const files = this.files;
    const table = this.table;
    const plan = await files.plan(version, this.opts.requiredHead?.(files.dir, version) ?? 0);
    const read = (v: number, kind: "delta" | "snapshot") =>
      files.readWith(v, kind, (src, file, onHeader) =>
        readJoinFile(src, file, this.signature, this.structNames, onHeader, (next) => {
          table.nextSeq = next;
        }),
      );
    const apply = (c: JoinChunk, file: string) => {
      if (c.kind === "rows") {
        const row = new Array<unknown>(c.columns.length);
        for (let j = 0; j < c.n; j++) {
          for (let k = 0; k < c.columns.length; k++) row[k] = c.columns[k]!(j);
          table.append(c.keys[j]!, c.keyTimes[j]!, row, 0, c.matched[j] === 1, c.seqs[j]!);
        }
        return;
      }
      for (const s of c.seqs) {
        const r = table.rowOfSeq(s);
        if (r < 0 || !table.isLive(r))
          throw new Error(`${file}: it refers to row ${s}, which the state does not hold (the file is corrupt)`);
        if (c.kind === "flags") table.setMatched(r);
        else table.remove(r);
      }
    };
    table.beginBatch();
    const replay = async (v: number, kind: "delta" | "snapshot") => {
      const next = table.nextSeq;
      for await (const c of read(v, kind)) apply(c, files.path(v, kind));
      // The meta chunk's nextSeq covers rows appended and removed in one batch (never written).
      table.nextSeq = Math.max(table.nextSeq, next);
    };
    if (plan.snapshot > 0) await replay(plan.snapshot, "snapshot");
    for (const d of plan.deltas) await replay(d, "delta");
    table.commitBatch();
    this.version = version;
  }

  /** @internal the store's commit: the delta first, then the table forgets the batch's undo log. */
  commitStore(store: ColumnarJoinStore): Promise<number> {
    return this.serial(async () => {
      this.assertCurrent(store);
      const next = store.version + 1;
      this.lastCommitFileBytes = 0;
      const table = this.table;
      if (this.files) {
        await this.files.supersede(next);
        if (table.hasChanges()) {
          const content: JoinFileContent = {
            nextSeq: table.nextSeq,
            flags: table.flipped.filter((r) => table.isLive(r)),
            removes: table.removed,
            rows: table.appendedLive(),
          };
          if (content.flags!.length + content.removes!.length + content.rows.length > 0) {
            await this.files.writeEncoded(
              next,
              "delta",
              (prev, fileId) => encodeJoinFile("delta", next, prev, fileId, this.signature, content, rowSource(table)),
              {},
              JOIN_FORMAT_VERSION,
            );
            this.lastCommitFileBytes = this.files.lastWriteBytes;
            this.opts.onDeltaWritten?.(this.files.dir, next);
          }
        }
      }
      table.commitBatch();
      this.version = next;
      this.released(store);
      return next;
    });
  }

  /** @internal */
  abortStore(store: ColumnarJoinStore): void {
    this.table.abortBatch();
    this.released(store);
  }

  /** Snapshot the committed table when enough deltas piled up (encoded now), then retention. */
  protected async captureMaintenance(): Promise<(() => Promise<void>) | null> {
    if (!this.files || this.version <= 0) return null;
    const v = this.version;
    const files = this.files;
    await files.scan();
    await files.sweepTemps();
    const busy = this.openStore?.hasChanges() ?? false;
    let snapshot: Awaited<ReturnType<typeof files.encodeForLater>> | null = null;
    const at = snapshotVersion(files, v, busy, this.opts.minDeltasForSnapshot);
    if (at > 0) {
      const table = this.table;
      const content: JoinFileContent = { nextSeq: table.nextSeq, rows: table.liveIds() };
      snapshot = await files.encodeForLater(
        at,
        "snapshot",
        (prev, fileId) => encodeJoinFile("snapshot", at, prev, fileId, this.signature, content, rowSource(table)),
        JOIN_FORMAT_VERSION,
      );
    }
    return async () => {
      await snapshot?.({ afterFirstChunk: () => crashPoint("insideStateSnapshot", v - 1) });
      await files.retain(v, this.opts.minBatchesToRetain);
    };
  }

  protected async closeLive(): Promise<void> {
    this.table = new JoinSideTable(this.types, this.opts.compactSlack);
  }

  /** @internal */
  metricsOf(): Record<string, number> {
    return { ...this.providerMetrics(), stateOnCurrentVersionSizeBytes: this.table.bytes(), lastCommitFileBytes: this.lastCommitFileBytes };
  }
}

/**
 * One batch's view of a side's columnar join state: the table's reads and changes, commit,
 * abort. After commit or abort it refuses changes; reads still show the live table.
 */
export class ColumnarJoinStore {
  private state = OPEN;

  constructor(
    private readonly provider: ColumnarJoinProvider,
    /** The version this store was loaded at. */
    readonly version: number,
    private readonly t: JoinSideTable,
  ) {}

  /** The table, for reads and changes while the store is open. */
  get table(): JoinSideTable {
    if (this.state !== OPEN) throw new StateStoreClosedError(this.state === COMMITTED ? "committed" : "aborted");
    return this.t;
  }

  get numRows(): number {
    return this.t.liveRows;
  }

  hasChanges(): boolean {
    return this.state === OPEN && this.t.hasChanges();
  }

  async commit(): Promise<number> {
    if (this.state !== OPEN) throw new StateStoreClosedError(this.state === COMMITTED ? "committed" : "aborted");
    let v: number;
    try {
      v = await this.provider.commitStore(this);
    } catch (e) {
      // A failed write leaves no new version: the table goes back to exactly `version`.
      this.abort();
      throw e;
    }
    this.state = COMMITTED;
    return v;
  }

  abort(): void {
    if (this.state !== OPEN) return;
    this.state = ABORTED;
    this.provider.abortStore(this);
  }

  memoryUsedBytes(): number {
    return this.t.bytes();
  }
}
