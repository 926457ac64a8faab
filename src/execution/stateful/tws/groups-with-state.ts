/**
 * flatMapGroupsWithState / mapGroupsWithState (Spark's FlatMapGroupsWithStateExec) as a
 * processor of the transformWithState operator: the key's GroupState is one value state, and
 * its timeout one timer. Spark's rules kept here:
 *   - every call starts with no timeout; a timeout the function does not set again is cleared;
 *   - timed-out keys are called (rows empty, hasTimedOut true) after every key with data,
 *     when their timeout < the batch's processing time (ProcessingTimeTimeout) or < the
 *     eviction watermark (EventTimeTimeout), the operator's timer rule;
 *   - the state is written after the function's output has been consumed (the function may be
 *     a generator that updates the state as it yields);
 *   - progress counts Spark's one state row per key (its value and its timeout together): a call
 *     that updates, removes or changes the timeout writes it (numRowsUpdated), or removes it
 *     when it ends with remove() and no timeout (numRowsRemoved, whether or not state existed);
 *   - a written row may hold neither a value nor a timeout (a key that only had a timeout, after a
 *     call that set nothing): Spark keeps it, invisible to the function but in numRowsTotal, until
 *     a call removes it. arus marks such a key in a value state of its own (NULL_ROW_NAME).
 */

import { ArusError, IllegalArgumentException } from "../../../common/errors.js";
import { delayMs } from "../../../common/interval.js";
import type {
  ExpiredTimerInfo,
  GroupState,
  GroupStateTimeout,
  GroupsWithStateFunction,
  OutputRows,
  ProcessorRow,
  StatefulProcessorHandle,
  StatefulProcessorLike,
  TimeMode,
  TimerValues,
  ValueState,
} from "../../../plan/stateful-processor.js";
import type { StructType } from "../../../types/datatypes.js";

/** The value state holding a key's GroupState (its timeout is the key's one timer). */
export const GROUP_STATE_NAME = "groupState";
/** The value state marking a key whose Spark state row has a NULL value and no timeout. */
const NULL_ROW_NAME = "groupStateNullRow";
const NULL_ROW = { kept: true };

export function timeModeOf(timeout: GroupStateTimeout): TimeMode {
  return timeout === "ProcessingTimeTimeout" ? "processingTime" : timeout === "EventTimeTimeout" ? "eventTime" : "none";
}

class GroupStateImpl implements GroupState<ProcessorRow> {
  value: ProcessorRow | null;
  updated = false;
  removed = false;
  timeoutAt: number | null = null;
  constructor(
    initial: ProcessorRow | null,
    readonly hasTimedOut: boolean,
    private readonly timeout: GroupStateTimeout,
    private readonly nowMs: number,
    private readonly watermarkMs: number,
    private readonly isMap: boolean,
    private readonly watermarkPresent: boolean,
  ) {
    this.value = initial;
  }
  get exists(): boolean {
    return this.value !== null;
  }
  get get(): ProcessorRow {
    if (this.value === null)
      throw new ArusError(
        "NO_SUCH_ELEMENT",
        "State is either not defined or has already been removed (GroupState.get with no state; check state.exists first).",
      );
    return this.value;
  }
  get getOption(): ProcessorRow | null {
    return this.value;
  }
  update(newState: ProcessorRow): void {
    if (newState === null || newState === undefined)
      throw new IllegalArgumentException("'null' is not a valid state value (GroupState.update); use remove().");
    this.value = newState;
    this.updated = true;
    this.removed = false;
  }
  remove(): void {
    this.value = null;
    this.removed = true;
    this.updated = false;
  }
  setTimeoutDuration(duration: number | string): void {
    if (this.timeout !== "ProcessingTimeTimeout") {
      throw new ArusError(
        "UNSUPPORTED_OPERATION",
        `Cannot set timeout duration without enabling processing time timeout in ${this.isMap ? "map" : "flatMap"}GroupsWithState (the timeout is ${this.timeout}).`,
      );
    }
    const ms = typeof duration === "string" ? delayMs(duration) : duration;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0)
      throw new IllegalArgumentException(`Timeout duration must be positive (got ${String(duration)}).`);
    this.timeoutAt = this.nowMs + Math.trunc(ms);
  }
  setTimeoutTimestamp(timestamp: number | Date): void {
    if (this.timeout !== "EventTimeTimeout") {
      throw new ArusError(
        "UNSUPPORTED_OPERATION",
        `Cannot set timeout timestamp without enabling event time timeout in ${this.isMap ? "map" : "flatMap"}GroupsWithState (the timeout is ${this.timeout}).`,
      );
    }
    const ms = timestamp instanceof Date ? timestamp.getTime() : timestamp;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0)
      throw new IllegalArgumentException(`Timeout timestamp must be positive (got ${String(timestamp)}).`);
    if (this.watermarkMs > 0 && ms < this.watermarkMs) {
      throw new IllegalArgumentException(`Timeout timestamp (${ms}) cannot be earlier than the current watermark (${this.watermarkMs}).`);
    }
    this.timeoutAt = ms;
  }
  getCurrentWatermarkMs(): number {
    if (!this.watermarkPresent) {
      throw new ArusError(
        "UNSUPPORTED_OPERATION",
        `Cannot get event time watermark timestamp without setting watermark before ${this.isMap ? "map" : "flatMap"}GroupsWithState (withWatermark on the input).`,
      );
    }
    return this.watermarkMs;
  }
  getCurrentProcessingTimeMs(): number {
    return this.nowMs;
  }
}

export class GroupsWithStateProcessor implements StatefulProcessorLike {
  private handle!: StatefulProcessorHandle;
  private state!: ValueState;
  /** Declared only with a timeout: without one a written row always has a value. */
  private nullRow: ValueState | null = null;
  constructor(
    private readonly fn: GroupsWithStateFunction<unknown>,
    private readonly stateSchema: StructType,
    private readonly timeout: GroupStateTimeout,
    private readonly isMap: boolean,
    /** The input carries a watermark (GroupState.getCurrentWatermarkMs answers in every timeout mode). */
    private readonly watermarkPresent = false,
  ) {}
  init(handle: StatefulProcessorHandle): void {
    this.handle = handle;
    this.state = handle.getValueState(GROUP_STATE_NAME, this.stateSchema);
    this.nullRow = this.timeout === "NoTimeout" ? null : handle.getValueState(NULL_ROW_NAME, "kept BOOLEAN");
    this.rowsWritten = 0;
    this.rowsRemoved = 0;
  }
  /** This batch's calls that wrote / removed the key's state row, as Spark counts them (init resets them). */
  rowsWritten = 0;
  rowsRemoved = 0;
  handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[], tv: TimerValues): OutputRows {
    return this.invoke(key, rows, tv, false);
  }
  handleExpiredTimer(key: readonly unknown[], tv: TimerValues, _info: ExpiredTimerInfo): OutputRows {
    return this.invoke(key, [], tv, true);
  }
  private invoke(key: readonly unknown[], rows: readonly ProcessorRow[], tv: TimerValues, timedOut: boolean): OutputRows {
    let oldTimeout: number | null = null;
    if (this.timeout !== "NoTimeout")
      for (const t of [...this.handle.listTimers()]) {
        oldTimeout = t;
        this.handle.deleteTimer(t);
      }
    const gs = new GroupStateImpl(
      this.state.get(),
      timedOut,
      this.timeout,
      tv.getCurrentProcessingTimeInMs(),
      tv.getCurrentWatermarkInMs(),
      this.isMap,
      this.watermarkPresent,
    );
    const res = this.fn(key, rows, gs as unknown as GroupState<unknown>);
    let out: (ProcessorRow | readonly unknown[])[];
    if (this.isMap) out = [res as unknown as ProcessorRow];
    else {
      if (res === null || res === undefined || typeof (res as Iterable<unknown>)[Symbol.iterator] !== "function") {
        throw new TypeError(
          `the flatMapGroupsWithState function must return an iterable of rows (an array or a generator), got ${res === null ? "null" : typeof res}`,
        );
      }
      out = [...res];
    }
    if (gs.removed) this.state.clear();
    else if (gs.updated) this.state.update(gs.value!);
    if (gs.timeoutAt !== null) this.handle.registerTimer(gs.timeoutAt);
    if (gs.removed && gs.timeoutAt === null) {
      this.rowsRemoved++;
      this.markNullRow(false);
    } else if (gs.updated || gs.removed || gs.timeoutAt !== oldTimeout) {
      this.rowsWritten++;
      this.markNullRow(gs.value === null && gs.timeoutAt === null);
    }
    return out;
  }
  private markNullRow(on: boolean): void {
    if (!this.nullRow || this.nullRow.exists() === on) return;
    if (on) this.nullRow.update(NULL_ROW);
    else this.nullRow.clear();
  }
}
