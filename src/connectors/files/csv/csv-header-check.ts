/**
 * `enforceSchema=false` (Spark's CSVHeaderChecker): with `header`, each file's header must name
 * the schema's columns, in order (case-insensitively, as `spark.sql.caseSensitive` is off by
 * default; the corrupt-record column left out), or the read fails naming the file. With the
 * default `enforceSchema=true` the header is skipped and the schema taken by position, as before.
 */
import { pathToFileURL } from "node:url";
import { IllegalArgumentException } from "../../../common/errors.js";
import type { StructType } from "../../../types/datatypes.js";
import type { CsvReadOptions } from "./csv-options.js";
import { CsvTokenizer } from "./csv-tokenizer.js";

/** The bytes searched for the header record: far more than any header line. */
export const HEADER_PREFIX = 1 << 20;

/**
 * Throws Spark's error when the header at the start of `text` (the file's first HEADER_PREFIX
 * bytes) does not name `schema`'s columns; with column pruning (`read`: the positions in
 * `schema` of the columns converted) only those columns' header names are checked, by position.
 */
export function checkCsvHeader(
  file: string,
  text: string,
  schema: StructType,
  o: CsvReadOptions,
  read: ReadonlySet<number> | null = null,
): void {
  const tk = new CsvTokenizer(text, o.syntax);
  if (!tk.next()) return;
  // token k names the k-th field that is not the corrupt-record column
  const data = schema.fields.flatMap((f, i) => (f.name === o.corruptColumn ? [] : [{ name: f.name, i }]));
  const picked = data.flatMap((d, k) => (read === null || read.has(d.i) ? [{ name: d.name, k }] : []));
  const header = read === null ? tk.fields.slice(0, tk.count) : picked.filter((d) => d.k < tk.count).map((d) => tk.fields[d.k]!);
  const names = picked.map((d) => d.name);
  const source = `CSV file: ${pathToFileURL(file).href}`;
  if (header.length !== names.length) {
    throw new IllegalArgumentException(
      `Number of column in CSV header is not equal to number of fields in the schema:\n Header length: ${header.length}, schema size: ${names.length}\n${source}`,
      "_LEGACY_ERROR_TEMP_3241",
    );
  }
  const i = names.findIndex((n, k) => n.toLowerCase() !== header[k]!.toLowerCase());
  if (i >= 0) {
    throw new IllegalArgumentException(
      `CSV header does not conform to the schema.\n Header: ${header.join(", ")}\n Schema: ${names.join(", ")}\nExpected: ${names[i]} but found: ${header[i]}\n${source}`,
      "_LEGACY_ERROR_TEMP_3241",
    );
  }
}
