/**
 * The output of a stream-stream join for one micro-batch, gathered column by column rather
 * than row by row: a joined row is named by its input row (a row of the side's input batch)
 * and the stored row of the other side it matched (a JoinSide ref, or none: NULLs), and the
 * output columns are taken from the input vectors and gathered from the state's columns in one
 * pass each. Rows that exist only as values (stored rows emitted as they leave the state)
 * are kept as arrays. Output keeps the order rows were added in: each run of rows of one kind
 * becomes one batch.
 */
import { type Batch, batchFromRows, makeBatch } from "../../columnar/batch.js";
import { nullVector, take, type Vector } from "../../columnar/vector.js";
import type { DataType } from "../../types/datatypes.js";
import type { JoinSide } from "./join-side.js";

/** Joined rows of one input side: input batch rows, with the other side's refs (or none). */
interface PairRun {
  readonly kind: "pairs";
  readonly inputLeft: boolean;
  readonly input: Batch;
  /** null: the other side's columns are NULL (or absent: left semi). */
  readonly other: JoinSide | null;
  readonly rows: number[];
  readonly refs: number[];
}
interface ValueRun {
  readonly kind: "values";
  readonly rows: unknown[][];
}

/** Columns `0 .. types.length - 1` of `side`'s rows `refs`. */
export function stateColumns(side: JoinSide, types: readonly DataType[], refs: readonly number[]): Vector[] {
  return types.map((t, c) => side.column(c, t, refs));
}

/** A batch of joined rows: `rows` of `input` with `refs` of `other` (or NULLs), in side order. */
export function pairBatch(
  leftTypes: readonly DataType[],
  rightTypes: readonly DataType[],
  inputLeft: boolean,
  input: Batch,
  rows: readonly number[],
  other: JoinSide | null,
  refs: readonly number[],
): Batch {
  const n = rows.length;
  const mine = input.columns.map((c) => take(c, rows, n));
  const otherTypes = inputLeft ? rightTypes : leftTypes;
  const theirs = other === null ? otherTypes.map((t) => nullVector(t, n)) : stateColumns(other, otherTypes, refs);
  return makeBatch(inputLeft ? [...mine, ...theirs] : [...theirs, ...mine], n);
}

export class JoinOutput {
  private readonly runs: (PairRun | ValueRun)[] = [];
  private last: PairRun | ValueRun | null = null;

  constructor(
    private readonly leftTypes: readonly DataType[],
    private readonly rightTypes: readonly DataType[],
    /** Left semi: output rows are the left side's only. */
    private readonly leftOnly: boolean,
  ) {}

  /** Input row `row` of one side, joined with the other side's stored row `ref` (`other` null: NULLs or, for left semi, nothing). */
  pair(inputLeft: boolean, input: Batch, row: number, other: JoinSide | null, ref: number): void {
    let run = this.last;
    if (run === null || run.kind !== "pairs" || run.inputLeft !== inputLeft || run.input !== input || run.other !== other) {
      run = { kind: "pairs", inputLeft, input, other, rows: [], refs: [] };
      this.runs.push(run);
      this.last = run;
    }
    run.rows.push(row);
    run.refs.push(ref);
  }

  /** A row given by its values, in output column order. */
  values(row: unknown[]): void {
    let run = this.last;
    if (run === null || run.kind !== "values") {
      run = { kind: "values", rows: [] };
      this.runs.push(run);
      this.last = run;
    }
    run.rows.push(row);
  }

  batches(): Batch[] {
    const types = this.leftOnly ? this.leftTypes : [...this.leftTypes, ...this.rightTypes];
    return this.runs.map((r) => {
      if (r.kind === "values") return batchFromRows(types, r.rows);
      if (this.leftOnly)
        return makeBatch(
          r.input.columns.map((c) => take(c, r.rows, r.rows.length)),
          r.rows.length,
        );
      return pairBatch(this.leftTypes, this.rightTypes, r.inputLeft, r.input, r.rows, r.other, r.refs);
    });
  }
}
