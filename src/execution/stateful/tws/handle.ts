/**
 * The StatefulProcessorHandle a processor gets in `init`: it declares state variables (the
 * schema-collecting handle at planning time records them for the checkpoint's operator
 * metadata; the batch handle binds them to the state store) and registers timers for the
 * grouping key whose handler is running (Spark's implicit key).
 */
import { ArusError } from "../../../common/errors.js";
import type { ProcessorValues } from "../../../plan/logical.js";
import type { ListState, MapState, StatefulProcessorHandle, StateSchema, TimeMode, ValueState } from "../../../plan/stateful-processor.js";
import type { StateStore } from "../../../state/store.js";
import { simpleString } from "../../../types/datatypes.js";
import { RowCodec } from "./row-codec.js";
import {
  type AnyStateVar,
  type KeyScope,
  ListStateImpl,
  MapStateImpl,
  SEP,
  ValueStateImpl,
  type VarEnv,
  type VarKind,
} from "./state-vars.js";
import type { TimerIndex } from "./timers.js";

const TIME_MODE_NAME: Record<TimeMode, string> = { none: "NoTime", processingTime: "ProcessingTime", eventTime: "EventTime" };

export function invalidTimeMode(op: string, mode: TimeMode): ArusError {
  return new ArusError(
    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
    `[STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE] Failed to perform stateful processor operation=${op} with invalid timeMode=${TIME_MODE_NAME[mode]}: timers need timeMode "processingTime" or "eventTime".`,
  );
}

function checkTtl(name: string, ttlMs: number | undefined, mode: TimeMode): number | null {
  if (ttlMs === undefined || ttlMs === null || ttlMs === 0) return null;
  if (mode !== "processingTime") {
    throw new ArusError(
      "STATEFUL_PROCESSOR_CANNOT_ASSIGN_TTL_IN_TIME_MODE",
      `[STATEFUL_PROCESSOR_CANNOT_ASSIGN_TTL_IN_TIME_MODE] Cannot use TTL for state="${name}" in timeMode=${TIME_MODE_NAME[mode]}; TTL needs timeMode "processingTime".`,
    );
  }
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs < 0) {
    throw new ArusError(
      "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
      `[STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE] TTL duration must be greater than zero for state="${name}" (got ${String(ttlMs)}).`,
    );
  }
  return ttlMs;
}

/** One declared state variable, as the checkpoint records it. */
export interface VarDecl {
  readonly name: string;
  readonly kind: VarKind;
  readonly text: string;
}

/** Records the variables `init` declares (Spark's driver-side handle); nothing runs per key. */
export class SchemaCollectingHandle implements StatefulProcessorHandle {
  readonly decls: VarDecl[] = [];
  readonly deleted = new Set<string>();
  constructor(
    private readonly mode: TimeMode,
    private readonly values: ProcessorValues,
  ) {}
  private declare(name: string, kind: VarKind, schemas: string[], ttlMs: number | undefined): void {
    if (typeof name !== "string" || name === "" || name.includes(SEP)) {
      throw new ArusError("STATE_VARIABLE_NAME_INVALID", `A state variable needs a non-empty name (got ${JSON.stringify(name)}).`);
    }
    if (this.decls.some((d) => d.name === name)) {
      throw new ArusError(
        "STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED",
        `[STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED] State variable with name ${name} has already been defined in the StatefulProcessor.`,
      );
    }
    const ttl = checkTtl(name, ttlMs, this.mode);
    this.decls.push({ name, kind, text: `${kind}<${schemas.join(",")}>${ttl === null ? "" : " ttl"}` });
  }
  private schema(s: StateSchema, name: string): string {
    return simpleString(this.values.schema(s, `the schema of state variable "${name}"`));
  }
  getValueState(name: string, schema: StateSchema, ttlMs?: number): ValueState {
    this.declare(name, "value", [this.schema(schema, name)], ttlMs);
    return unusable("value", name) as ValueState;
  }
  getListState(name: string, schema: StateSchema, ttlMs?: number): ListState {
    this.declare(name, "list", [this.schema(schema, name)], ttlMs);
    return unusable("list", name) as ListState;
  }
  getMapState(name: string, keySchema: StateSchema, valueSchema: StateSchema, ttlMs?: number): MapState {
    this.declare(name, "map", [this.schema(keySchema, name), this.schema(valueSchema, name)], ttlMs);
    return unusable("map", name) as MapState;
  }
  registerTimer(): void {
    throw noKey("registerTimer");
  }
  deleteTimer(): void {
    throw noKey("deleteTimer");
  }
  listTimers(): IterableIterator<number> {
    throw noKey("listTimers");
  }
  deleteIfExists(name: string): void {
    this.deleted.add(name);
  }
}

function noKey(op: string): ArusError {
  return new ArusError(
    "STATE_STORE_IMPLICIT_KEY_NOT_FOUND",
    `${op} needs a grouping key: call it in handleInputRows, handleExpiredTimer or handleInitialState, not in init or close.`,
  );
}

/** A stand-in for a state variable during schema collection: any use says why it cannot work. */
function unusable(kind: string, name: string): object {
  return new Proxy(
    {},
    {
      get(_t, prop) {
        if (typeof prop === "symbol") return undefined;
        return () => {
          throw noKey(`${String(prop)} on ${kind} state "${name}"`);
        };
      },
    },
  );
}

export interface CurrentKey {
  readonly gk: string;
  /** Internal grouping values. */
  readonly key: readonly unknown[];
  readonly partition: number;
  readonly store: StateStore;
}

/** The handle of one batch: variables bound to the partition store of the key being handled. */
export class BatchProcessorHandle implements StatefulProcessorHandle, VarEnv {
  current: CurrentKey | null = null;
  inInit = true;
  readonly vars = new Map<string, AnyStateVar>();
  readonly counters = { numValuesRemovedDueToTTLExpiry: 0, numDeletedStateVars: 0 };
  /** Variables deleteIfExists asked to drop (the operator drops their rows before the first key). */
  readonly deleted = new Set<string>();

  constructor(
    private readonly mode: TimeMode,
    private readonly values: ProcessorValues,
    readonly nowMs: number,
    private readonly timers: TimerIndex,
  ) {}

  scope(op: string): KeyScope {
    if (!this.current) throw noKey(op);
    return this.current;
  }

  private declare(name: string, ttlMs: number | undefined, make: (ttl: number | null) => AnyStateVar): AnyStateVar {
    if (!this.inInit) {
      throw new ArusError(
        "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
        `[STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE] Failed to perform stateful processor operation=get_state("${name}") with invalid handle state: state variables are declared in init().`,
      );
    }
    const v = make(checkTtl(name, ttlMs, this.mode));
    this.vars.set(name, v);
    return v;
  }
  private codec(s: StateSchema, name: string, what: string): RowCodec {
    return new RowCodec(this.values.schema(s, `the schema of state variable "${name}"`), this.values, what);
  }
  getValueState(name: string, schema: StateSchema, ttlMs?: number): ValueState {
    return this.declare(
      name,
      ttlMs,
      (ttl) => new ValueStateImpl(name, this, ttl, this.codec(schema, name, `value state "${name}"`)),
    ) as ValueState;
  }
  getListState(name: string, schema: StateSchema, ttlMs?: number): ListState {
    return this.declare(
      name,
      ttlMs,
      (ttl) => new ListStateImpl(name, this, ttl, this.codec(schema, name, `list state "${name}"`)),
    ) as ListState;
  }
  getMapState(name: string, keySchema: StateSchema, valueSchema: StateSchema, ttlMs?: number): MapState {
    return this.declare(
      name,
      ttlMs,
      (ttl) =>
        new MapStateImpl(
          name,
          this,
          ttl,
          this.codec(keySchema, name, `map state "${name}" key`),
          this.codec(valueSchema, name, `map state "${name}"`),
        ),
    ) as MapState;
  }
  private timerKey(op: string): CurrentKey {
    if (this.mode === "none") throw invalidTimeMode(op, this.mode);
    if (!this.current) throw noKey(op);
    return this.current;
  }
  registerTimer(expiryTimestampMs: number): void {
    const c = this.timerKey("register_timer");
    if (typeof expiryTimestampMs !== "number" || !Number.isFinite(expiryTimestampMs)) {
      throw new ArusError("ILLEGAL_TIMER_VALUE", `registerTimer needs a time in epoch milliseconds (got ${String(expiryTimestampMs)}).`);
    }
    this.timers.register(c.store, c.partition, c.gk, c.key, Math.trunc(expiryTimestampMs));
  }
  deleteTimer(expiryTimestampMs: number): void {
    const c = this.timerKey("delete_timer");
    this.timers.delete(c.store, c.gk, Math.trunc(expiryTimestampMs));
  }
  *listTimers(): IterableIterator<number> {
    const c = this.timerKey("list_timers");
    yield* this.timers.list(c.gk);
  }
  deleteIfExists(name: string): void {
    if (!this.inInit) {
      throw new ArusError(
        "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
        `[STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE] deleteIfExists("${name}") is allowed in init() only.`,
      );
    }
    this.deleted.add(name);
  }
}
