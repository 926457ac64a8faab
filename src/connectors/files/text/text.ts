/**
 * The `text` format: one `value STRING` row per line (or one per file with `wholetext`);
 * writing takes a single string column, one line per row (NULL → empty line, as Spark).
 */
import { type Batch, makeBatch } from "../../../columnar/batch.js";
import { makeVector, type Vector } from "../../../columnar/vector.js";
import { AnalysisException } from "../../../common/errors.js";
import { field, StringType, StructOf, type StructType } from "../../../types/datatypes.js";
import { BATCH_ROWS } from "../builders.js";
import { splitLines } from "../lines.js";

export const TEXT_SCHEMA: StructType = StructOf([field("value", StringType, true)]);

export function readTextContent(text: string, schema: StructType, wholeText: boolean, lineSep?: string): Batch[] {
  const lines = wholeText ? [text] : splitLines(text, lineSep);
  const nf = schema.fields.length;
  const batches: Batch[] = [];
  for (let s = 0; s < lines.length; s += BATCH_ROWS) {
    const chunk = lines.slice(s, s + BATCH_ROWS);
    const col: Vector = makeVector(StringType, chunk, null, chunk.length);
    // Any further (non-partition) fields cannot come from a text file: NULL.
    const cols = schema.fields.map((f, i) =>
      i === 0 ? col : makeVector(f.type, new Array(chunk.length).fill(null), new Uint8Array(chunk.length), chunk.length),
    );
    batches.push(makeBatch(nf === 0 ? [] : cols, chunk.length));
  }
  return batches;
}

export function checkTextSchema(schema: StructType): void {
  if (schema.fields.length !== 1) {
    throw new AnalysisException(
      "_LEGACY_ERROR_TEMP_1225",
      `Text data source supports only a single column, and you have ${schema.fields.length} columns.`,
    );
  }
  if (schema.fields[0]!.type.kind !== "string") {
    throw new AnalysisException(
      "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
      `[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The Text datasource doesn't support the column \`${schema.fields[0]!.name}\` of the type "${schema.fields[0]!.type.kind.toUpperCase()}".`,
    );
  }
}

export function encodeText(batch: Batch, lineSep: string): string {
  const v = batch.columns[0]!;
  const out = new Array<string>(batch.numRows);
  for (let i = 0; i < batch.numRows; i++) out[i] = v.validity !== null && v.validity[i] === 0 ? "" : String(v.values[i]);
  return out.length === 0 ? "" : out.join(lineSep) + lineSep;
}
