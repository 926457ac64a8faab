// Every built-in streaming source passes the source conformance suite (source-suite.ts).
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { batchFromRows } from "../../../src/columnar/batch.js";
import "../../../src/connectors/builtin.js";
import { MemorySource } from "../../../src/connectors/memory/memory-source.js";
import { lookupSource } from "../../../src/connectors/registry.js";
import type { SourceContext } from "../../../src/connectors/source.js";
import { appendToTable, createTableSync } from "../../../src/connectors/table/index.js";
import { field, LongType, StringType, StructOf } from "../../../src/types/datatypes.js";
import { tempDirs } from "../../temp-dirs.js";
import { type SourceFixture, sourceConformance } from "./source-suite.js";

const tempDir = tempDirs("arus-source-conformance-");
const schema = StructOf([field("id", LongType), field("name", StringType)]);
const types = schema.fields.map((f) => f.type);

/** Two new rows per call: ids 2k, 2k+1. */
function rowMaker(): () => unknown[][] {
  let k = 0;
  return () => {
    const rows = [2 * k, 2 * k + 1].map((id) => [id, `n${id}`]);
    k++;
    return rows;
  };
}

function ctx(metadataDir: string | null, now: () => number = Date.now): SourceContext {
  return { metadataDir, timeZone: "UTC", now };
}

sourceConformance("memory", {
  async setup(): Promise<SourceFixture> {
    // A restarted query in the same process gets the same MemorySource (the registry keeps it).
    const src = new MemorySource(schema, "MemoryStream[id#bigint,name#string]");
    const next = rowMaker();
    return {
      open: () => src,
      async produce() {
        const rows = next();
        src.addBlock(batchFromRows(types, rows));
        return rows;
      },
    };
  },
  readLimit: { skip: "MemoryStream takes every block since the last batch (Spark's MemoryStream has no read limit)" },
  availableNow: true,
  releasing: {
    skip: "MemoryStream keeps every block: a query restarted in the same process may replay any range; commit only records the position",
  },
  rangesCompose: true,
  partitions: { skip: "one sequence of blocks, no partitions" },
});

sourceConformance("rate", {
  async setup(): Promise<SourceFixture> {
    const meta = join(await tempDir(), "sources", "0");
    let now = 1_700_000_000_000;
    const options = { rowsPerSecond: "3", numPartitions: "2" };
    return {
      async open() {
        const src = lookupSource("rate").create(
          options,
          lookupSource("rate").schema(options, null, "UTC"),
          ctx(meta, () => now),
        );
        // The first offset fixes the creation time (kept in the metadata dir for restarts).
        await src.latestOffset(null, src.defaultReadLimit());
        return src;
      },
      async produce() {
        now += 2000;
        return null;
      },
    };
  },
  readLimit: { skip: "rate takes no read limit: rowsPerSecond and the clock decide a batch's size" },
  availableNow: { skip: "Spark's rate source does not support availableNow (it falls back to one batch)" },
  releasing: { skip: "rate rows are computed from the offset; there is nothing to release" },
  rangesCompose: true,
  partitions: { skip: "the offset is seconds since creation; numPartitions only orders the rows" },
});

sourceConformance("rate-micro-batch", {
  async setup(): Promise<SourceFixture> {
    const options = { rowsPerBatch: "4", numPartitions: "2", startTimestamp: "1000" };
    const p = lookupSource("rate-micro-batch");
    return {
      open: () => p.create(options, p.schema(options, null, "UTC"), ctx(null)),
      // Every latestOffset call is a new batch of rowsPerBatch rows.
      produce: async () => null,
    };
  },
  readLimit: { limit: { kind: "maxRows", max: 4 }, maxRows: 4 },
  availableNow: true,
  releasing: { skip: "rate-micro-batch rows are computed from the offset; there is nothing to release" },
  rangesCompose: {
    skip: "every row of a range carries the range's start timestamp, as in Spark's RatePerMicroBatchStream, so (a, c] differs from (a, b] + (b, c]",
  },
  partitions: { skip: "one offset and timestamp, no partitions" },
});

/** A JSON-lines directory source; each produce() writes one file of two rows. */
async function fileFixture(extra: Record<string, string> = {}): Promise<SourceFixture> {
  const root = await tempDir();
  const dir = join(root, "in");
  await mkdir(dir);
  const meta = join(root, "sources", "0");
  const next = rowMaker();
  let n = 0;
  const options = { path: dir, ...extra };
  const p = lookupSource("json");
  return {
    open: () => p.create(options, schema, ctx(meta)),
    async produce() {
      const rows = next();
      const file = join(dir, `part-${n}.json`);
      await writeFile(file, `${rows.map(([id, name]) => JSON.stringify({ id, name })).join("\n")}\n`);
      // Distinct modification times keep the listing order deterministic.
      await utimes(file, 1000 + n, 1000 + n);
      n++;
      return rows;
    },
    released: async () => (await readdir(dir)).length === 0,
  };
}

sourceConformance("file-stream (json)", {
  setup: () => fileFixture(),
  readLimit: { limit: { kind: "maxFiles", max: 1 }, maxRows: 2 },
  availableNow: true,
  releasing: () => fileFixture({ cleanSource: "delete" }),
  rangesCompose: true,
  partitions: { skip: "one file log offset, no partitions" },
});

sourceConformance("table", {
  async setup(): Promise<SourceFixture> {
    const warehouse = await tempDir();
    createTableSync(warehouse, "events", schema);
    const meta = join(warehouse, "_checkpoint", "sources", "0");
    const next = rowMaker();
    const options = { table: "events", warehouse };
    const p = lookupSource("arus-table");
    return {
      open: () => p.create(options, p.schema(options, null, "UTC"), ctx(meta)),
      async produce() {
        const rows = next();
        await appendToTable(warehouse, "events", { schema, batches: [batchFromRows(types, rows)], timeZone: "UTC" });
        return rows;
      },
    };
  },
  readLimit: { limit: { kind: "maxFiles", max: 1 }, maxRows: 2 },
  availableNow: true,
  releasing: { skip: "a table's files belong to the table (cleanSource is for plain file directories)" },
  rangesCompose: true,
  partitions: { skip: "one manifest log offset, no partitions" },
});
