/**
 * The console sink: for every batch, Spark's 43-dash header with the batch id, then the
 * batch as `show(numRows, truncate)` prints it, to process.stdout.
 */
import { getValue } from "../../columnar/vector.js";
import { formatCell, showString } from "../../common/show.js";
import { findOption, intOption, registerSink } from "../registry.js";
import type { SinkBatch, StreamSink } from "../sink.js";

const DASHES = "-".repeat(43);

export function consoleText(batchId: number, data: SinkBatch, numRows: number, truncate: number): string {
  const cells: string[][] = [];
  let total = 0;
  for (const b of data.batches) {
    for (let i = 0; i < b.numRows; i++, total++) {
      if (cells.length <= numRows)
        cells.push(data.schema.fields.map((f, c) => formatCell(getValue(b.columns[c]!, i), f.type, data.timeZone)));
    }
  }
  const table = showString([...data.names], cells.slice(0, numRows), numRows, truncate, total > numRows);
  // Spark 4's console sink prints no blank line after the "only showing top N rows" footer.
  return `${DASHES}\nBatch: ${batchId}\n${DASHES}\n${table}${total > numRows ? "" : "\n"}`;
}

class ConsoleSink implements StreamSink {
  readonly reportsOutputRows = true;
  readonly description: string;
  constructor(
    private readonly numRows: number,
    private readonly truncate: number,
  ) {
    this.description = `org.apache.spark.sql.execution.streaming.ConsoleTable$@arus`;
  }
  async addBatch(batchId: number, data: SinkBatch): Promise<void> {
    process.stdout.write(consoleText(batchId, data, this.numRows, this.truncate));
  }
}

registerSink("console", {
  outputModes: ["append", "update", "complete"],
  create(ctx) {
    const t = findOption(ctx.options, "truncate");
    const truncate = t === undefined || t === "true" ? 20 : t === "false" ? 0 : Number(t);
    return new ConsoleSink(intOption(ctx.options, "numRows", 20, 0), truncate);
  },
});

registerSink("noop", {
  outputModes: ["append", "update", "complete"],
  create: () => ({
    description: "org.apache.spark.sql.execution.datasources.noop.NoopTable$@arus",
    reportsOutputRows: true,
    addBatch: async () => {},
  }),
});
