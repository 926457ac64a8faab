/**
 * Aggregation state that starts on the main thread and moves to the state threads
 * (`arus.state.threads` = auto, state-move.ts): the columnar backend's table here until the move,
 * the state threads' tables after it — the same files, so the move is a reload.
 */
import type { AggregateChunk, AggregateRunOptions, AggregationBackend, BackendRunResult } from "../stateful/aggregation-backend.js";
import type { ColumnarBackend } from "../stateful/columnar-backend.js";
import type { StatefulContext } from "../stateful/context.js";
import type { StateMove } from "./state-move.js";
import type { StateThreadsBackend } from "./threads-backend.js";

export class MovingBackend implements AggregationBackend {
  readonly kind = "threads";
  readonly usesStateThreads = true;
  private current: AggregationBackend;

  constructor(
    private readonly main: ColumnarBackend,
    readonly threads: StateThreadsBackend,
    readonly move: StateMove,
  ) {
    this.current = main;
  }

  async run(st: StatefulContext, chunks: readonly AggregateChunk[], o: AggregateRunOptions): Promise<BackendRunResult> {
    if (await this.move.onThreads(st)) {
      this.current = this.threads;
      return this.threads.run(st, chunks, o);
    }
    const t0 = performance.now();
    const r = await this.main.run(st, chunks, o);
    this.move.ranOnMain(performance.now() - t0);
    return r;
  }

  openEventTimes(): number[] {
    return this.current.openEventTimes();
  }
}
