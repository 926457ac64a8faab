/**
 * User-defined functions (PySpark's `F.udf` and `spark.udf.register`): a JavaScript function
 * called once per row with the row's values as `collect()` gives them (NULL as null), its
 * result converted to the declared return type. A UDF is registered as a scalar function under
 * a key of its own and named after the function (`<lambda>` for an anonymous one, as PySpark
 * names a lambda). It is never constant-folded and never runs on the decode threads (its
 * function lives in this thread only), so it is marked not foldable.
 */
import { vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, ArusError } from "../common/errors.js";
import { lookupFunction, register, type ScalarFunction } from "../functions/registry.js";
import { call, type Expr } from "../plan/expressions.js";
import { parseDataType } from "../sql/datatype.js";
import { type DataType, StringType, sqlTypeName } from "../types/datatypes.js";
import { Column, type ColumnOrName, toExpr } from "./column.js";
import { toInternal, vectorToExternal } from "./values.js";

/** A UDF: call it with columns to get a Column, as PySpark's UserDefinedFunction. */
export interface UserDefinedFunction {
  (...cols: ColumnOrName[]): Column;
  /** The function's name in generated column names. */
  readonly udfName: string;
  readonly returnType: DataType;
  /** PySpark's asNondeterministic(): arus never folds or moves a UDF call, so this is the same UDF. */
  asNondeterministic(): UserDefinedFunction;
}

let udfs = 0;
/** Registry keys of the UDFs registered by name (they may be registered again). */
const registeredByName = new Set<string>();

function typeOf(returnType: DataType | string | undefined): DataType {
  if (returnType === undefined) return StringType;
  return typeof returnType === "string" ? parseDataType(returnType) : returnType;
}

function failed(label: string, args: readonly DataType[], result: DataType, reason: string, cause?: unknown): ArusError {
  return new ArusError(
    "FAILED_EXECUTE_UDF",
    `[FAILED_EXECUTE_UDF] User defined function (\`${label}\`: (${args.map(sqlTypeName).join(", ")}) => ${sqlTypeName(result)}) failed due to: ${reason}.`,
    cause === undefined ? undefined : { cause },
  );
}

/** The scalar function that runs `fn` row by row. */
function udfFunction(key: string, label: string, fn: Fn, type: DataType): ScalarFunction {
  return {
    kind: "scalar",
    name: key,
    foldable: false,
    resolve: (args) => ({ args, type }),
    kernel(args, n, ctx) {
      const out = new Array<unknown>(n);
      const values = new Array<unknown>(args.length);
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < args.length; k++) values[k] = vectorToExternal(args[k]!, i);
        let r: unknown;
        try {
          r = fn(...values);
        } catch (e) {
          throw failed(
            label,
            args.map((a) => a.type),
            type,
            e instanceof Error ? e.message : String(e),
            e,
          );
        }
        if (r instanceof Promise) {
          throw failed(
            label,
            args.map((a) => a.type),
            type,
            "it returned a Promise (a UDF runs synchronously; do async work in foreachBatch)",
          );
        }
        out[i] = r === undefined ? null : toInternal(r, type, ctx.timeZone, `the result of ${label}`);
      }
      return vectorFromValues(type, out);
    },
  };
}

/** The JavaScript function behind a UDF (to register it again under a name). */
const FUNCTION = Symbol("udf function");
type Fn = (...args: unknown[]) => unknown;

function callable(key: string, label: string, fn: Fn, type: DataType): UserDefinedFunction {
  const u = ((...cols: ColumnOrName[]) => new Column(labelled(key, label, cols.map(toExpr)))) as UserDefinedFunction;
  Object.defineProperties(u, {
    udfName: { value: label },
    returnType: { value: type },
    asNondeterministic: { value: () => u },
    [FUNCTION]: { value: fn },
  });
  return u;
}

function labelled(key: string, label: string, args: Expr[]): Expr {
  return Object.freeze({ ...call(key, args), label });
}

/**
 * `F.udf(fn, returnType = "string")`: `returnType` a DataType (`T.IntegerType`) or a DDL string
 * (`"int"`, `"array<string>"`).
 */
export function udf(fn: (...args: never[]) => unknown, returnType?: DataType | string): UserDefinedFunction {
  if (typeof fn !== "function") throw new TypeError("udf(fn, returnType): fn must be a function");
  const type = typeOf(returnType);
  const label = fn.name || "<lambda>";
  const key = `__udf${++udfs}`;
  register(udfFunction(key, label, fn as Fn, type));
  return callable(key, label, fn as Fn, type);
}

/** `spark.udf` (PySpark's UDFRegistration): UDFs callable by name in SQL text. */
export class UDFRegistration {
  /** Registers `fn` as the SQL function `name` and returns it as a UDF for the DataFrame API too. */
  register(name: string, fn: ((...args: never[]) => unknown) | UserDefinedFunction, returnType?: DataType | string): UserDefinedFunction {
    const key = name.toLowerCase();
    if (lookupFunction(key) && !registeredByName.has(key)) {
      throw new AnalysisException(
        "ROUTINE_ALREADY_EXISTS",
        `[ROUTINE_ALREADY_EXISTS] Cannot create the function \`${name}\` because a built-in function of that name exists (arus's function registry is shared by every session).`,
      );
    }
    const wrapped = (fn as unknown as Record<symbol, Fn | undefined>)[FUNCTION];
    const f = wrapped ?? (fn as Fn);
    const type = wrapped ? (fn as UserDefinedFunction).returnType : typeOf(returnType);
    register(udfFunction(key, name, f, type));
    registeredByName.add(key);
    return callable(key, name, f, type);
  }
}
