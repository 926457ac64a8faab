/**
 * Nested values: array(), struct(), element_at, size, array_contains, sort_array, field access (`a.b`),
 * subscripts (`a[0]`, `m['k']`), plus the conditional functions coalesce / nvl / nullif / if.
 */
import { getValue, makeVector, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, ArusError, arityError } from "../common/errors.js";
import { type Expr, literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { comparisonType, widerTypeOfAll } from "../types/coercion.js";
import { ArrayOf, BooleanType, field, IntegerType, NullType, StructOf, type StructType, sqlTypeName } from "../types/datatypes.js";
import { castVector } from "./cast.js";
import { mapRows } from "./kernel-util.js";
import { compareValues } from "./predicates.js";
import {
  castTo,
  checkArity,
  diffTypes,
  type EvalContext,
  nullTypeError,
  register,
  registerAlias,
  type ScalarFunction,
  typeMismatch,
} from "./registry.js";

function rowsOf(v: Vector, n: number): unknown[] {
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = getValue(v, i);
  return out;
}

const array: ScalarFunction = {
  kind: "scalar",
  name: "array",
  resolve(args, types, call) {
    const t = types.length === 0 ? NullType : widerTypeOfAll(types);
    if (!t) throw diffTypes(call, "array", types);
    return { args: args.map((a, i) => castTo(a, types[i]!, t)), type: ArrayOf(t, true) };
  },
  kernel(args, n) {
    const cols = args.map((a) => rowsOf(a, n));
    const t = args.length ? ArrayOf(args[0]!.type) : ArrayOf(NullType);
    return vectorFromValues(
      t,
      Array.from({ length: n }, (_, i) => cols.map((c) => c[i])),
    );
  },
};

/** Field name Spark gives `struct(x)`'s argument: its column/alias name, else `colN`. */
function structFieldName(e: Expr, i: number): string {
  if (e.kind === "attribute" || e.kind === "alias") return e.name;
  if (e.kind === "column") return e.nameParts[e.nameParts.length - 1]!;
  if (e.kind === "call" && e.name === "getfield" && e.args[1]?.kind === "literal") return String(e.args[1].value);
  return `col${i + 1}`;
}

const struct: ScalarFunction = {
  kind: "scalar",
  name: "struct",
  resolve(args, types) {
    return { args, type: StructOf(args.map((a, i) => field(structFieldName(a, i), types[i]!))) };
  },
  kernel(args, n) {
    return makeVector(StructOf(args.map((a, i) => field(`col${i + 1}`, a.type))), [], null, n, args);
  },
};

const namedStruct: ScalarFunction = {
  kind: "scalar",
  name: "named_struct",
  resolve(args, types, call) {
    if (args.length % 2 === 1) throw arityError("named_struct", "2n (n > 0)", args.length);
    const mismatch = (cls: string, detail: string) =>
      new AnalysisException(
        `DATATYPE_MISMATCH.${cls}`,
        `[DATATYPE_MISMATCH.${cls}] Cannot resolve "${exprToSql(call)}" due to data type mismatch: ${detail}`,
      );
    const listed = (es: readonly Expr[]) => `[${es.map((e) => `"${exprToSql(e)}"`).join(", ")}]`;
    const names = args.filter((_, i) => i % 2 === 0);
    const notStrings = names.filter((_, k) => types[2 * k]!.kind !== "string");
    if (notStrings.length > 0) {
      throw mismatch(
        "CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING",
        `Only foldable \`STRING\` expressions are allowed to appear at odd position, but they are ${listed(notStrings)}.`,
      );
    }
    const isNull = (e: Expr): boolean => (e.kind === "cast" ? isNull(e.child) : e.kind === "literal" && e.value === null);
    if (names.some(isNull)) throw mismatch("UNEXPECTED_NULL", `The ${listed(names)} must not be null.`);
    const fields = [];
    for (let i = 0; i + 1 < args.length; i += 2) {
      const nameExpr = args[i]!;
      if (nameExpr.kind !== "literal") {
        throw new AnalysisException(
          "NAMED_STRUCT_FIELD_NAME",
          `arus's named_struct takes its field names as string literals, not "${exprToSql(nameExpr)}" (a string computed from literals is not folded first).`,
        );
      }
      fields.push(field(String(nameExpr.value), types[i + 1]!));
    }
    return { args, type: StructOf(fields) };
  },
  kernel(args, n) {
    const values = args.filter((_, i) => i % 2 === 1);
    const names = args.filter((_, i) => i % 2 === 0).map((a) => String(a.values[0]));
    return makeVector(StructOf(values.map((v, i) => field(names[i]!, v.type))), [], null, n, values);
  },
};

/** Index of a struct field by name, case-insensitively as Spark's default resolver does. */
export function structFieldIndex(t: StructType, name: string): number {
  const exact = t.fields.findIndex((f) => f.name === name);
  return exact >= 0 ? exact : t.fields.findIndex((f) => f.name.toLowerCase() === name.toLowerCase());
}

const getField: ScalarFunction = {
  kind: "scalar",
  name: "getfield",
  resolve(args, types, call) {
    const t = types[0]!;
    const name = args[1]?.kind === "literal" ? String(args[1].value) : "";
    if (t.kind !== "struct") throw typeMismatch(call, 0, '"STRUCT"', args[0]!, t);
    const idx = structFieldIndex(t, name);
    if (idx < 0) {
      throw new AnalysisException(
        "FIELD_NOT_FOUND",
        `[FIELD_NOT_FOUND] No such struct field \`${name}\` in ${t.fields.map((f) => `\`${f.name}\``).join(", ")}.`,
      );
    }
    return { args, type: t.fields[idx]!.type };
  },
  kernel(args, n) {
    const [s, nameVec] = args as [Vector, Vector];
    // Zero rows: the name literal has no value to read either. Any empty vector will do;
    // compileExpr stamps the resolved field type on it.
    if (n === 0) return { type: s.type, length: 0, values: [], validity: null };
    const idx = structFieldIndex(s.type as StructType, String(nameVec.values[0]));
    // A struct computed row by row (an array's element: `arr[0].a`) holds objects, not field vectors.
    if (!s.children) {
      const f = (s.type as StructType).fields[idx]!;
      const rows = s.values as (Record<string, unknown> | null)[];
      return vectorFromValues(
        f.type,
        Array.from({ length: n }, (_, i) => (s.validity !== null && s.validity[i] === 0 ? null : (rows[i]?.[f.name] ?? null))),
      );
    }
    const child = s.children[idx]!;
    if (!s.validity) return child;
    const validity = new Uint8Array(n);
    for (let i = 0; i < n; i++) validity[i] = s.validity[i]! & (child.validity ? child.validity[i]! : 1);
    return { ...child, validity };
  },
};

function indexError(i: number, size: number): ArusError {
  return new ArusError(
    "INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
    `[INVALID_ARRAY_INDEX_IN_ELEMENT_AT] The index ${i} is out of bounds. The array has ${size} elements. Use \`try_element_at\` to tolerate accessing element at invalid index and return NULL instead.`,
  );
}

function subscriptError(i: number, size: number): ArusError {
  return new ArusError(
    "INVALID_ARRAY_INDEX",
    `[INVALID_ARRAY_INDEX] The index ${i} is out of bounds. The array has ${size} elements. Use the SQL function \`get()\` to tolerate accessing element at invalid index and return NULL instead.`,
  );
}

/**
 * element_at (1-based, negative from the end) and `a[i]` (0-based): an index out of bounds
 * fails the query under ANSI, as in Spark; `tolerant` ones (try_element_at, get) give NULL.
 */
function elementAt(name: string, oneBased: boolean, tolerant = false): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 2);
      const t = types[0]!;
      if (t.kind === "array") return { args: [args[0]!, castTo(args[1]!, types[1]!, IntegerType)], type: t.elementType };
      // Spark's get takes an ARRAY only (element_at a MAP too)
      if (name === "get") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, t);
      if (t.kind === "map") return { args: [args[0]!, castTo(args[1]!, types[1]!, t.keyType)], type: t.valueType };
      if (t.kind === "struct" && args[1]?.kind === "literal") return getField.resolve(args, types, call);
      throw typeMismatch(call, 0, '("ARRAY" or "MAP")', args[0]!, t);
    },
    kernel(args, n, ctx: EvalContext) {
      const [c, _k] = args as [Vector, Vector];
      if (c.type.kind === "struct") return getField.kernel(args, n, ctx);
      const rt = c.type.kind === "array" ? c.type.elementType : c.type.kind === "map" ? c.type.valueType : NullType;
      return mapRows(rt, args, n, (coll, key) => {
        if (coll instanceof Map) {
          for (const [mk, mv] of coll) if (compareValues(mk, key) === 0) return mv;
          return null;
        }
        const arr = coll as unknown[];
        const i = key as number;
        if (oneBased) {
          if (i === 0)
            throw new ArusError(
              "INVALID_INDEX_OF_ZERO",
              "[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).",
            );
          const j = i > 0 ? i - 1 : arr.length + i;
          if (j < 0 || j >= arr.length) {
            if (ctx.ansi && !tolerant) throw indexError(i, arr.length);
            return null;
          }
          return arr[j];
        }
        if (i >= 0 && i < arr.length) return arr[i];
        if (ctx.ansi && !tolerant) throw subscriptError(i, arr.length);
        return null;
      });
    },
  };
}

const size: ScalarFunction = {
  kind: "scalar",
  name: "size",
  resolve(args, types, call) {
    checkArity("size", args, 1);
    // size(NULL) is NULL (Spark 4: spark.sql.legacy.sizeOfNull is off under ANSI).
    if (types[0]!.kind !== "array" && types[0]!.kind !== "null" && types[0]!.kind !== "map")
      throw typeMismatch(call, 0, '("ARRAY" or "MAP")', args[0]!, types[0]!);
    return { args, type: IntegerType };
  },
  kernel: (args, n) => mapRows(IntegerType, args, n, (c) => (c instanceof Map ? c.size : (c as unknown[]).length)),
};

const arrayContains: ScalarFunction = {
  kind: "scalar",
  name: "array_contains",
  resolve(args, types, call) {
    checkArity("array_contains", args, 2);
    const t = types[0]!;
    if (t.kind === "null" || types[1]!.kind === "null") throw nullTypeError(call, "array_contains");
    if (t.kind !== "array") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, t);
    // an empty `array()` has no element type to cast to (ARRAY<VOID>): nothing can match
    const x = t.elementType.kind === "null" ? args[1]! : castTo(args[1]!, types[1]!, t.elementType);
    return { args: [args[0]!, x], type: BooleanType };
  },
  // Three-valued, as Spark's ArrayContains: true on a match, else NULL if the array holds a NULL, else false.
  kernel: (args, n) =>
    mapRows(BooleanType, args, n, (arr, x) => {
      let sawNull = false;
      for (const e of arr as unknown[]) {
        if (e == null) sawNull = true;
        else if (compareValues(e, x) === 0) return true;
      }
      return sawNull ? null : false;
    }),
};

/**
 * sort_array(arr[, asc = true]) (Spark's SortArray): ascending puts NULL elements first,
 * descending last; NaN is above every number. The flag must be a BOOLEAN literal.
 */
const sortArray: ScalarFunction = {
  kind: "scalar",
  name: "sort_array",
  resolve(args, types, call) {
    checkArity("sort_array", args, 1, 2);
    const t = types[0]!;
    if (t.kind !== "array") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, t);
    if (t.elementType.kind === "map") {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
        `[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The \`sort_array\` does not support ordering on type "${sqlTypeName(t.elementType)}".`,
      );
    }
    const flag = args[1];
    if (flag && (flag.kind !== "literal" || flag.type.kind !== "boolean" || flag.value === null)) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
        `[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The second parameter requires the "BOOLEAN" type, however "${exprToSql(flag)}" has the type "${sqlTypeName(types[1]!)}" and must be a BOOLEAN literal.`,
      );
    }
    return { args: flag ? args : [args[0]!, literal(true, BooleanType)], type: t };
  },
  kernel(args, n) {
    const flag = getValue(args[1]!, 0);
    const asc = flag !== false && flag !== 0;
    const order = (x: unknown, y: unknown): number => {
      if (x === null || x === undefined) return y === null || y === undefined ? 0 : -1;
      if (y === null || y === undefined) return 1;
      return compareValues(x, y);
    };
    return mapRows(args[0]!.type, [args[0]!], n, (arr) => [...(arr as unknown[])].sort(asc ? order : (x, y) => order(y, x)));
  },
};

const coalesce: ScalarFunction = {
  kind: "scalar",
  name: "coalesce",
  resolve(args, types, call) {
    checkArity("coalesce", args, 1, Infinity);
    const t = widerTypeOfAll(types);
    if (!t) throw diffTypes(call, "coalesce", types);
    return { args: args.map((a, i) => castTo(a, types[i]!, t)), type: t };
  },
  kernel(args, n) {
    const t = args[0]!.type;
    const vals = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      vals[i] = null;
      for (const a of args) {
        const v = getValue(a, i);
        if (v !== null) {
          vals[i] = v;
          break;
        }
      }
    }
    return vectorFromValues(t, vals);
  },
};

const nullif: ScalarFunction = {
  kind: "scalar",
  name: "nullif",
  // Spark's `if(a = b, NULL, a)`: the first argument's type; the two compared as `=` compares
  // them (nullif(1, '1') compares as BIGINT and keeps INT), cast in the kernel so that the
  // arguments stay as written (resolving again sees the same call).
  resolve(args, types, call) {
    checkArity("nullif", args, 2);
    if (!comparisonType(types[0]!, types[1]!)) throw diffTypes(call, "nullif", types);
    return { args, type: types[0]! };
  },
  kernel: (args, n, ctx) => {
    const t = comparisonType(args[0]!.type, args[1]!.type)!;
    const x = castVector(args[0]!, t, n, ctx);
    const y = castVector(args[1]!, t, n, ctx);
    return mapRows(
      args[0]!.type,
      [args[0]!, x, y],
      n,
      (a, p, q) => (p != null && q != null && compareValues(p, q) === 0 ? null : a),
      false,
    );
  },
};

register(
  array,
  struct,
  namedStruct,
  getField,
  elementAt("element_at", true),
  elementAt("getitem", false),
  elementAt("get", false, true),
  elementAt("try_element_at", true, true),
  size,
  arrayContains,
  sortArray,
  coalesce,
  nullif,
);
registerAlias("nvl", "coalesce", 2);
registerAlias("ifnull", "coalesce", 2);
registerAlias("cardinality", "size");
