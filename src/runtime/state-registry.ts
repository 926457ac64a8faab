/**
 * One state store provider per (operator, partition, store name), created on first use and
 * kept for the query's life, so the live map stays in memory between batches.
 */
import type { RuntimeConfig } from "../common/conf.js";
import { IllegalArgumentException } from "../common/errors.js";
import { MemoryStateStoreProvider } from "../state/memory-provider.js";
import type { StateStore, StateStoreProvider } from "../state/store.js";
import type { CheckpointStore } from "./checkpoint-store.js";

const PROVIDERS = new Set(["arus.state.MemoryStateStoreProvider", "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"]);

export class StateStoreRegistry {
  private readonly providers = new Map<string, StateStoreProvider>();
  private batchesSinceMaintenance = 0;

  constructor(
    private readonly checkpoint: CheckpointStore,
    private readonly conf: RuntimeConfig,
  ) {
    const cls = checkpoint.stickyConf["spark.sql.streaming.stateStore.providerClass"] ?? conf.get("spark.sql.streaming.stateStore.providerClass");
    if (!PROVIDERS.has(cls)) {
      throw new IllegalArgumentException(`Unknown state store provider '${cls}'. Available: ${[...PROVIDERS].join(", ")}.`);
    }
  }

  async store(op: number, partition: number, name: string | undefined, version: number): Promise<StateStore> {
    const key = `${op}/${partition}/${name ?? "default"}`;
    let p = this.providers.get(key);
    if (!p) {
      p = new MemoryStateStoreProvider(this.checkpoint.stateDir(op, partition, name), {
        minDeltasForSnapshot: this.conf.getInt("spark.sql.streaming.stateStore.minDeltasForSnapshot"),
        minBatchesToRetain: this.conf.getInt("spark.sql.streaming.minBatchesToRetain"),
      });
      this.providers.set(key, p);
    }
    return p.getStore(version);
  }

  /** Snapshot and clean up every few batches (Spark runs this on a 60 s timer). */
  async maintenance(): Promise<void> {
    if (++this.batchesSinceMaintenance < 10) return;
    this.batchesSinceMaintenance = 0;
    for (const p of this.providers.values()) await p.doMaintenance();
  }

  async close(): Promise<void> {
    for (const p of this.providers.values()) await p.close();
    this.providers.clear();
  }
}
