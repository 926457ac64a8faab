// Every built-in streaming sink passes the sink conformance suite (sink-suite.ts).
import { join } from "node:path";
import { foreachBatchSink, memorySink } from "../../../src/api/streaming/sinks.js";
import { type Batch, rowValues } from "../../../src/columnar/batch.js";
import "../../../src/connectors/builtin.js";
import { readCommittedFiles } from "../../../src/connectors/file-stream/index.js";
import { readFiles } from "../../../src/connectors/files/index.js";
import { lookupSink, type SinkContext } from "../../../src/connectors/registry.js";
import { readTable } from "../../../src/connectors/table/index.js";
import { Session } from "../../../src/index.js";
import { tempDirs } from "../../temp-dirs.js";
import { type OutputMode, SINK_SCHEMA, type SinkFixture, sinkConformance } from "./sink-suite.js";

const tempDir = tempDirs("arus-sink-conformance-");
const session = Session.builder().appName("sink-conformance").config("spark.sql.session.timeZone", "UTC").getOrCreate();

function rowsOf(batches: readonly Batch[]): unknown[][] {
  const out: unknown[][] = [];
  for (const b of batches) for (let i = 0; i < b.numRows; i++) out.push(rowValues(b, i));
  return out;
}

function sinkCtx(mode: OutputMode, extra: Partial<SinkContext>): SinkContext {
  return { options: {}, path: null, queryName: null, checkpointDir: null, partitionBy: [], timeZone: "UTC", outputMode: mode, ...extra };
}

/** Console output split into batches: the header's batch id and the table's body rows. */
function parseConsole(out: string): { batchId: number; rows: unknown[][] }[] {
  return out
    .split(/^-{43}\nBatch: /m)
    .slice(1)
    .map((block) => {
      const [id, ...lines] = block.split("\n");
      const table = lines.filter((l) => l.startsWith("|")).slice(1);
      return {
        batchId: Number(id),
        rows: table.map((l) =>
          l
            .slice(1, -1)
            .split("|")
            .map((c) => c.trim()),
        ),
      };
    });
}

sinkConformance("console", {
  modes: ["append", "update", "complete"],
  delivery: "at-least-once",
  durable: { skip: "console output is not kept" },
  async setup(): Promise<SinkFixture> {
    let out = "";
    const write = process.stdout.write;
    // Capture only while a batch is written, so the test runner's own output is untouched.
    const capture = <T>(fn: () => Promise<T>) => {
      process.stdout.write = ((chunk: string | Uint8Array) => {
        out += String(chunk);
        return true;
      }) as typeof process.stdout.write;
      return fn().finally(() => {
        process.stdout.write = write;
      });
    };
    return {
      open(mode) {
        const sink = lookupSink("console").create(sinkCtx(mode, {}));
        return { ...sink, description: sink.description, addBatch: (id, data) => capture(() => sink.addBatch(id, data)) };
      },
      deliveries: async () => parseConsole(out),
    };
  },
});

let memoryNames = 0;
sinkConformance("memory", {
  modes: ["append", "update", "complete"],
  delivery: "exactly-once",
  durable: { skip: "the memory sink lives in the session: a restarted query starts a new, empty table (as Spark's MemorySink)" },
  async setup(): Promise<SinkFixture> {
    const name = `conformance_${memoryNames++}`;
    return {
      open: (mode) => memorySink(session, name, mode),
      result: async () => rowsOf(await session.table(name).executeBatches()),
    };
  },
});

sinkConformance("foreachBatch", {
  modes: ["append", "update", "complete"],
  delivery: "at-least-once",
  durable: { skip: "foreachBatch hands each batch to the user's function, which deduplicates by batch id" },
  async setup(): Promise<SinkFixture> {
    const seen: { batchId: number; rows: unknown[][] }[] = [];
    return {
      open: () =>
        foreachBatchSink(session, async (df, batchId) => {
          seen.push({ batchId, rows: rowsOf(await df.executeBatches()) });
        }),
      deliveries: async () => seen,
    };
  },
});

for (const format of ["json", "csv", "parquet"]) {
  sinkConformance(`file (${format})`, {
    modes: ["append"],
    delivery: "exactly-once",
    durable: true,
    async setup(): Promise<SinkFixture> {
      const root = await tempDir();
      const dir = join(root, "out");
      const checkpointDir = join(root, "checkpoint");
      return {
        open: (mode) => lookupSink(format).create(sinkCtx(mode, { path: dir, checkpointDir })),
        result: async () => rowsOf(await readFiles(format, (await readCommittedFiles(dir)) ?? [], SINK_SCHEMA, {}, "UTC")),
      };
    },
  });
}

sinkConformance("table", {
  modes: ["append"],
  delivery: "exactly-once",
  durable: true,
  async setup(): Promise<SinkFixture> {
    const warehouse = await tempDir();
    const checkpointDir = join(warehouse, "_checkpoint");
    return {
      open: (mode) => lookupSink("arus-table").create(sinkCtx(mode, { options: { table: "results", warehouse }, checkpointDir })),
      result: async () => rowsOf(await readTable(warehouse, "results", "UTC").catch(() => [])),
    };
  },
});
