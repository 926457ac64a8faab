/**
 * MemoryStream: the test source (Spark's MemoryStream, which PySpark lacks). Each `addData`
 * call is one block; the next trigger takes every block added since the last batch.
 */
import { randomUUID } from "node:crypto";
import { batchFromRows } from "../../columnar/batch.js";
import { getField } from "../../common/row-object.js";
import { MemorySource } from "../../connectors/memory/memory-source.js";
import { registerSource } from "../../connectors/registry.js";
import { attribute } from "../../plan/expressions.js";
import { Plans } from "../../plan/logical.js";
import { type StructType, simpleString } from "../../types/datatypes.js";
import { DataFrame } from "../dataframe.js";
import type { Session } from "../session.js";
import { toInternal } from "../values.js";

const live = new Map<string, MemorySource>();

registerSource("memory", {
  schema: (options) => live.get(options.id!)!.schema,
  create(options) {
    const s = live.get(options.id!);
    if (!s) throw new Error(`MemoryStream ${options.id} no longer exists`);
    return s;
  },
});

export class MemoryStream {
  readonly id = randomUUID();
  private readonly source: MemorySource;
  /** @internal */
  constructor(
    private readonly session: Session,
    readonly schema: StructType,
  ) {
    this.source = new MemorySource(schema, `MemoryStream[${schema.fields.map((f) => `${f.name}#${simpleString(f.type)}`).join(",")}]`);
    live.set(this.id, this.source);
  }

  /** Append rows (objects keyed by column, or arrays in schema order); returns the new offset. */
  addData(rows: readonly (Record<string, unknown> | readonly unknown[])[]): number {
    const tz = this.session.timeZone;
    const fields = this.schema.fields;
    const internal = rows.map((r, i) =>
      fields.map((f, c) =>
        toInternal(Array.isArray(r) ? r[c] : getField(r as object, f.name), f.type, tz, `addData row ${i}, column ${f.name}`),
      ),
    );
    return this.source.addBlock(
      batchFromRows(
        fields.map((f) => f.type),
        internal,
      ),
    );
  }

  /** The latest offset (-1 before any data). */
  get latestOffset(): number {
    return this.source.latest;
  }

  toDF(): DataFrame {
    const output = this.schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
    return new DataFrame(this.session, Plans.streamingRelation(randomUUID(), "memory", { id: this.id }, output));
  }
}
