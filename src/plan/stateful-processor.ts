/**
 * The public contract of arbitrary stateful processing (PySpark 4.1+'s transformWithState and
 * Spark's flatMapGroupsWithState / mapGroupsWithState): what a user's processor implements and
 * what it is handed. The plan holds the processor as data; execution/stateful/tws/ implements
 * the handle and the state variables over the versioned state store.
 *
 * Rows cross this boundary as plain objects keyed by column name, with the values `collect()`
 * gives (Date for TIMESTAMP, numbers, strings, ...): that is what a ported PySpark processor
 * reads as `row.field`, and what a test can write literally.
 */
import type { StructType } from "../types/datatypes.js";

/** A row handed to or returned by a processor: a plain object keyed by field name. */
export type ProcessorRow = Record<string, unknown>;

/** A schema as a DDL string (`"count BIGINT"`) or a StructType. */
export type StateSchema = string | StructType;

/** transformWithState's time modes (PySpark's `timeMode` strings). */
export type TimeMode = "none" | "processingTime" | "eventTime";

export interface TimerValues {
  /** The batch's processing time (ms), or -1 in time mode "none". */
  getCurrentProcessingTimeInMs(): number;
  /** The watermark (ms) the batch evicts with, or -1 outside time mode "eventTime". */
  getCurrentWatermarkInMs(): number;
}

export interface ExpiredTimerInfo {
  getExpiryTimeInMs(): number;
}

export interface ValueState<V = ProcessorRow> {
  exists(): boolean;
  /** The value, or null when there is none (or its TTL expired). */
  get(): V | null;
  update(value: V): void;
  clear(): void;
}

export interface ListState<V = ProcessorRow> {
  exists(): boolean;
  get(): IterableIterator<V>;
  /** Replace the list. */
  put(values: readonly V[]): void;
  appendValue(value: V): void;
  appendList(values: readonly V[]): void;
  clear(): void;
}

export interface MapState<K = ProcessorRow, V = ProcessorRow> {
  exists(): boolean;
  getValue(key: K): V | null;
  containsKey(key: K): boolean;
  updateValue(key: K, value: V): void;
  iterator(): IterableIterator<[K, V]>;
  keys(): IterableIterator<K>;
  values(): IterableIterator<V>;
  removeKey(key: K): void;
  clear(): void;
}

export interface StatefulProcessorHandle {
  /** A value per grouping key; `ttlMs` (processingTime mode only) expires it that long after its last update. */
  getValueState(stateName: string, schema: StateSchema, ttlMs?: number): ValueState;
  getListState(stateName: string, schema: StateSchema, ttlMs?: number): ListState;
  getMapState(stateName: string, userKeySchema: StateSchema, valueSchema: StateSchema, ttlMs?: number): MapState;
  /** A timer for the current grouping key (processingTime / eventTime modes). */
  registerTimer(expiryTimestampMs: number): void;
  deleteTimer(expiryTimestampMs: number): void;
  listTimers(): IterableIterator<number>;
  /** Drop a state variable's values for every key (init only; e.g. one a new processor no longer uses). */
  deleteIfExists(stateName: string): void;
}

/** An iterable of output rows: an array, a generator, a Set... */
export type OutputRows = Iterable<ProcessorRow | readonly unknown[]>;

/**
 * What transformWithState runs per grouping key. Extend this class (or pass any object with
 * these methods). `key` is an array of the grouping values, in groupBy order.
 */
export abstract class StatefulProcessor {
  abstract init(handle: StatefulProcessorHandle): void;
  abstract handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[], timerValues: TimerValues): OutputRows;
  handleExpiredTimer?(key: readonly unknown[], timerValues: TimerValues, expiredTimerInfo: ExpiredTimerInfo): OutputRows;
  handleInitialState?(key: readonly unknown[], initialState: ProcessorRow, timerValues: TimerValues): void;
  close?(): void;
}

/** The shape transformWithState accepts: a StatefulProcessor instance or a plain object. */
export interface StatefulProcessorLike {
  init(handle: StatefulProcessorHandle): void;
  handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[], timerValues: TimerValues): OutputRows;
  handleExpiredTimer?(key: readonly unknown[], timerValues: TimerValues, expiredTimerInfo: ExpiredTimerInfo): OutputRows;
  handleInitialState?(key: readonly unknown[], initialState: ProcessorRow, timerValues: TimerValues): void;
  close?(): void;
}

/** Spark's GroupStateTimeout. */
export const GroupStateTimeout = Object.freeze({
  NoTimeout: "NoTimeout",
  ProcessingTimeTimeout: "ProcessingTimeTimeout",
  EventTimeTimeout: "EventTimeTimeout",
} as const);
export type GroupStateTimeout = (typeof GroupStateTimeout)[keyof typeof GroupStateTimeout];

/** Spark's GroupState: the one state value of a key in flatMapGroupsWithState / mapGroupsWithState. */
export interface GroupState<S = ProcessorRow> {
  readonly exists: boolean;
  /** The value (a property, as in PySpark); throws when there is none (Spark's NoSuchElementException). */
  readonly get: S;
  readonly getOption: S | null;
  update(newState: S): void;
  remove(): void;
  readonly hasTimedOut: boolean;
  /** ProcessingTimeTimeout only: the key times out this long (ms, or an interval string) after the batch's processing time. */
  setTimeoutDuration(duration: number | string): void;
  /** EventTimeTimeout only: the key times out once the watermark passes this time (ms or Date). */
  setTimeoutTimestamp(timestampMs: number | Date): void;
  getCurrentWatermarkMs(): number;
  getCurrentProcessingTimeMs(): number;
}

/** flatMapGroupsWithState's function: the key, its rows of this batch (none when timing out) and its state. */
export type GroupsWithStateFunction<S = ProcessorRow> = (
  key: readonly unknown[],
  rows: readonly ProcessorRow[],
  state: GroupState<S>,
) => OutputRows;
