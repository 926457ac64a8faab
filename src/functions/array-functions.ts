/**
 * Array and map functions: array_join, array_distinct, array_max / array_min, map(k, v, ...),
 * map_keys and map_values. MAP values are JS Maps keyed by the internal key values.
 */
import { setElement } from "../columnar/value-key.js";
import { getValue, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, ArusError, arityError } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { ArrayOf, type DataType, MapOf, NullType, StringType, sqlTypeName } from "../types/datatypes.js";
import { valueToString } from "./cast.js";
import { mapRows } from "./kernel-util.js";
import { checkMapKeyType } from "./map-key-type.js";
import { compareValues } from "./predicates.js";
import { castTo, checkArity, exactArg, register, type ScalarFunction, typeMismatch } from "./registry.js";

function requireArray(call: Expr, args: readonly Expr[], types: readonly DataType[]): DataType {
  const t = types[0]!;
  if (t.kind === "null") return ArrayOf(NullType);
  if (t.kind !== "array") throw typeMismatch(call, 0, '"ARRAY"', args[0]!, t);
  return t;
}

/** Same value for DISTINCT purposes: NaN equals NaN and -0.0 equals 0.0, as Spark's array_distinct. */
const sameValue = (x: unknown, y: unknown): boolean =>
  x === null || x === undefined ? y === null || y === undefined : y !== null && y !== undefined && compareValues(x, y) === 0;

const arrayJoin: ScalarFunction = {
  kind: "scalar",
  name: "array_join",
  resolve(args, types, call) {
    checkArity("array_join", args, 2, 3);
    const t = requireArray(call, args, types);
    // the delimiter and the NULL replacement: STRINGs, no implicit cast (Spark's ArrayJoin is ExpectsInputTypes only)
    const strings = args.slice(1).map((_, i) => exactArg(call, args, types, i + 1, StringType));
    return { args: [castTo(args[0]!, types[0]!, t), ...strings], type: StringType };
  },
  kernel(args, n, ctx) {
    const t = args[0]!.type;
    const elementType = t.kind === "array" ? t.elementType : NullType;
    // NULL elements are skipped, or replaced when a replacement is given (a NULL one gives NULL).
    return mapRows(
      StringType,
      args,
      n,
      (arr, sep, replacement) =>
        (arr as unknown[])
          .flatMap((e) =>
            e === null || e === undefined
              ? replacement === undefined
                ? []
                : [replacement as string]
              : [valueToString(e, elementType, ctx.timeZone)],
          )
          .join(sep as string),
      true,
    );
  },
};

const arrayDistinct: ScalarFunction = {
  kind: "scalar",
  name: "array_distinct",
  resolve(args, types, call) {
    checkArity("array_distinct", args, 1);
    const t = requireArray(call, args, types);
    return { args: [castTo(args[0]!, types[0]!, t)], type: t };
  },
  kernel: (args, n) =>
    mapRows(args[0]!.type, args, n, (arr) => {
      const out: unknown[] = [];
      for (const e of arr as unknown[]) if (!out.some((o) => sameValue(o, e))) out.push(setElement(e ?? null));
      return out;
    }),
};

/** array_max / array_min: NULL elements are skipped; NaN is above every number (Spark's ordering). */
function arrayExtremum(name: string, sign: 1 | -1): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = requireArray(call, args, types);
      return { args: [castTo(args[0]!, types[0]!, t)], type: t.kind === "array" ? t.elementType : NullType };
    },
    kernel(args, n) {
      const t = args[0]!.type;
      return mapRows(t.kind === "array" ? t.elementType : NullType, args, n, (arr) => {
        let best: unknown = null;
        for (const e of arr as unknown[]) {
          if (e === null || e === undefined) continue;
          if (best === null || sign * compareValues(e, best) > 0) best = e;
        }
        return best;
      });
    },
  };
}

function wrongMapArgs(got: number): AnalysisException {
  return arityError("map", "2n (n > 0)", got);
}

/** map(k1, v1, k2, v2, ...): keys and values each coerced to their wider type. */
const map: ScalarFunction = {
  kind: "scalar",
  name: "map",
  resolve(args, types, call) {
    if (args.length % 2 !== 0) throw wrongMapArgs(args.length);
    const keyTypes = types.filter((_, i) => i % 2 === 0);
    const valueTypes = types.filter((_, i) => i % 2 === 1);
    const kt = keyTypes.length ? widerTypeOfAll(keyTypes) : NullType;
    const vt = valueTypes.length ? widerTypeOfAll(valueTypes) : NullType;
    if (!kt || !vt) {
      const side = kt ? "values" : "keys";
      const sideTypes = kt ? valueTypes : keyTypes;
      throw new AnalysisException(
        "DATATYPE_MISMATCH.CREATE_MAP_KEY_DIFF_TYPES",
        `[DATATYPE_MISMATCH.CREATE_MAP_${kt ? "VALUE" : "KEY"}_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The given ${side} of function \`map\` should all be the same type, but they are [${sideTypes.map((t) => `"${sqlTypeName(t)}"`).join(", ")}].`,
      );
    }
    checkMapKeyType(call, kt);
    return { args: args.map((a, i) => castTo(a, types[i]!, i % 2 === 0 ? kt : vt)), type: MapOf(kt, vt, true) };
  },
  kernel(args, n, ctx) {
    const kt = args[0]?.type ?? NullType;
    const vt = args[1]?.type ?? NullType;
    const rows = new Array<Map<unknown, unknown>>(n);
    for (let i = 0; i < n; i++) {
      const m = new Map<unknown, unknown>();
      for (let j = 0; j + 1 < args.length; j += 2) {
        const k = getValue(args[j]!, i);
        if (k === null) throw new ArusError("NULL_MAP_KEY", "[NULL_MAP_KEY] Cannot use null as map key.");
        for (const existing of m.keys()) {
          if (compareValues(existing, k) === 0) {
            throw new ArusError(
              "DUPLICATED_MAP_KEY",
              `[DUPLICATED_MAP_KEY] Duplicate map key ${valueToString(k, kt, ctx.timeZone)} was found, please check the input data. If you want to remove the duplicated keys, you can set "spark.sql.mapKeyDedupPolicy" to "LAST_WIN" so that the key inserted at last takes precedence.`,
            );
          }
        }
        m.set(k, getValue(args[j + 1]!, i));
      }
      rows[i] = m;
    }
    return vectorFromValues(MapOf(kt, vt, true), rows);
  },
};

function mapPart(name: string, part: "keys" | "values"): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      const t = types[0]!;
      if (t.kind === "null") return { args, type: ArrayOf(NullType) };
      if (t.kind !== "map") throw typeMismatch(call, 0, '"MAP"', args[0]!, t);
      return { args, type: part === "keys" ? ArrayOf(t.keyType, false) : ArrayOf(t.valueType, t.valueContainsNull) };
    },
    kernel(args, n) {
      const t = args[0]!.type;
      const elementType = t.kind !== "map" ? NullType : part === "keys" ? t.keyType : t.valueType;
      return mapRows(ArrayOf(elementType), args, n, (m) => [
        ...(part === "keys" ? (m as Map<unknown, unknown>).keys() : (m as Map<unknown, unknown>).values()),
      ]);
    },
  };
}

register(
  arrayJoin,
  arrayDistinct,
  arrayExtremum("array_max", 1),
  arrayExtremum("array_min", -1),
  map,
  mapPart("map_keys", "keys"),
  mapPart("map_values", "values"),
);
