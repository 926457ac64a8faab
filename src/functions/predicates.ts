/**
 * Comparisons, boolean logic with SQL's three-valued semantics, IS [NOT] NULL, IN, LIKE, RLIKE.
 */
import { rowPairOrder } from "../columnar/string-order.js";
import { getValue, makeVector, type Vector } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { compareStrings } from "../common/string-order.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { comparisonType, widerTypeOfAll } from "../types/coercion.js";
import { BooleanType, type DataType, sqlTypeName } from "../types/datatypes.js";
import { javaRegExp } from "./java-regex.js";
import { andValidity, mapRows } from "./kernel-util.js";
import { castTo, checkArity, type Resolved, register, type ScalarFunction, stringArg, typeMismatch } from "./registry.js";
import { utf8Compare, utf8Equals, utf8In, utf8NullSafeEquals } from "./utf8-kernels.js";

function resolveComparison(args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved {
  checkArity("comparison", args, 2);
  const t = comparisonType(types[0]!, types[1]!);
  if (!t) {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
      `[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: ` +
        `the left and right operands of the binary operator have incompatible types ("${sqlTypeName(types[0]!)}" and "${sqlTypeName(types[1]!)}").`,
    );
  }
  return { args: [castTo(args[0]!, types[0]!, t), castTo(args[1]!, types[1]!, t)], type: BooleanType };
}

/** Three-way compare of two non-null internal values of one atomic type (strings by code point, as Spark's UTF8_BINARY). */
export function compareValues(x: unknown, y: unknown): number {
  if (typeof x === "number") {
    const b = y as number;
    if (x < b) return -1;
    if (x > b) return 1;
    if (x === b) return 0;
    if (typeof b === "bigint") return 0; // a BIGINT beyond ±2^53 − 1 on the other side: < and > are exact
    // NaN is larger than any other value and equal to itself (Spark's ordering).
    return Number.isNaN(x) ? (Number.isNaN(b) ? 0 : 1) : -1;
  }
  if (typeof x === "string") return compareStrings(x, y as string);
  if (typeof x === "bigint") return x < (y as number | bigint) ? -1 : x > (y as number | bigint) ? 1 : 0;
  if (x instanceof Uint8Array) {
    const b = y as Uint8Array;
    for (let i = 0; i < Math.min(x.length, b.length); i++) if (x[i] !== b[i]) return x[i]! - b[i]!;
    return x.length - b.length;
  }
  if (Array.isArray(x)) {
    // Arrays: element by element (NULL first), then by length.
    const b = y as unknown[];
    for (let i = 0; i < Math.min(x.length, b.length); i++) {
      const c = compareNullable(x[i], b[i]);
      if (c !== 0) return c;
    }
    return x.length - b.length;
  }
  if (x !== null && typeof x === "object" && !(x instanceof Map)) {
    // Structs: field by field in declaration order.
    const b = y as Record<string, unknown>;
    for (const k of Object.keys(x)) {
      const c = compareNullable((x as Record<string, unknown>)[k], b[k]);
      if (c !== 0) return c;
    }
    return 0;
  }
  return compareStrings(JSON.stringify(x), JSON.stringify(y));
}

/** A vector's row values as compareValues takes them: a STRUCT vector's rows built from its children (its `values` are empty). */
function rowValues(v: Vector, n: number): ArrayLike<unknown> {
  return v.children ? Array.from({ length: n }, (_, i) => getValue(v, i)) : v.values;
}

function compareNullable(a: unknown, b: unknown): number {
  if (a == null || b == null) return a == null ? (b == null ? 0 : -1) : 1;
  return compareValues(a, b);
}

/**
 * The numeric comparison loop, a function of its own: a kernel's loop that V8 optimizes on
 * stack (OSR) while code after it has not run yet deopts on leaving the loop, call after call.
 */
function compareNumbers(av: Float64Array, bv: Float64Array, n: number, test: (c: number) => boolean, out: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    const x = av[i]!;
    const y = bv[i]!;
    out[i] = test(x < y ? -1 : x > y ? 1 : x === y ? 0 : compareValues(x, y)) ? 1 : 0;
  }
}

function comparison(name: string, test: (c: number) => boolean): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve: resolveComparison,
    kernel(args, n) {
      const [a, b] = args as [Vector, Vector];
      const bytes = name === "=" || name === "!=" ? utf8Equals(a, b, n, name === "!=") : utf8Compare(a, b, n, test);
      if (bytes !== null) return bytes;
      const out = new Uint8Array(n);
      const validity = andValidity(a.validity, b.validity, n);
      if (!Array.isArray(a.values)) compareNumbers(a.values as Float64Array, b.values as Float64Array, n, test, out);
      else if (a.type.kind === "string") {
        // Code-point order; JS's native order when it is exact for every row (columnar/string-order.ts).
        const order = rowPairOrder(a, b, n);
        const av = a.values as string[];
        const bv = b.values as string[];
        for (let i = 0; i < n; i++) {
          if (validity !== null && validity[i] === 0) continue;
          out[i] = test(order(av[i]!, bv[i]!)) ? 1 : 0;
        }
      } else {
        const av = rowValues(a, n);
        const bv = rowValues(b, n);
        for (let i = 0; i < n; i++) {
          if (validity !== null && validity[i] === 0) continue;
          out[i] = test(compareValues(av[i], bv[i])) ? 1 : 0;
        }
      }
      return makeVector(BooleanType, out, validity, n);
    },
  };
}

const nullSafeEq: ScalarFunction = {
  kind: "scalar",
  name: "<=>",
  resolve: resolveComparison,
  kernel(args, n) {
    const [a, b] = args as [Vector, Vector];
    const bytes = utf8NullSafeEquals(a, b, n);
    if (bytes !== null) return bytes;
    const out = new Uint8Array(n);
    const av = rowValues(a, n);
    const bv = rowValues(b, n);
    for (let i = 0; i < n; i++) {
      const an = a.validity !== null && a.validity[i] === 0;
      const bn = b.validity !== null && b.validity[i] === 0;
      out[i] = an || bn ? (an && bn ? 1 : 0) : compareValues(av[i], bv[i]) === 0 ? 1 : 0;
    }
    return makeVector(BooleanType, out, null, n);
  },
};

function resolveBoolean(name: string, arity: number) {
  return (args: readonly Expr[], types: readonly DataType[], call: Expr): Resolved => {
    checkArity(name, args, arity);
    types.forEach((t, i) => {
      if (t.kind !== "boolean" && t.kind !== "null") throw typeMismatch(call, i, '"BOOLEAN"', args[i]!, t);
    });
    return { args: args.map((a, i) => castTo(a, types[i]!, BooleanType)), type: BooleanType };
  };
}

/** AND / OR of two columns without NULLs (its own function, as `compareNumbers`). */
function andOrPlain(and: boolean, av: Uint8Array, bv: Uint8Array, n: number, out: Uint8Array): void {
  if (and) for (let i = 0; i < n; i++) out[i] = av[i]! & bv[i]!;
  else for (let i = 0; i < n; i++) out[i] = av[i]! | bv[i]!;
}

/** AND/OR with NULL: false AND NULL = false, true OR NULL = true, otherwise NULL. */
function logical(name: "and" | "or"): ScalarFunction {
  const dominant = name === "and" ? 0 : 1;
  return {
    kind: "scalar",
    name,
    resolve: resolveBoolean(name, 2),
    kernel(args, n) {
      const [a, b] = args as [Vector, Vector];
      const av = a.values as Uint8Array;
      const bv = b.values as Uint8Array;
      const out = new Uint8Array(n);
      if (a.validity === null && b.validity === null) {
        andOrPlain(name === "and", av, bv, n, out);
        return makeVector(BooleanType, out, null, n);
      }
      const validity = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const an = a.validity !== null && a.validity[i] === 0;
        const bn = b.validity !== null && b.validity[i] === 0;
        if ((!an && av[i] === dominant) || (!bn && bv[i] === dominant)) {
          out[i] = dominant;
          validity[i] = 1;
        } else if (an || bn) validity[i] = 0;
        else {
          out[i] = 1 - dominant;
          validity[i] = 1;
        }
      }
      return makeVector(BooleanType, out, validity, n);
    },
  };
}

const not: ScalarFunction = {
  kind: "scalar",
  name: "not",
  resolve: resolveBoolean("not", 1),
  kernel(args, n) {
    const a = args[0]!;
    const av = a.values as Uint8Array;
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = av[i]! ^ 1;
    return makeVector(BooleanType, out, a.validity, n);
  },
};

function nullTest(name: string, whenNull: 0 | 1): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args) {
      checkArity(name, args, 1);
      return { args, type: BooleanType };
    },
    kernel(args, n) {
      const a = args[0]!;
      const out = new Uint8Array(n).fill(1 - whenNull);
      if (a.validity) for (let i = 0; i < n; i++) if (a.validity[i] === 0) out[i] = whenNull;
      if (a.type.kind === "null") out.fill(whenNull);
      return makeVector(BooleanType, out, null, n);
    },
  };
}

/** `x IN (a, b, ...)`: NULL when x is NULL, or when no match and the list holds a NULL. */
const inList: ScalarFunction = {
  kind: "scalar",
  name: "in",
  resolve(args, types, call) {
    if (args.length < 1) checkArity("in", args, 1, Infinity);
    const t = widerTypeOfAll(types) ?? comparisonType(types[0]!, types[1] ?? types[0]!);
    if (!t) throw typeMismatch(call, 1, `"${sqlTypeName(types[0]!)}"`, args[1]!, types[1]!);
    return { args: args.map((a, i) => castTo(a, types[i]!, t)), type: BooleanType };
  },
  kernel(args, n) {
    const [x, ...list] = args as [Vector, ...Vector[]];
    const bytes = utf8In(x, list, n);
    if (bytes !== null) return bytes;
    const out = new Uint8Array(n);
    let validity: Uint8Array | null = null;
    const xv = rowValues(x, n);
    const lists = list.map((l) => rowValues(l, n));
    for (let i = 0; i < n; i++) {
      if (x.validity !== null && x.validity[i] === 0) {
        validity ??= new Uint8Array(n).fill(1);
        validity[i] = 0;
        continue;
      }
      let sawNull = false;
      const v = xv[i];
      for (let k = 0; k < list.length; k++) {
        const l = list[k]!;
        if (l.validity !== null && l.validity[i] === 0) sawNull = true;
        else if (compareValues(v, lists[k]![i]) === 0) {
          out[i] = 1;
          break;
        }
      }
      if (!out[i] && sawNull) {
        validity ??= new Uint8Array(n).fill(1);
        validity[i] = 0;
      }
    }
    return makeVector(BooleanType, out, validity, n);
  },
};

function regexCache(make: (p: string) => RegExp): (p: string) => RegExp {
  const cache = new Map<string, RegExp>();
  return (p) => {
    let r = cache.get(p);
    if (!r) {
      r = make(p);
      cache.set(p, r);
    }
    return r;
  };
}

function stringMatcher(name: string, make: (p: string) => RegExp): ScalarFunction {
  const get = regexCache(make);
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      return { args: args.map((_, i) => stringArg(call, args, types, i)), type: BooleanType };
    },
    kernel: (args, n) => mapRows(BooleanType, args, n, (s, p) => get(p as string).test(s as string)),
  };
}

register(
  comparison("=", (c) => c === 0),
  comparison("!=", (c) => c !== 0),
  comparison("<", (c) => c < 0),
  comparison("<=", (c) => c <= 0),
  comparison(">", (c) => c > 0),
  comparison(">=", (c) => c >= 0),
  nullSafeEq,
  logical("and"),
  logical("or"),
  not,
  nullTest("isnull", 1),
  nullTest("isnotnull", 0),
  inList,
  stringMatcher("rlike", (p) => javaRegExp(p)),
);
