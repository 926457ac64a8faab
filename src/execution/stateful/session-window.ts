/**
 * Streaming session-window aggregation (Spark's SessionWindowStateStoreRestore/Save):
 *   1. merge this batch's rows into sessions per key (touching sessions merge) and aggregate
 *      each partial session;
 *   2. drop partial sessions whose end is at or below the late watermark;
 *   3. merge them with the key's stored sessions, re-merging overlaps;
 *   4. append: emit and remove sessions whose end <= the eviction watermark;
 *      complete: emit every session.
 * State: one entry per key: [...key values, [[start, end, ...buffers], ...]].
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import { getValue, vectorFromValues } from "../../columnar/vector.js";
import type { Attribute, Expr } from "../../plan/expressions.js";
import { exprToSql } from "../../plan/sql-text.js";
import { encodeKey, type StateStore } from "../../state/store.js";
import type { DataType } from "../../types/datatypes.js";
import { AggregationSpec } from "../aggregation.js";
import { compileExpr } from "../compile.js";
import { GroupIndex } from "../group-index.js";
import type { ExecContext, PhysicalOperator } from "../operator.js";
import { mergeSessionRows } from "../operators/merge-sessions.js";
import { exactRow, newMetrics, partitionOf } from "./common.js";
import { watermarksOf } from "./context.js";

type Session = [number, number, ...unknown[]];

export class SessionWindowAggregateExec implements PhysicalOperator {
  readonly name = "SessionWindowStateStoreSave";
  readonly children: PhysicalOperator[];
  readonly spec: AggregationSpec;
  private readonly sessionKey: number;
  private readonly otherKeys: number[];
  private readonly bufferTypes: DataType[][];

  constructor(
    readonly operatorId: number,
    readonly groupingExprs: readonly Expr[],
    readonly aggregateExprs: readonly Expr[],
    readonly output: readonly Attribute[],
    readonly child: PhysicalOperator,
  ) {
    this.children = [child];
    this.spec = new AggregationSpec(groupingExprs, aggregateExprs, child.output);
    this.sessionKey = this.spec.groupAttrs.findIndex((a) => a.metadata["spark.sessionWindow"] === true);
    this.otherKeys = this.spec.groupAttrs.map((_, i) => i).filter((i) => i !== this.sessionKey);
    this.bufferTypes = this.spec.bufferTypes();
  }

  async execute(ctx: ExecContext): Promise<Batch[]> {
    const st = ctx.state!;
    const spec = this.spec;
    const metrics = newMetrics("sessionWindowStateStoreSaveExec", st.numPartitions);
    const stores: StateStore[] = [];
    for (let p = 0; p < st.numPartitions; p++) stores.push(await st.store(this.operatorId, p));

    // 1. partial sessions of this batch, per key
    const partial = new Map<string, { key: unknown[]; sessions: Session[] }>();
    for (const b of await this.child.execute(ctx)) {
      const n = b.numRows;
      if (n === 0) continue;
      const keys = spec.groupKeys(b, ctx.eval);
      const others = this.otherKeys.map((i) => keys[i]!);
      const groups = new GroupIndex(others.map((k) => k.type)).assign(others, n);
      const sw = keys[this.sessionKey]!;
      const merged = mergeSessionRows(groups, sw.children![0]!.values as Float64Array, sw.children![1]!.values as Float64Array, n);
      const accs = spec.newAccumulators();
      for (const a of accs) a.resize(merged.numSessions);
      const inputs = spec.aggInputs(b, ctx.eval);
      for (let i = 0; i < accs.length; i++) accs[i]!.update(merged.sessionId, n, inputs[i]!);
      const bufs = accs.map((a) => a.buffers(merged.numSessions));
      const firstRow = new Int32Array(merged.numSessions).fill(-1);
      for (let i = 0; i < n; i++) if (firstRow[merged.sessionId[i]!] === -1) firstRow[merged.sessionId[i]!] = i;
      for (let s = 0; s < merged.numSessions; s++) {
        const row = firstRow[s]!;
        const end = merged.end[row]!;
        if (end <= watermarksOf(st, this.operatorId).lateMs * 1000) {
          metrics.numRowsDroppedByWatermark++;
          continue;
        }
        const keyVals = others.map((k) => getValue(k, row));
        const ks = encodeKey(keyVals);
        const entry = partial.get(ks) ?? { key: keyVals, sessions: [] };
        entry.sessions.push([merged.start[row]!, end, ...bufs.flatMap((bv) => bv.map((v) => getValue(v, s)))]);
        partial.set(ks, entry);
      }
    }

    // 2-3. merge with stored sessions
    for (const [ks, { key, sessions }] of partial) {
      const store = stores[partitionOf(ks, st.numPartitions)]!;
      const old = store.get(ks);
      const stored = (old?.[key.length] as Session[] | undefined) ?? [];
      const merged = this.mergeSessions([...stored, ...sessions]);
      store.put(ks, exactRow(key, [merged]));
      // Spark keeps one state row per session, keyed by its start: every session of a touched
      // key is rewritten, and a stored session whose start no session has any more (merged
      // into another, or extended to an earlier start) is removed.
      metrics.numRowsUpdated += merged.length;
      const starts = new Set(merged.map((m) => m[0]));
      for (const old of stored) if (!starts.has(old[0])) metrics.numRowsRemoved++;
    }

    // 4. output
    const out: { key: unknown[]; session: Session }[] = [];
    const evictMicros = watermarksOf(st, this.operatorId).evictionMs * 1000;
    for (const store of stores) {
      const updates: [string, unknown[]][] = [];
      for (const [ks, row] of store.entries()) {
        const nk = row.length - 1;
        const sessions = row[nk] as Session[];
        if (st.outputMode === "complete") {
          for (const s of sessions) out.push({ key: row.slice(0, nk) as unknown[], session: s });
          continue;
        }
        const keep = sessions.filter((s) => s[1] > evictMicros);
        if (keep.length === sessions.length) continue;
        for (const s of sessions) if (s[1] <= evictMicros) out.push({ key: row.slice(0, nk) as unknown[], session: s });
        metrics.numRowsRemoved += sessions.length - keep.length;
        updates.push([ks, keep.length ? exactRow(row.slice(0, nk), [keep]) : []]);
      }
      for (const [ks, row] of updates) row.length ? store.put(ks, row) : store.remove(ks);
    }
    let total = 0;
    for (const s of stores) {
      await s.commit();
      for (const [, row] of s.entries()) total += (row[row.length - 1] as Session[]).length;
    }
    metrics.numRowsTotal = total;
    metrics.memoryUsedBytes = stores[0]?.memoryUsedBytes() ?? 0;
    st.report.addStateOperator(this.operatorId, metrics);
    return out.length ? [this.evaluate(out, ctx)] : [];
  }

  /** Sort by start and merge overlapping or touching sessions, combining their buffers. */
  private mergeSessions(all: Session[]): Session[] {
    all.sort((a, b) => a[0] - b[0]);
    const groups: Session[][] = [];
    for (const s of all) {
      const cur = groups[groups.length - 1];
      if (cur && s[0] <= Math.max(...cur.map((c) => c[1]))) cur.push(s);
      else groups.push([s]);
    }
    return groups.map((g) => (g.length === 1 ? g[0]! : this.combine(g)));
  }

  private combine(sessions: Session[]): Session {
    const accs = this.spec.newAccumulators();
    for (const a of accs) a.resize(1);
    const gids = new Int32Array(sessions.length);
    let col = 2;
    accs.forEach((a, i) => {
      const types = this.bufferTypes[i]!;
      a.merge(
        gids,
        sessions.length,
        types.map((t, k) =>
          vectorFromValues(
            t,
            sessions.map((s) => s[col + k] ?? null),
          ),
        ),
      );
      col += types.length;
    });
    const start = Math.min(...sessions.map((s) => s[0]));
    const end = Math.max(...sessions.map((s) => s[1]));
    return [start, end, ...accs.flatMap((a) => a.buffers(1).map((v) => getValue(v, 0)))];
  }

  private evaluate(rows: { key: unknown[]; session: Session }[], ctx: ExecContext): Batch {
    const spec = this.spec;
    const n = rows.length;
    const accs = spec.newAccumulators(ctx.eval);
    for (const a of accs) a.resize(n);
    const gids = Int32Array.from({ length: n }, (_, i) => i);
    let col = 2;
    accs.forEach((a, i) => {
      const types = this.bufferTypes[i]!;
      a.merge(
        gids,
        n,
        types.map((t, k) =>
          vectorFromValues(
            t,
            rows.map((r) => r.session[col + k] ?? null),
          ),
        ),
      );
      col += types.length;
    });
    const keyVecs = spec.groupAttrs.map((attr, i) => {
      if (i === this.sessionKey)
        return vectorFromValues(
          attr.type,
          rows.map((r) => ({ start: r.session[0], end: r.session[1] })),
        );
      const k = this.otherKeys.indexOf(i);
      return vectorFromValues(
        attr.type,
        rows.map((r) => r.key[k] ?? null),
      );
    });
    const intermediate = makeBatch([...keyVecs, ...accs.map((a) => a.evaluate(n))], n);
    return makeBatch(
      spec.resultExprs.map((e) => compileExpr(e, spec.intermediateAttrs)(intermediate, ctx.eval)),
      n,
    );
  }

  describe(): string {
    return `[${this.groupingExprs.map(exprToSql).join(", ")}], operator ${this.operatorId}`;
  }
}
