/**
 * `rate-micro-batch` (Spark's RatePerMicroBatchProvider): exactly `rowsPerBatch` rows per batch,
 * all stamped `startTimestamp + k * advanceMillisPerBatch` for the k-th batch, independent of
 * the wall clock — deterministic, which is why differential tests use it.
 */
import type { Batch } from "../../columnar/batch.js";
import { findOption, intOption, registerSource } from "../registry.js";
import type { Offset, ReadLimit, StreamSource } from "../source.js";
import { rateRows } from "./rate-source.js";
import { parseSchemaText, RATE_SCHEMA } from "./schema.js";

interface RateOffset {
  offset: number;
  timestamp: number;
}

class RateMicroBatchSource implements StreamSource {
  readonly schema = RATE_SCHEMA;
  readonly supportsAvailableNow = true;
  readonly description: string;
  private availableNowEnd: RateOffset | null = null;
  private prepared = false;

  constructor(
    private readonly rowsPerBatch: number,
    private readonly numPartitions: number,
    private readonly startTimestamp: number,
    private readonly advanceMs: number,
  ) {
    this.description = `RatePerMicroBatchStream[rowsPerBatch=${rowsPerBatch}, numPartitions=${numPartitions}, startTimestamp=${startTimestamp}, advanceMsPerBatch=${advanceMs}]`;
  }
  defaultReadLimit(): ReadLimit {
    return { kind: "maxRows", max: this.rowsPerBatch };
  }
  async prepareForAvailableNow(): Promise<void> {
    this.prepared = true;
  }
  /** Spark's RatePerMicroBatchStream reports no latest offset: progress `latestOffset` is null. */
  reportLatestOffset(): null {
    return null;
  }
  private next(start: Offset | null): RateOffset {
    const s = (start as RateOffset | null) ?? { offset: 0, timestamp: this.startTimestamp };
    return { offset: s.offset + this.rowsPerBatch, timestamp: s.timestamp + this.advanceMs };
  }
  async latestOffset(start: Offset | null): Promise<Offset | null> {
    if (this.prepared) {
      // AvailableNow fixes the target once: exactly one data batch.
      this.availableNowEnd ??= this.next(start);
      return this.availableNowEnd as unknown as Offset;
    }
    return this.next(start) as unknown as Offset;
  }
  async getBatch(start: Offset | null, end: Offset): Promise<Batch[]> {
    const s = (start as RateOffset | null) ?? { offset: 0, timestamp: this.startTimestamp };
    const e = end as unknown as RateOffset;
    if (e.offset <= s.offset) return [];
    return [rateRows(s.offset, e.offset, () => s.timestamp, this.numPartitions)];
  }
  async commit(): Promise<void> {}
  async stop(): Promise<void> {}
}

registerSource("rate-micro-batch", {
  schema: (_o, userSchema) => parseSchemaText(userSchema, "rate-micro-batch"),
  create(options) {
    if (findOption(options, "rowsPerBatch") === undefined) {
      throw new Error("Invalid option: 'rowsPerBatch' must be specified for the rate-micro-batch source.");
    }
    return new RateMicroBatchSource(
      intOption(options, "rowsPerBatch", 1, 1),
      intOption(options, "numPartitions", 1, 1),
      intOption(options, "startTimestamp", 0, 0),
      intOption(options, "advanceMillisPerBatch", 1000, 0),
    );
  },
});
