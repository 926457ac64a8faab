/**
 * When an operator planned on the state threads moves its state there (docs/parallel-execution.md,
 * "Starting on the main thread"). Under `arus.state.threads` = auto a columnar aggregation or
 * stream-stream join whose state goes to the state threads works on the main thread until it has
 * spent `arus.state.threads.moveAfter` doing its state work in the run: compiling its code in
 * every thread's isolate costs a short query more than the threads win back. Before the next
 * batch the main thread's stores of the operator close and the threads load the committed
 * version from the checkpoint's files — the reload a restart with another thread count does, so
 * the checkpoint and the exactly-once argument are a restart's. Without a checkpoint directory
 * there are no files to move through: the state starts on the threads. Every run starts on the
 * main thread again (a restarted process has compiled nothing).
 */
import type { StatefulContext } from "../stateful/context.js";

/**
 * How long an operator stays on the main thread in a run: milliseconds of its state work (0: not
 * at all), or (tests: `arus.test.stateMoveAfterBatches`) a number of batches, which falls on
 * the same batch every time.
 */
export type MoveAfter = { readonly ms: number } | { readonly batches: number };

export class StateMove {
  /** Moves in this process after at least one batch on the main thread (tests check they happened). */
  static movedFromMain = 0;
  /** Time (ms) this run's batches spent on the operator's state work on the main thread. */
  private onMainMs = 0;
  private batchesOnMain = 0;
  private moved = false;
  /** Told once, when the state goes to the threads (the decode threads start splitting by owner). */
  private readonly listeners: (() => void)[] = [];

  constructor(
    readonly operatorId: number,
    readonly after: MoveAfter,
  ) {}

  /** Is the operator's time on the main thread in this run up? */
  private due(): boolean {
    return "ms" in this.after ? this.onMainMs >= this.after.ms : this.batchesOnMain >= this.after.batches;
  }

  /**
   * Does this batch run on the state threads? Moves the state there (closing this thread's
   * stores of the operator) when the time on the main thread is up.
   */
  async onThreads(st: StatefulContext): Promise<boolean> {
    if (this.moved) return true;
    if (!this.due() && st.stateInFiles === true && st.releaseState) {
      this.batchesOnMain++;
      return false;
    }
    if (this.batchesOnMain > 0) {
      await st.releaseState!(this.operatorId);
      StateMove.movedFromMain++;
    }
    this.moved = true;
    for (const f of this.listeners.splice(0)) f();
    return true;
  }

  /** A batch on the main thread spent `ms` on the operator's state work. */
  ranOnMain(ms: number): void {
    this.onMainMs += ms;
  }

  /** Does the state start this run on the state threads (no time on the main thread first, or no files to move it through)? */
  startsOnThreads(stateInFiles: boolean): boolean {
    return this.due() || !stateInFiles;
  }

  /** Calls `f` when the state goes to the state threads in this run. */
  whenOnThreads(f: () => void): void {
    if (this.moved) f();
    else this.listeners.push(f);
  }

  /**
   * Calls `f` once the state is on the state threads: now if it starts there, else at the move
   * (the decode threads' split by owner is switched on this way: each file's task posts its spec
   * as it is then, and a file read ahead before the move comes unsplit).
   */
  fromThreads(stateInFiles: boolean, f: () => void): void {
    if (this.startsOnThreads(stateInFiles)) f();
    else this.whenOnThreads(f);
  }
}

/** Does `after` keep the state on the main thread for any time at all? */
export function staysOnMainFirst(after: MoveAfter | undefined): after is MoveAfter {
  return after !== undefined && ("ms" in after ? after.ms > 0 : after.batches > 0);
}
