/**
 * JSON lines → column vectors for a given schema. Each line goes through the engine's native
 * `JSON.parse` (far faster than any JS tokenizer) and its fields are converted straight into
 * column builders; a reused scratch row lets DROPMALFORMED discard a record before it lands.
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import type { StructType } from "../../types/datatypes.js";
import { columnBuilder } from "./builders.js";
import type { DateTimeText } from "./datetime-text.js";
import { fieldReader, jsonConverter } from "./json-values.js";
import { splitLines } from "./lines.js";
import { corruptColumnIndex, malformedRecordError } from "./malformed.js";
import type { ParseMode } from "./options.js";
import { FAIL } from "./text-values.js";

export const BATCH_ROWS = 32_768;

export interface JsonReadSettings {
  readonly mode: ParseMode;
  readonly corruptColumn: string;
  readonly dateTime: DateTimeText;
  readonly lineSep?: string;
}

export function readJsonText(file: string, text: string, schema: StructType, s: JsonReadSettings): Batch[] {
  const fields = schema.fields;
  const nf = fields.length;
  const corruptIdx = corruptColumnIndex(schema, s.corruptColumn);
  const builders = fields.map((f) => columnBuilder(f.type));
  const readers = fields.map((f) => fieldReader(f.name));
  const convs = fields.map((f) => jsonConverter(f.type, s.dateTime));
  const scratch = new Array<unknown>(nf);
  const batches: Batch[] = [];
  let rows = 0;

  const flush = (): void => {
    if (rows === 0) return;
    batches.push(
      makeBatch(
        builders.map((b) => b.finish()),
        rows,
      ),
    );
    rows = 0;
  };

  const emit = (doc: unknown, line: string, lineNo: number): void => {
    let bad = false;
    if (typeof doc === "object" && doc !== null && !Array.isArray(doc)) {
      const o = doc as Record<string, unknown>;
      for (let i = 0; i < nf; i++) {
        if (i === corruptIdx) continue;
        const raw = readers[i]!(o);
        if (raw === null || raw === undefined) scratch[i] = null;
        else {
          const v = convs[i]!(raw);
          if (v === FAIL) {
            bad = true;
            scratch[i] = null; // Spark keeps the other fields (partial result)
          } else scratch[i] = v;
        }
      }
    } else {
      bad = true;
      scratch.fill(null);
    }
    if (bad) {
      if (s.mode === "FAILFAST") throw malformedRecordError(file, lineNo, line);
      if (s.mode === "DROPMALFORMED") return;
    }
    if (corruptIdx >= 0) scratch[corruptIdx] = bad ? line : null;
    for (let i = 0; i < nf; i++) builders[i]!.append(scratch[i]);
    if (++rows === BATCH_ROWS) flush();
  };

  const lines = splitLines(text, s.lineSep);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.trim() === "") continue;
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      emit(undefined, line, n + 1);
      continue;
    }
    if (doc === null) continue;
    if (Array.isArray(doc)) for (const d of doc) emit(d, line, n + 1);
    else emit(doc, line, n + 1);
  }
  flush();
  return batches;
}
