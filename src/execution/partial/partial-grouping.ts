/**
 * Stage A's hash grouping (stage-a-run.ts): dense group ids for a range's rows, in first-seen
 * order, and the distinct keys behind them.
 *
 * Where the keys fit the columnar state table (numbers, strings, a window's struct of numbers;
 * state/columnar/schema.ts), the groups are a fresh keys-only `ColumnarTable`: its key coding
 * turns a window into one dictionary id and a string into another (matched on its UTF-8 bytes),
 * so a (window, product) key is two int lanes probed by value — the final aggregation's own
 * lookup, cheaper per row than the general `GroupIndex` (leaf-by-leaf hashing and comparison)
 * on the checkout queries' keys (seed002's grouping: ~270 → ~200 ms per decode thread).
 * Equality is the state table's, the one the final aggregation groups by anyway. Anything else
 * takes the `GroupIndex`.
 */
import { isWide } from "../../columnar/int64.js";
import type { Vector } from "../../columnar/vector.js";
import { columnarSchemaOf } from "../../state/columnar/schema.js";
import { ColumnarTable } from "../../state/columnar/table.js";
import type { DataType } from "../../types/datatypes.js";
import { GroupIndex } from "../group-index.js";

export interface PartialGrouping {
  /** Group id of each of the n rows of `keys`; new keys get the next ids. */
  assign(keys: readonly Vector[], n: number): Int32Array;
  readonly numGroups: number;
  /** The distinct keys, in group-id order. */
  keyVectors(): Vector[];
}

/** Groups in a keys-only columnar table: a fresh table hands out entry ids 0, 1, 2, … */
class TableGrouping implements PartialGrouping {
  private readonly table: ColumnarTable;

  constructor(table: ColumnarTable) {
    this.table = table;
  }

  assign(keys: readonly Vector[], n: number): Int32Array {
    return this.table.lookupOrInsert(keys, n);
  }

  get numGroups(): number {
    return this.table.hwm;
  }

  keyVectors(): Vector[] {
    const G = this.table.hwm;
    const ids = new Int32Array(G);
    for (let g = 0; g < G; g++) ids[g] = g;
    return this.table.keyVectors(ids, G);
  }
}

/** A struct key whose field crossed to the exact 64-bit lane (columnar/int64.ts): the tuple dictionary holds doubles only. */
function hasWideField(keys: readonly Vector[]): boolean {
  return keys.some((k) => k.children?.some((c) => isWide(c.values) || hasWideField([c])) ?? false);
}

/**
 * The grouping for a range whose batches have the grouping keys `keysOfBatches` (computed
 * before grouping, so the choice holds for every batch of the range).
 */
export function partialGrouping(keyTypes: readonly DataType[], keysOfBatches: readonly (readonly Vector[])[]): PartialGrouping {
  const schema = keyTypes.length > 0 ? columnarSchemaOf(keyTypes, []) : null;
  if (schema === null || keysOfBatches.some(hasWideField)) return new GroupIndex(keyTypes);
  return new TableGrouping(new ColumnarTable(schema));
}
