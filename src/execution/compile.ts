/**
 * Expression compilation: a resolved expression becomes a closure that computes a whole
 * column vector for a batch. Attributes are bound to column positions once, here, so the
 * closures do no name lookups at run time.
 */

import { type Batch, takeBatch } from "../columnar/batch.js";
import { concatVectors, constantVector, identityIds, nullVector, selectionFromMask, take, type Vector } from "../columnar/vector.js";
import { isHigherOrderCall } from "../functions/higher-order-registry.js";
import { castVector, type EvalContext, lookupFunction } from "../functions/index.js";
import { wideLaneUnsupported } from "../functions/long-ops.js";
import { typeOf } from "../functions/typing.js";
import type { Attribute, Expr } from "../plan/expressions.js";
import { type DataType, typesEqual } from "../types/datatypes.js";
import { compileHigherOrder } from "./higher-order.js";

export type CompiledExpr = (batch: Batch, ctx: EvalContext) => Vector;

export function bindIndex(input: readonly Attribute[]): Map<number, number> {
  const m = new Map<number, number>();
  input.forEach((a, i) => {
    if (!m.has(a.exprId)) m.set(a.exprId, i);
  });
  return m;
}

export function compileExpr(e: Expr, input: readonly Attribute[], index = bindIndex(input)): CompiledExpr {
  switch (e.kind) {
    case "attribute":
    case "lambdaVar": {
      const i = index.get(e.exprId);
      if (i === undefined) {
        throw new Error(`attribute ${e.name}#${e.exprId} not found in input [${input.map((a) => `${a.name}#${a.exprId}`).join(", ")}]`);
      }
      return (b) => b.columns[i]!;
    }
    case "literal": {
      const { type, value } = e;
      return (b) => constantVector(type, value, b.numRows);
    }
    case "alias":
    case "sortOrder":
      return compileExpr(e.child, input, index);
    case "cast": {
      const child = compileExpr(e.child, input, index);
      const to = e.to;
      if (e.tryCast) return (b, ctx) => castVector(child(b, ctx), to, b.numRows, ctx, "null");
      return (b, ctx) => castVector(child(b, ctx), to, b.numRows, ctx);
    }
    case "caseWhen":
      return compileCaseWhen(e, input, index);
    case "call": {
      const fn = lookupFunction(e.name);
      if (fn?.kind !== "scalar") throw new Error(`${e.name} is not a scalar function`);
      if (fn.name === "coalesce" && e.args.length > 1) return compileCoalesce(e, input, index);
      if (isHigherOrderCall(e)) return compileHigherOrder(e, input, index, compileExpr);
      const args = e.args.map((a, i) => {
        // CAST(binary AS STRING) as argument 0 of a kernel that reads UTF-8 bytes: the bytes as they are.
        if (i === 0 && fn.utf8BytesArg0 && a.kind === "cast" && !a.tryCast && a.to.kind === "string" && typeOf(a.child).kind === "binary")
          return compileExpr(a.child, input, index);
        // Only the type is read (typeof): never evaluated.
        if (fn.typeOnlyArgs) {
          const t = typeOf(a);
          return (b: Batch) => nullVector(t, b.numRows);
        }
        // A parameter read at row 0 only: one row, not a batch-long copy per batch.
        if (fn.rowZeroArgsFrom !== undefined && i >= fn.rowZeroArgsFrom && a.kind === "literal") {
          const one = constantVector(a.type, a.value, 1);
          return () => one;
        }
        return compileExpr(a, input, index);
      });
      const kernel = fn.kernel;
      const type = typeOf(e);
      const site = {};
      return (b, ctx) => {
        const inputs = args.map((a) => a(b, ctx));
        let v: Vector;
        try {
          v = kernel(inputs, b.numRows, ctx, site);
        } catch (err) {
          // a double-only kernel met the wide 64-bit lane (columnar/int64.ts): say so clearly
          if (err instanceof TypeError && /BigInt/.test(err.message) && inputs.some((x) => x.values instanceof BigInt64Array))
            throw wideLaneUnsupported(e.name, err);
          throw err;
        }
        // Kernels of nested types may not know field names; the resolved type is authoritative.
        return v.type === type || typesEqual(v.type, type) ? v : { ...v, type };
      };
    }
    case "column":
    case "star":
    case "multiAlias":
      throw new Error(`unresolved ${e.kind} reached execution`);
    case "windowExpr":
      throw new Error("a window expression reached expression compilation (the analyzer moves it into a Window node)");
  }
}

/**
 * CASE WHEN: each row takes its value from the first branch whose condition holds. A branch's
 * value is computed over the rows that take it (the whole batch when every row does, as kernels
 * are cheap and branch-free), never over the others: as in Spark, a value the CASE does not pick
 * must not fail the query (`CASE WHEN abs(d) < 1e9 THEN CAST(d AS INT) END` under ANSI).
 */
function compileCaseWhen(e: Expr & { kind: "caseWhen" }, input: readonly Attribute[], index: Map<number, number>): CompiledExpr {
  const conds = e.branches.map(([c]) => compileExpr(c, input, index));
  const vals = [...e.branches.map(([, v]) => v), ...(e.otherwise ? [e.otherwise] : [])].map((v) => compileExpr(v, input, index));
  const type = typeOf(e);
  return (b, ctx) => {
    const n = b.numRows;
    const which = new Int32Array(n).fill(e.otherwise ? conds.length : -1);
    const decided = new Uint8Array(n);
    for (let k = 0; k < conds.length; k++) {
      const m = conds[k]!(b, ctx);
      const mv = m.values as Uint8Array;
      for (let i = 0; i < n; i++) {
        if (decided[i] === 0 && mv[i] === 1 && (m.validity === null || m.validity[i] === 1)) {
          which[i] = k;
          decided[i] = 1;
        }
      }
    }
    // Rows of each branch, in order; a row's position among its branch's rows.
    const counts = new Int32Array(vals.length);
    const pos = new Int32Array(n);
    for (let i = 0; i < n; i++) if (which[i]! >= 0) pos[i] = counts[which[i]!]!++;
    const parts: Vector[] = [];
    const offsets = new Int32Array(vals.length);
    let total = 0;
    for (let k = 0; k < vals.length; k++) {
      const c = counts[k]!;
      if (c === 0) continue;
      let part: Batch = b;
      if (c < n) {
        const rows = new Int32Array(c);
        for (let i = 0, j = 0; i < n; i++) if (which[i] === k) rows[j++] = i;
        part = takeBatch(b, rows);
      }
      parts.push(withType(vals[k]!(part, ctx), type));
      offsets[k] = total;
      total += c;
    }
    if (parts.length === 0) return nullVector(type, n); // no row picked a value: all NULL
    const all = parts.length === 1 ? parts[0]! : concatVectors(type, parts);
    const idx = new Int32Array(n);
    for (let i = 0; i < n; i++) idx[i] = which[i]! >= 0 ? offsets[which[i]!]! + pos[i]! : -1;
    return take(all, idx);
  };
}

/**
 * coalesce(a, b, ...): each argument is computed over the rows still NULL after the ones before
 * it, never over the others, as Spark evaluates it row by row: `coalesce(x, CAST(s AS INT))`
 * must not fail the query on a row where x is set, whatever s holds.
 */
function compileCoalesce(e: Expr & { kind: "call" }, input: readonly Attribute[], index: Map<number, number>): CompiledExpr {
  const args = e.args.map((a) => compileExpr(a, input, index));
  const type = typeOf(e);
  return (b, ctx) => {
    const n = b.numRows;
    const first = withType(args[0]!(b, ctx), type);
    let open = nullRows(first, null);
    if (open === null || open.length === 0) return first;
    const parts: Vector[] = [first];
    // result row i = row idx[i] of the parts laid end to end
    const idx = identityIds(n);
    let offset = n;
    for (let k = 1; k < args.length && open.length > 0; k++) {
      const v = withType(args[k]!(open.length === n ? b : takeBatch(b, open), ctx), type);
      parts.push(v);
      for (let j = 0; j < open.length; j++) idx[open[j]!] = offset + j;
      offset += open.length;
      open = nullRows(v, open) ?? new Int32Array(0);
    }
    return take(concatVectors(type, parts), idx);
  };
}

/** The rows (of `rows`, or of the batch when null) where `v` is NULL; null when none is. */
function nullRows(v: Vector, rows: Int32Array | null): Int32Array | null {
  const valid = v.validity;
  if (valid === null || !valid.includes(0)) return null;
  const out: number[] = [];
  for (let j = 0; j < v.length; j++) if (valid[j] === 0) out.push(rows === null ? j : rows[j]!);
  return Int32Array.from(out);
}

function withType(v: Vector, type: DataType): Vector {
  return v.type === type ? v : { ...v, type };
}

/** Evaluate a predicate and return the selected row indices. */
export function compilePredicate(e: Expr, input: readonly Attribute[]): (b: Batch, ctx: EvalContext) => Int32Array {
  const f = compileExpr(e, input);
  return (b, ctx) => selectionFromMask(f(b, ctx));
}
