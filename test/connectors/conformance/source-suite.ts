/**
 * The streaming source conformance suite (not a test file itself): every source passes it, the
 * way every state store passes test/state/store-conformance.ts. `sourceConformance(name,
 * harness)` registers the tests under `describe(name)`; a connector that cannot meet one part
 * of the contract says why in its harness, and the suite shows that reason as the skip message.
 *
 * The contract (src/connectors/source.ts), as checked here:
 *   - offsets are JSON: each survives JSON.stringify/parse and reads the same rows afterwards;
 *   - every batch's range replays the same rows, also from a new source instance over the same
 *     data and metadata directory (a restart); ranges spanning several batches too, where a
 *     source's ranges compose;
 *   - a read limit bounds each batch, and the limited batches add up to one unlimited read;
 *   - availableNow fixes the end: data added after `prepareForAvailableNow` is never reached;
 *   - `commit(end)` keeps everything after `end` readable (and, where the connector releases
 *     data, has released what is committed);
 *   - `stop()` resolves, and a new instance resumes after the last committed offset;
 *   - per-partition offsets (where a source has partitions) never move backwards.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Batch, rowValues } from "../../../src/columnar/batch.js";
import type { Offset, ReadLimit, StreamSource } from "../../../src/connectors/source.js";

/** One test's world: the data a source reads and its metadata directory. */
export interface SourceFixture {
  /** A source over this fixture; called again (after `stop`) for a restart. */
  open(): StreamSource | Promise<StreamSource>;
  /**
   * Makes more data available (writes a file, adds a block, advances the clock). Returns the rows
   * added, as the source will return them, or null when the source decides them itself (rate).
   */
  produce(): Promise<unknown[][] | null>;
  /** True once everything committed so far has been released (files deleted, blocks dropped). */
  released?(): Promise<boolean>;
  close?(): Promise<void>;
}

export type Skip = { skip: string };

export interface SourceHarness {
  /** A fresh fixture with the source's default options. */
  setup(): Promise<SourceFixture>;
  /** A limit to read under and the most rows one batch may then hold. */
  readLimit: { limit: ReadLimit; maxRows: number } | Skip;
  /** Sources with `supportsAvailableNow = false` must give the reason here. */
  availableNow: true | Skip;
  /** A fixture whose source releases committed data (its `released()` is checked). */
  releasing: (() => Promise<SourceFixture>) | Skip;
  /**
   * Whether the rows of (a, c] are those of (a, b] and (b, c] together. The engine only ever reads
   * ranges it handed out, so a source may stamp a range as a whole (rate-micro-batch does).
   */
  rangesCompose: true | Skip;
  /** The per-partition positions inside an offset, e.g. Kafka's `{"t":{"0":42}}` -> {"t-0": 42}. */
  partitions: ((offset: Offset) => Record<string, number>) | Skip;
  /** Skips the whole suite with this message (a connector whose service is not there). */
  skip?: string | false;
}

/** Rows as JSON text, so typed-array values and plain arrays compare alike. */
function rowsOf(batches: readonly Batch[]): string[] {
  const out: string[] = [];
  for (const b of batches) for (let i = 0; i < b.numRows; i++) out.push(JSON.stringify(rowValues(b, i)));
  return out;
}
const texts = (rows: readonly unknown[][]) => rows.map((r) => JSON.stringify(r));
const sorted = (rows: readonly string[]) => [...rows].sort();
const same = (a: Offset | null, b: Offset | null) => JSON.stringify(a) === JSON.stringify(b);

interface Step {
  start: Offset | null;
  end: Offset;
  rows: string[];
}

/** One trigger under `limit`: the next offset and its rows, or null when nothing is new. */
async function trigger(src: StreamSource, start: Offset | null, limit: ReadLimit): Promise<Step | null> {
  const end = await src.latestOffset(start, limit);
  if (end === null || same(end, start)) return null;
  return { start, end, rows: rowsOf(await src.getBatch(start, end)) };
}

/** Produces and triggers `n` times; each step must bring new rows. */
async function steps(f: SourceFixture, src: StreamSource, n: number, from: Offset | null = null): Promise<Step[]> {
  const out: Step[] = [];
  let start = from;
  for (let i = 0; i < n; i++) {
    const added = await f.produce();
    const s = await trigger(src, start, src.defaultReadLimit());
    assert.ok(s, `trigger ${i}: no new offset after produce()`);
    if (added) assert.deepEqual(sorted(s.rows), sorted(texts(added)), `trigger ${i}: the rows just produced`);
    assert.ok(s.rows.length > 0, `trigger ${i}: no rows`);
    out.push(s);
    start = s.end;
  }
  return out;
}

function skipReason<T>(v: T | Skip): string | undefined {
  return typeof v === "object" && v !== null && "skip" in v ? v.skip : undefined;
}

async function withFixture(setup: () => Promise<SourceFixture>, body: (f: SourceFixture) => Promise<void>): Promise<void> {
  const f = await setup();
  try {
    await body(f);
  } finally {
    await f.close?.();
  }
}

export function sourceConformance(name: string, h: SourceHarness): void {
  describe(`source conformance: ${name}`, { skip: h.skip || undefined }, () => {
    test("offsets are JSON values that read the same rows after a round trip", () =>
      withFixture(h.setup, async (f) => {
        const src = await f.open();
        for (const s of await steps(f, src, 2)) {
          const text = JSON.stringify(s.end);
          assert.ok(text !== undefined, "offset must be JSON");
          const back = JSON.parse(text) as Offset;
          assert.deepEqual(back, s.end, `offset ${text} changes in a JSON round trip`);
          const start = s.start === null ? null : (JSON.parse(JSON.stringify(s.start)) as Offset);
          assert.deepEqual(rowsOf(await src.getBatch(start, back)), s.rows, `rows of (${JSON.stringify(s.start)}, ${text}]`);
        }
        await src.stop();
      }));

    test("every committed range replays the same rows, also after a restart", () =>
      withFixture(h.setup, async (f) => {
        const a = await f.open();
        const run = await steps(f, a, 3);
        for (const s of run.slice(0, 2)) await a.commit(s.end);
        await a.stop();
        const b = await f.open();
        for (const s of run) {
          const got = rowsOf(await b.getBatch(s.start, s.end));
          assert.deepEqual(got, s.rows, `replay of (${JSON.stringify(s.start)}, ${JSON.stringify(s.end)}]`);
        }
        await b.stop();
      }));

    test("a range spanning several batches reads their rows together, also after a restart", { skip: skipReason(h.rangesCompose) }, () =>
      withFixture(h.setup, async (f) => {
        const a = await f.open();
        const run = await steps(f, a, 3);
        await a.commit(run[0]!.end);
        await a.stop();
        const b = await f.open();
        const bounds: (Offset | null)[] = [null, ...run.map((s) => s.end)];
        for (let i = 0; i < bounds.length; i++) {
          for (let j = i + 2; j < bounds.length; j++) {
            const want = run.slice(i, j).flatMap((s) => s.rows);
            const got = rowsOf(await b.getBatch(bounds[i]!, bounds[j]!));
            assert.deepEqual(sorted(got), sorted(want), `replay of (${JSON.stringify(bounds[i])}, ${JSON.stringify(bounds[j])}]`);
          }
        }
        await b.stop();
      }),
    );

    const limit = h.readLimit;
    test("a read limit bounds each batch; the limited batches add up to one unlimited read", { skip: skipReason(limit) }, () =>
      withFixture(h.setup, async (f) => {
        if ("skip" in limit) return;
        const src = await f.open();
        for (let i = 0; i < 3; i++) await f.produce();
        const read: string[] = [];
        let start: Offset | null = null;
        for (let i = 0; i < 10; i++) {
          const s = await trigger(src, start, limit.limit);
          if (!s) break;
          assert.ok(
            s.rows.length <= limit.maxRows,
            `batch ${i} under ${JSON.stringify(limit.limit)} holds ${s.rows.length} rows (at most ${limit.maxRows})`,
          );
          read.push(...s.rows);
          start = s.end;
        }
        assert.ok(start !== null, "no batch under the limit");
        assert.ok(read.length > limit.maxRows, "the data should need more than one limited batch");
        const whole = rowsOf(await src.getBatch(null, start));
        if (skipReason(h.rangesCompose)) assert.equal(read.length, whole.length, "limited batches vs one read: row count");
        else assert.deepEqual(sorted(read), sorted(whole), "limited batches vs one read");
        await src.stop();
      }),
    );

    const availableNow = h.availableNow;
    test("availableNow: the end is fixed when prepared", { skip: skipReason(availableNow) }, () =>
      withFixture(h.setup, async (f) => {
        const src = await f.open();
        assert.equal(src.supportsAvailableNow, true, "the harness claims availableNow support");
        const before = await f.produce();
        await src.prepareForAvailableNow();
        const after = await f.produce();
        const read: string[] = [];
        let start: Offset | null = null;
        let fixed = false;
        for (let i = 0; i < 20 && !fixed; i++) {
          const s = await trigger(src, start, src.defaultReadLimit());
          if (!s) fixed = true;
          else {
            read.push(...s.rows);
            start = s.end;
          }
        }
        assert.ok(fixed, "latestOffset kept moving after prepareForAvailableNow");
        await f.produce();
        assert.equal(await trigger(src, start, src.defaultReadLimit()), null, "moved past the availableNow end");
        if (before) assert.deepEqual(sorted(read), sorted(texts(before)), "exactly the data before prepareForAvailableNow");
        if (after) for (const r of texts(after)) assert.ok(!read.includes(r), `read ${r}, added after prepareForAvailableNow`);
        await src.stop();
      }),
    );
    if (skipReason(availableNow)) {
      test("a source without availableNow says so", () =>
        withFixture(h.setup, async (f) => {
          const src = await f.open();
          assert.equal(src.supportsAvailableNow, false, "skips availableNow but reports supportsAvailableNow");
          await src.stop();
        }));
    }

    test("commit(end) keeps everything after end readable", () =>
      withFixture(h.setup, async (f) => {
        const src = await f.open();
        const [first] = await steps(f, src, 1);
        await src.commit(first!.end);
        const [next] = await steps(f, src, 1, first!.end);
        assert.deepEqual(rowsOf(await src.getBatch(first!.end, next!.end)), next!.rows);
        await src.stop();
      }));

    const releasing = h.releasing;
    test("commit(end) releases the committed data", { skip: skipReason(releasing) }, async () => {
      if (typeof releasing !== "function") return;
      await withFixture(releasing, async (f) => {
        assert.ok(f.released, "a releasing fixture needs released()");
        const src = await f.open();
        const [first] = await steps(f, src, 1);
        assert.equal(await f.released(), false, "released before commit");
        await src.commit(first!.end);
        assert.equal(await f.released(), true, "not released after commit");
        const [next] = await steps(f, src, 1, first!.end);
        assert.equal(await f.released(), false, "the new data is released before its commit");
        await src.commit(next!.end);
        assert.equal(await f.released(), true, "not released after the second commit");
        await src.stop();
      });
    });

    test("stop() resolves and a new source resumes after the last committed offset", () =>
      withFixture(h.setup, async (f) => {
        const a = await f.open();
        const [first] = await steps(f, a, 1);
        await a.commit(first!.end);
        await a.stop();
        const added = await f.produce();
        const b = await f.open();
        const s = await trigger(b, first!.end, b.defaultReadLimit());
        assert.ok(s, "no new offset after the restart");
        assert.ok(s.rows.length > 0);
        if (added) assert.deepEqual(sorted(s.rows), sorted(texts(added)), "exactly the rows produced while stopped");
        await b.stop();
      }));

    const partitions = h.partitions;
    test("per-partition offsets never move backwards", { skip: skipReason(partitions) }, () =>
      withFixture(h.setup, async (f) => {
        if (typeof partitions !== "function") return;
        const src = await f.open();
        let prev: Record<string, number> = {};
        for (const s of await steps(f, src, 3)) {
          const now = partitions(JSON.parse(JSON.stringify(s.end)) as Offset);
          for (const [p, pos] of Object.entries(now)) assert.ok(Number.isInteger(pos), `partition ${p}: position ${pos}`);
          for (const [p, pos] of Object.entries(prev)) {
            assert.ok(p in now, `partition ${p} disappeared from ${JSON.stringify(s.end)}`);
            assert.ok(now[p]! >= pos, `partition ${p} moved back from ${pos} to ${now[p]}`);
          }
          prev = now;
        }
        await src.stop();
      }),
    );
  });
}
