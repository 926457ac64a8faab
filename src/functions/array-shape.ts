/**
 * Array functions that cut, join or build arrays: slice, flatten, arrays_zip and sequence
 * (integers, dates by days, timestamps by a day-time interval), with Spark's errors for a
 * bad start, length or step.
 */

import { getValue, vectorFromValues } from "../columnar/vector.js";
import { MICROS_PER_DAY } from "../common/datetime/index.js";
import { AnalysisException, ArusError, IllegalArgumentException } from "../common/errors.js";
import { call as callExpr, type Expr, literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerType } from "../types/coercion.js";
import {
  ArrayOf,
  type ArrayType,
  type DataType,
  field,
  IntegerType,
  isIntegral,
  NullType,
  StringType,
  StructOf,
  type StructType,
  sqlTypeName,
} from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction, typeMismatch } from "./registry.js";
import { typeOf } from "./typing.js";

function arrayArg(call: Expr, args: readonly Expr[], types: readonly DataType[], i: number): ArrayType {
  const t = types[i]!;
  if (t.kind === "null") return ArrayOf(NullType);
  if (t.kind !== "array") throw typeMismatch(call, i, '"ARRAY"', args[i]!, t);
  return t;
}

function invalidParameter(sub: "START" | "LENGTH", detail: string): ArusError {
  return new ArusError(
    `INVALID_PARAMETER_VALUE.${sub}`,
    `[INVALID_PARAMETER_VALUE.${sub}] The value of parameter(s) \`${sub === "START" ? "start" : "length"}\` in \`slice\` is invalid: ${detail}`,
  );
}

/** slice(arr, start, length): start is 1-based, negative counts from the end; 0 is an error. */
const slice: ScalarFunction = {
  kind: "scalar",
  name: "slice",
  resolve(args, types, call) {
    checkArity("slice", args, 3);
    const t = arrayArg(call, args, types, 0);
    return {
      args: [castTo(args[0]!, types[0]!, t), castTo(args[1]!, types[1]!, IntegerType), castTo(args[2]!, types[2]!, IntegerType)],
      type: t,
    };
  },
  kernel: (args, n) =>
    mapRows(args[0]!.type, args, n, (a, s, l) => {
      const arr = a as unknown[];
      const start = s as number;
      const length = l as number;
      if (start === 0) throw invalidParameter("START", "Expects a positive or a negative value for `start`, but got 0.");
      if (length < 0) throw invalidParameter("LENGTH", `Expects \`length\` greater than or equal to 0, but got ${length}.`);
      const from = start > 0 ? start - 1 : arr.length + start;
      if (from < 0 || from >= arr.length) return [];
      return arr.slice(from, from + length);
    }),
};

/** flatten(array<array<T>>): the inner arrays concatenated; NULL when any of them is NULL. */
const flatten: ScalarFunction = {
  kind: "scalar",
  name: "flatten",
  resolve(args, types, call) {
    checkArity("flatten", args, 1);
    const t = arrayArg(call, args, types, 0);
    if (t.elementType.kind !== "array") throw typeMismatch(call, 0, '"ARRAY" of "ARRAY"', args[0]!, t);
    return { args, type: ArrayOf(t.elementType.elementType, t.elementType.containsNull) };
  },
  kernel: (args, n) =>
    mapRows(ArrayOf((args[0]!.type as ArrayType & { elementType: ArrayType }).elementType.elementType), args, n, (a) => {
      const arr = a as (unknown[] | null)[];
      if (arr.some((x) => x === null || x === undefined)) return null;
      return arr.flat(1);
    }),
};

/** The struct field name arrays_zip gives argument i: a column's own name, else the position. */
function zipFieldName(e: Expr, i: number): string {
  if (e.kind === "attribute") return e.name;
  if (e.kind === "column") return e.nameParts[e.nameParts.length - 1]!;
  return String(i);
}

/**
 * arrays_zip(a, b, ...): the i-th elements together as a struct, NULL-padded to the longest
 * array; NULL if any array is NULL. The field names come from the argument expressions, which a
 * kernel never sees, so analysis wraps the arrays in one named_struct (resolving that again
 * keeps it) and the kernel reads the names from the struct's type.
 */
const arraysZip: ScalarFunction = {
  kind: "scalar",
  name: "arrays_zip",
  resolve(args, types, call) {
    // Resolving again (or after constant folding) sees the one struct of arrays made below.
    const t0 = types[0]!;
    const wrapped = args.length === 1 && t0.kind === "struct" && t0.fields.every((f) => f.type.kind === "array" || f.type.kind === "null");
    if (!wrapped) {
      // (no arrays: an empty array of empty structs, as in Spark)
      for (let i = 0; i < args.length; i++) arrayArg(call, args, types, i); // type checks only
      const named = callExpr(
        "named_struct",
        args.flatMap((a, i) => [literal(zipFieldName(a, i), StringType), a]),
      );
      return this.resolve([named], [typeOf(named)], call);
    }
    const fields = (types[0] as StructType).fields.map((f) => field(f.name, f.type.kind === "array" ? f.type.elementType : NullType));
    return { args, type: ArrayOf(StructOf(fields), false) };
  },
  kernel(args, n) {
    const s = args[0]!;
    const names = (s.type as StructType).fields.map((f) => f.name);
    const columns = s.children!;
    const type = ArrayOf(
      StructOf((s.type as StructType).fields.map((f) => field(f.name, (f.type as ArrayType).elementType ?? NullType))),
      false,
    );
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const arrays = columns.map((c) => getValue(c, i) as unknown[] | null);
      if (arrays.some((a) => a === null || a === undefined)) {
        out[i] = null;
        continue;
      }
      const len = Math.max(0, ...arrays.map((a) => a!.length));
      out[i] = Array.from({ length: len }, (_, k) => Object.fromEntries(names.map((name, j) => [name, arrays[j]![k] ?? null])));
    }
    return vectorFromValues(type, out);
  },
};

function illegalBoundaries(start: unknown, stop: unknown, step: unknown): IllegalArgumentException {
  return new IllegalArgumentException(`Illegal sequence boundaries: ${start} to ${stop} by ${step}`);
}

/** The values start, start + step, ... up to stop, as Spark's Sequence requires of the step's sign. */
function steps(start: number, stop: number, step: number, show: (x: number) => unknown): number[] {
  if (!((step > 0 && start <= stop) || (step < 0 && start >= stop) || (step === 0 && start === stop))) {
    throw illegalBoundaries(show(start), show(stop), step);
  }
  const out: number[] = [];
  if (step === 0) return [start];
  for (let x = start; step > 0 ? x <= stop : x >= stop; x += step) out.push(x);
  return out;
}

const sequence: ScalarFunction = {
  kind: "scalar",
  name: "sequence",
  resolve(args, types, call) {
    checkArity("sequence", args, 2, 3);
    // An integral step widens the element type too: sequence(1, 5, 2L) is ARRAY<BIGINT>.
    const bounds = widerType(types[0]!, types[1]!, false);
    const t = bounds && types[2] && isIntegral(bounds) && isIntegral(types[2]) ? widerType(bounds, types[2], false) : bounds;
    const ok = t !== null && (isIntegral(t) || t.kind === "date" || t.kind === "timestamp");
    if (!ok) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES",
        `[DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: \`sequence\` uses the wrong parameter type. The parameter type must conform to: 1. The start and stop expressions must resolve to the same type. 2. If start and stop expressions resolve to the "DATE" or "TIMESTAMP" type then the step expression must resolve to the "INTERVAL" type, otherwise to the same type as the start and stop expressions. ${types.map((x) => `"${sqlTypeName(x)}"`).join(", ")}`,
      );
    }
    const stepArg = args[2] ? [castTo(args[2], types[2]!, isIntegral(t!) ? t! : types[2]!)] : [];
    return { args: [castTo(args[0]!, types[0]!, t!), castTo(args[1]!, types[1]!, t!), ...stepArg], type: ArrayOf(t!, false) };
  },
  kernel(args, n) {
    const t = args[0]!.type;
    return mapRows(ArrayOf(t, false), args, n, (a, b, s) => {
      const start = Number(a);
      const stop = Number(b);
      if (t.kind === "date") {
        // A day-time interval step must be whole days for dates.
        const days = s === undefined ? (start <= stop ? 1 : -1) : Number(s) / MICROS_PER_DAY;
        if (!Number.isInteger(days)) throw illegalBoundaries(a, b, s);
        return steps(start, stop, days, (x) => x);
      }
      const step =
        s === undefined
          ? t.kind === "timestamp"
            ? start <= stop
              ? MICROS_PER_DAY
              : -MICROS_PER_DAY
            : start <= stop
              ? 1
              : -1
          : Number(s);
      return steps(start, stop, step, (x) => x);
    });
  },
};

register(slice, flatten, arraysZip, sequence);
