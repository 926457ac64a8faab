/**
 * MemoryStream's source side (Spark's MemoryStream): every `addData` call appends one block
 * and returns its offset (0, 1, ...; -1 before any). A batch takes the blocks after its start
 * offset. Not durable: after a restart the data is gone, exactly as in Spark.
 */
import type { Batch } from "../../columnar/batch.js";
import { concatBatches } from "../../columnar/batch.js";
import type { StructType } from "../../types/datatypes.js";
import type { Offset, ReadLimit, StreamSource } from "../source.js";

export class MemorySource implements StreamSource {
  readonly supportsAvailableNow = true;
  private readonly blocks: Batch[] = [];
  /** Blocks with index <= this were committed and dropped. */
  private committed = -1;
  private availableNowEnd: number | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly schema: StructType,
    readonly description: string,
  ) {}

  addBlock(b: Batch): number {
    this.blocks.push(b);
    for (const l of this.listeners) l();
    return this.blocks.length - 1;
  }
  onDataAvailable(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get latest(): number {
    return this.blocks.length - 1;
  }
  defaultReadLimit(): ReadLimit {
    return { kind: "all" };
  }
  async prepareForAvailableNow(): Promise<void> {
    this.availableNowEnd = this.latest;
  }
  async latestOffset(_start: Offset | null, _limit: ReadLimit): Promise<Offset | null> {
    const end = this.availableNowEnd ?? this.latest;
    return end < 0 ? null : end;
  }
  async getBatch(start: Offset | null, end: Offset): Promise<Batch[]> {
    const from = start === null ? 0 : (start as number) + 1;
    const parts: Batch[] = [];
    for (let i = from; i <= (end as number); i++) {
      const b = this.blocks[i];
      if (!b) {
        throw new Error(`MemoryStream data for offset ${i} is gone (MemoryStream is not durable and cannot replay after a restart).`);
      }
      parts.push(b);
    }
    return parts.length
      ? [
          concatBatches(
            this.schema.fields.map((f) => f.type),
            parts,
          ),
        ]
      : [];
  }
  async commit(end: Offset): Promise<void> {
    this.committed = Math.max(this.committed, end as number);
  }
  async stop(): Promise<void> {}
}
