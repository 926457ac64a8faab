/**
 * Column.withField / Column.dropFields: Spark's UpdateFields over a struct. The API writes
 * `update_fields(s, withfield('name', value), dropfield('name'), ...)`; resolving it folds the
 * operations, in order, into the result's struct type (a field set in place keeps its position,
 * a new one goes last; dropping every field is CANNOT_DROP_ALL_FIELDS) and rewrites the
 * arguments to `s, <plan literal>, value...` for the kernel, which builds the struct from the
 * input's field vectors and the values (a NULL struct stays NULL). Named as Spark names it:
 * `update_fields(s, WithField(value), dropfield())`.
 */
import { makeVector, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { type Expr, literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { type DataType, field, StringType, StructOf, type StructType } from "../types/datatypes.js";
import { register, type ScalarFunction, typeMismatch } from "./registry.js";

/** The struct's fields after the operations: where each comes from (input field index, or value index). */
interface FieldPlan {
  readonly name: string;
  readonly from: { readonly input: number } | { readonly value: number };
}

function opName(e: Expr): { op: "withfield" | "dropfield"; name: string } {
  if (e.kind !== "call" || (e.name !== "withfield" && e.name !== "dropfield") || e.args[0]?.kind !== "literal") {
    throw new AnalysisException("INTERNAL_ERROR", `update_fields: unexpected operation ${exprToSql(e)}`);
  }
  return { op: e.name, name: String(e.args[0].value) };
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const updateFields: ScalarFunction = {
  kind: "scalar",
  name: "update_fields",
  internal: true,
  resolve(args, types, call) {
    const t = types[0]!;
    if (t.kind !== "struct") throw typeMismatch(call, 0, '"STRUCT"', args[0]!, t);
    // already resolved (analysis runs again over a resolved plan): the plan literal is arg 1
    const resolved = args[1]?.kind === "literal" ? planOfText(String(args[1].value)) : null;
    if (resolved) {
      return { args, type: structOf(resolved.plan, t, types.slice(2)) };
    }
    let plan: FieldPlan[] = t.fields.map((f, i) => ({ name: f.name, from: { input: i } }));
    const values: Expr[] = [];
    const valueTypes: DataType[] = [];
    for (let k = 1; k < args.length; k++) {
      const e = args[k]!;
      const { op, name } = opName(e);
      if (op === "dropfield") {
        plan = plan.filter((p) => !sameName(p.name, name));
        continue;
      }
      const value = (e as Expr & { kind: "call" }).args[1]!;
      const from = { value: values.length };
      values.push(value);
      valueTypes.push(types[k]!); // withfield's type is its value's
      const at = plan.findIndex((p) => sameName(p.name, name));
      if (at >= 0) plan = plan.map((p, i) => (i === at ? { name: p.name, from } : p));
      else plan = [...plan, { name, from }];
    }
    if (plan.length === 0) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.CANNOT_DROP_ALL_FIELDS",
        `[DATATYPE_MISMATCH.CANNOT_DROP_ALL_FIELDS] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Cannot drop all fields in struct.`,
      );
    }
    const type = structOf(plan, t, valueTypes);
    const ops = args.slice(1).map((e) => opName(e).op);
    const spec = literal(JSON.stringify({ plan, ops }), StringType);
    return { args: [args[0]!, spec, ...values], type };
  },
  kernel(args, n) {
    const [s, specVec, ...values] = args as [Vector, Vector, ...Vector[]];
    const { plan } = planOf(specVec);
    const input = s.type as StructType;
    const type = structOf(
      plan,
      input,
      values.map((v) => v.type),
    );
    const children = plan.map((p) => ("input" in p.from ? fieldVector(s, input, p.from.input, n) : values[p.from.value]!));
    return makeVector(type, [], s.validity, n, children);
  },
};

/** The result's struct type: each field from the input (as it was) or from its value. */
function structOf(plan: readonly FieldPlan[], input: StructType, valueTypes: readonly DataType[]): StructType {
  return StructOf(plan.map((p) => ("input" in p.from ? input.fields[p.from.input]! : field(p.name, valueTypes[p.from.value]!))));
}

interface Spec {
  readonly plan: FieldPlan[];
  readonly ops: string[];
}

/** The plan literal (a zero-row batch has no value to read: then no fields, none needed). */
function planOf(specVec: Vector): Spec {
  const text = specVec.length > 0 ? specVec.values[0] : undefined;
  return text === undefined || text === null ? { plan: [], ops: [] } : (JSON.parse(String(text)) as Spec);
}

/** The plan of an already resolved call's literal, or null for an operation's name. */
function planOfText(text: string): Spec | null {
  if (!text.startsWith('{"plan":')) return null;
  return JSON.parse(text) as Spec;
}

/** Field `i` of struct vector `s` as a vector (a struct built row by row holds objects). */
function fieldVector(s: Vector, t: StructType, i: number, n: number): Vector {
  if (s.children) return s.children[i]!;
  const f = t.fields[i]!;
  const rows = s.values as (Record<string, unknown> | null)[];
  return vectorFromValues(
    f.type,
    Array.from({ length: n }, (_, r) => rows[r]?.[f.name] ?? null),
  );
}

/** `withfield(name, value)`: the value (the parent update_fields reads the name at analysis). */
const withField: ScalarFunction = {
  kind: "scalar",
  name: "withfield",
  internal: true,
  resolve: (args, types) => ({ args, type: types[1]! }),
  kernel: (args) => args[1]!,
};

/** `dropfield(name)`: nothing to evaluate. */
const dropField: ScalarFunction = {
  kind: "scalar",
  name: "dropfield",
  internal: true,
  resolve: (args) => ({ args, type: StringType }),
  kernel: (args) => args[0]!,
};

register(updateFields, withField, dropField);
