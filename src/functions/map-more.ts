/**
 * Building and reading maps: map_concat, map_contains_key, map_entries, map_from_arrays,
 * map_from_entries and str_to_map. Maps are JS Maps of internal values; a NULL key is
 * NULL_MAP_KEY and a repeated key DUPLICATED_MAP_KEY (Spark's default mapKeyDedupPolicy,
 * EXCEPTION).
 */
import { getValue, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, ArusError } from "../common/errors.js";
import { literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { widerType } from "../types/coercion.js";
import {
  ArrayOf,
  type ArrayType,
  BooleanType,
  type DataType,
  field,
  MapOf,
  type MapType,
  NullType,
  StringType,
  type StructField,
  StructOf,
  type StructType,
  sqlTypeName,
} from "../types/datatypes.js";
import { castValue, valueToString } from "./cast.js";
import { javaRegExp } from "./java-regex.js";
import { mapRows } from "./kernel-util.js";
import { checkMapKeyType } from "./map-key-type.js";
import { compareValues } from "./predicates.js";
import { castTo, checkArity, type EvalContext, exactArg, register, type ScalarFunction, typeMismatch, withDefaults } from "./registry.js";

type AnyMap = Map<unknown, unknown>;

/** Adds k -> v to m with Spark's key checks. */
function putKey(m: AnyMap, k: unknown, v: unknown, keyType: DataType, ctx: EvalContext): void {
  if (k === null || k === undefined) throw new ArusError("NULL_MAP_KEY", "[NULL_MAP_KEY] Cannot use null as map key.");
  const dup = typeof k === "object" ? [...m.keys()].some((e) => compareValues(e, k) === 0) : m.has(k);
  if (dup) {
    throw new ArusError(
      "DUPLICATED_MAP_KEY",
      `[DUPLICATED_MAP_KEY] Duplicate map key ${valueToString(k, keyType, ctx.timeZone)} was found, please check the input data.`,
    );
  }
  m.set(k, v);
}

const mapConcat: ScalarFunction = {
  kind: "scalar",
  name: "map_concat",
  resolve(args, types, call) {
    if (args.length === 0) return { args, type: MapOf(StringType, StringType, false) };
    if (types.some((t) => t.kind !== "map")) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES",
        `[DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The \`map_concat\` should all be of type map, but it's [${types.map((t) => `"${sqlTypeName(t)}"`).join(", ")}].`,
      );
    }
    const maps = types.filter((t): t is MapType => t.kind === "map");
    let kt: DataType | null = maps[0]?.keyType ?? NullType;
    let vt: DataType | null = maps[0]?.valueType ?? NullType;
    for (const m of maps.slice(1)) {
      kt = kt && widerType(kt, m.keyType, false);
      vt = vt && widerType(vt, m.valueType, false);
    }
    if (!kt || !vt) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
        `[DATATYPE_MISMATCH.DATA_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input to \`map_concat\` should all be the same type, but it's (${types.map((t) => `"${sqlTypeName(t)}"`).join(" or ")}).`,
      );
    }
    const type = MapOf(
      kt,
      vt,
      maps.some((m) => m.valueContainsNull),
    );
    // maps of narrower types are widened entry by entry in the kernel
    return { args, type };
  },
  kernel(args, n, ctx) {
    if (args.length === 0)
      return vectorFromValues(
        MapOf(StringType, StringType, false),
        Array.from({ length: n }, () => new Map()),
      );
    const maps = args.map((a) => a.type).filter((t): t is MapType => t.kind === "map");
    let kt: DataType = maps[0]?.keyType ?? NullType;
    let vt: DataType = maps[0]?.valueType ?? NullType;
    for (const m of maps.slice(1)) {
      kt = widerType(kt, m.keyType, false) ?? kt;
      vt = widerType(vt, m.valueType, false) ?? vt;
    }
    const t = MapOf(
      kt,
      vt,
      maps.some((m) => m.valueContainsNull),
    );
    return mapRows(t, args, n, (...values) => {
      const out: AnyMap = new Map();
      values.forEach((m, i) => {
        const from = args[i]!.type as MapType;
        for (const [k, v] of m as AnyMap) {
          putKey(out, castValue(k, from.keyType, kt, ctx), castValue(v, from.valueType, vt, ctx), kt, ctx);
        }
      });
      return out;
    });
  },
};

const mapContainsKey: ScalarFunction = {
  kind: "scalar",
  name: "map_contains_key",
  resolve(args, types, call) {
    checkArity("map_contains_key", args, 2);
    const [mt, kt] = types as [DataType, DataType];
    if (kt.kind === "null") {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.NULL_TYPE",
        `[DATATYPE_MISMATCH.NULL_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Null typed values cannot be used as arguments of \`map_contains_key\`.`,
      );
    }
    const common = mt.kind === "map" ? widerType(mt.keyType, kt, false) : null;
    if (mt.kind !== "map" || !common) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES",
        `[DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Input to \`map_contains_key\` should have been "MAP" followed by a value with same key type, but it's ["${sqlTypeName(mt)}", "${sqlTypeName(kt)}"].`,
      );
    }
    return { args: [args[0]!, castTo(args[1]!, kt, common)], type: BooleanType };
  },
  // the map's keys are widened to the key's type (map<int, _> with 1.0 compares as decimals)
  kernel: (args, n, ctx) => {
    const from = (args[0]!.type as MapType).keyType;
    const to = args[1]!.type;
    return mapRows(BooleanType, args, n, (m, k) =>
      [...(m as AnyMap).keys()].some((e) => compareValues(castValue(e, from, to, ctx), k) === 0),
    );
  },
};

const entryType = (t: MapType) => StructOf([field("key", t.keyType, false), field("value", t.valueType, t.valueContainsNull)]);

const mapEntries: ScalarFunction = {
  kind: "scalar",
  name: "map_entries",
  resolve(args, types, call) {
    checkArity("map_entries", args, 1);
    const t = types[0]!;
    if (t.kind !== "map") throw typeMismatch(call, 0, '"MAP"', args[0]!, t);
    return { args, type: ArrayOf(entryType(t), false) };
  },
  kernel: (args, n) =>
    mapRows(ArrayOf(entryType(args[0]!.type as MapType), false), args, n, (m) =>
      [...(m as AnyMap)].map(([key, value]) => ({ key, value })),
    ),
};

const mapFromArrays: ScalarFunction = {
  kind: "scalar",
  name: "map_from_arrays",
  resolve(args, types, call) {
    checkArity("map_from_arrays", args, 2);
    types.forEach((t, i) => {
      if (t.kind !== "array") throw typeMismatch(call, i, '"ARRAY"', args[i]!, t);
    });
    const [k, v] = types as [DataType & { elementType: DataType }, DataType & { elementType: DataType; containsNull: boolean }];
    checkMapKeyType(call, k.elementType);
    return { args, type: MapOf(k.elementType, v.elementType, v.containsNull) };
  },
  kernel(args, n, ctx) {
    const ka = args[0]!.type as { elementType: DataType };
    const va = args[1]!.type as { elementType: DataType };
    return mapRows(MapOf(ka.elementType, va.elementType), args, n, (keys, values) => {
      const ks = keys as unknown[];
      const vs = values as unknown[];
      if (ks.length !== vs.length) {
        throw new ArusError("_LEGACY_ERROR_TEMP_2128", "The key array and value array of MapData must have the same length.");
      }
      const m: AnyMap = new Map();
      for (let i = 0; i < ks.length; i++) putKey(m, ks[i], vs[i] ?? null, ka.elementType, ctx);
      return m;
    });
  },
};

const mapFromEntries: ScalarFunction = {
  kind: "scalar",
  name: "map_from_entries",
  resolve(args, types, call) {
    checkArity("map_from_entries", args, 1);
    const t = types[0]!;
    if (t.kind !== "array" || t.elementType.kind !== "struct" || t.elementType.fields.length !== 2) {
      throw typeMismatch(call, 0, '"ARRAY" of pair "STRUCT"', args[0]!, t);
    }
    const [k, v] = t.elementType.fields as readonly [StructField, StructField];
    checkMapKeyType(call, k.type);
    return { args, type: MapOf(k.type, v.type, v.nullable) };
  },
  kernel(args, n, ctx) {
    const st = (args[0]!.type as ArrayType).elementType as StructType;
    const [kf, vf] = st.fields as readonly [StructField, StructField];
    return mapRows(MapOf(kf.type, vf.type), args, n, (entries) => {
      const es = entries as (Record<string, unknown> | null)[];
      if (es.some((e) => e === null)) return null; // a NULL entry makes the whole map NULL
      const m: AnyMap = new Map();
      for (const e of es) putKey(m, e![kf.name], e![vf.name] ?? null, kf.type, ctx);
      return m;
    });
  },
};

/** str_to_map(text[, pairDelim[, keyValueDelim]]): delimiters are Java regular expressions (',' and ':'). */
const strToMap: ScalarFunction = {
  kind: "scalar",
  name: "str_to_map",
  resolve(args, types, call) {
    checkArity("str_to_map", args, 1, 3);
    // no implicit casts (Spark's StringToMap is ExpectsInputTypes only); the call shown with its delimiters
    const shown = withDefaults(call, [args[0]!, literal(",", StringType), literal(":", StringType)]);
    return { args: args.map((_, i) => exactArg(shown, args, types, i, StringType)), type: MapOf(StringType, StringType) };
  },
  kernel(args, n, ctx) {
    const at = (k: number, i: number, dflt: string) => (args[k] ? (getValue(args[k]!, i) as string | null) : dflt);
    const out = new Array<AnyMap | null>(n);
    for (let i = 0; i < n; i++) {
      const text = getValue(args[0]!, i) as string | null;
      const pairDelim = at(1, i, ",");
      const kvDelim = at(2, i, ":");
      if (text === null || pairDelim === null || kvDelim === null) {
        out[i] = null;
        continue;
      }
      const m: AnyMap = new Map();
      for (const pair of text.split(javaRegExp(pairDelim, "g"))) {
        const kv = javaRegExp(kvDelim).exec(pair);
        putKey(m, kv ? pair.slice(0, kv.index) : pair, kv ? pair.slice(kv.index + kv[0].length) : null, StringType, ctx);
      }
      out[i] = m;
    }
    return vectorFromValues(MapOf(StringType, StringType), out);
  },
};

register(mapConcat, mapContainsKey, mapEntries, mapFromArrays, mapFromEntries, strToMap);
