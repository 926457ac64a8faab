/**
 * Session windows in a batch query (Spark's MergingSessionsExec): within each group of the
 * other grouping keys, rows sorted by session start merge while the next session starts at or
 * before the current end (touching sessions merge); every row's `session_window` becomes its
 * merged session, so a plain HashAggregate over it gives one row per session.
 */
import { type Batch, concatBatches, makeBatch } from "../../columnar/batch.js";
import { makeVector, type Vector } from "../../columnar/vector.js";
import type { Attribute } from "../../plan/expressions.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";

/**
 * Merge sessions: rows given as (group, start, end). Returns, per row, the merged session's
 * bounds and a dense session id.
 */
export function mergeSessionRows(
  groups: Int32Array,
  starts: Float64Array,
  ends: Float64Array,
  n: number,
): { start: Float64Array; end: Float64Array; sessionId: Int32Array; numSessions: number } {
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => groups[a]! - groups[b]! || starts[a]! - starts[b]! || a - b);
  const sessionId = new Int32Array(n);
  const bounds: [number, number][] = [];
  let curGroup = -1;
  for (const i of order) {
    const cur = bounds[bounds.length - 1];
    if (groups[i] === curGroup && cur && starts[i]! <= cur[1]) {
      cur[1] = Math.max(cur[1], ends[i]!);
    } else {
      bounds.push([starts[i]!, ends[i]!]);
      curGroup = groups[i]!;
    }
    sessionId[i] = bounds.length - 1;
  }
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const b = bounds[sessionId[i]!]!;
    start[i] = b[0];
    end[i] = b[1];
  }
  return { start, end, sessionId, numSessions: bounds.length };
}

export class MergeSessionsExec implements PhysicalOperator {
  readonly name = "MergingSessions";
  readonly children: PhysicalOperator[];
  readonly output: readonly Attribute[];
  constructor(
    /** Columns of the other grouping keys. */
    readonly keyColumns: readonly number[],
    /** Column of the session_window struct. */
    readonly sessionColumn: number,
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.output = child.output;
  }
  async execute(ctx: ExecContext): Promise<Batch[]> {
    const all = concatBatches(
      this.output.map((a) => a.type),
      await this.child.execute(ctx),
    );
    if (all.numRows === 0) return [];
    const n = all.numRows;
    const keys = this.keyColumns.map((c) => all.columns[c]!);
    const groups = new GroupIndex(keys.map((k) => k.type)).assign(keys, n);
    const sw = all.columns[this.sessionColumn]!;
    const merged = mergeSessionRows(groups, sw.children![0]!.values as Float64Array, sw.children![1]!.values as Float64Array, n);
    const newSw: Vector = makeVector(sw.type, [], sw.validity, n, [
      makeVector(sw.children![0]!.type, merged.start, null, n),
      makeVector(sw.children![1]!.type, merged.end, null, n),
    ]);
    const cols = all.columns.map((c, i) => (i === this.sessionColumn ? newSw : c));
    return [makeBatch(cols, n)];
  }
  describe(): string {
    return `session column ${this.sessionColumn}`;
  }
}
