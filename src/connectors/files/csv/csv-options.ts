/** CSV options with Spark's defaults (CSVOptions), split into read and write views. */

import { corruptColumnName, type ParseMode, parseMode, type SourceOptions } from "../options.js";
import type { CsvSyntax } from "./csv-tokenizer.js";

export interface CsvReadOptions {
  readonly syntax: CsvSyntax;
  readonly header: boolean;
  readonly mode: ParseMode;
  readonly corruptColumn: string;
  readonly nullValue: string;
  readonly emptyValue: string;
  readonly nanValue: string;
  readonly positiveInf: string;
  readonly negativeInf: string;
  readonly preferDate: boolean;
  readonly customDateFormat: boolean;
}

export interface CsvWriteOptions {
  readonly sep: string;
  readonly quote: string;
  readonly escape: string;
  readonly header: boolean;
  readonly nullValue: string;
  readonly emptyValue: string;
  readonly quoteAll: boolean;
  readonly escapeQuotes: boolean;
  readonly trimLeading: boolean;
  readonly trimTrailing: boolean;
  readonly lineSep: string;
}

function separator(o: SourceOptions): string {
  const v = o.get("sep") ?? o.get("delimiter") ?? ",";
  if (v === "\\t") return "\t";
  return v.length === 0 ? "," : v;
}

export function csvReadOptions(o: SourceOptions): CsvReadOptions {
  return {
    syntax: {
      sep: separator(o),
      quote: o.char("quote", '"'),
      escape: o.char("escape", "\\"),
      comment: o.char("comment", "\u0000"),
      ignoreLeadingWhiteSpace: o.bool("ignoreLeadingWhiteSpace", false),
      ignoreTrailingWhiteSpace: o.bool("ignoreTrailingWhiteSpace", false),
      multiLine: o.bool("multiLine", false),
    },
    header: o.bool("header", false),
    mode: parseMode(o),
    corruptColumn: corruptColumnName(o),
    nullValue: o.string("nullValue", ""),
    emptyValue: o.string("emptyValue", ""),
    nanValue: o.string("nanValue", "NaN"),
    positiveInf: o.string("positiveInf", "Inf"),
    negativeInf: o.string("negativeInf", "-Inf"),
    preferDate: o.bool("preferDate", true),
    customDateFormat: o.get("dateFormat") !== undefined,
  };
}

export function csvWriteOptions(o: SourceOptions): CsvWriteOptions {
  return {
    sep: separator(o),
    quote: o.char("quote", '"'),
    escape: o.char("escape", "\\"),
    header: o.bool("header", false),
    nullValue: o.string("nullValue", ""),
    emptyValue: o.string("emptyValue", '""'),
    quoteAll: o.bool("quoteAll", false),
    escapeQuotes: o.bool("escapeQuotes", true),
    // Spark trims on write by default (ignore*WhiteSpace default to true for writing).
    trimLeading: o.bool("ignoreLeadingWhiteSpace", true),
    trimTrailing: o.bool("ignoreTrailingWhiteSpace", true),
    lineSep: o.string("lineSep", "\n"),
  };
}

/**
 * A token's value before type conversion, or null: unquoted empty tokens and tokens equal to
 * `nullValue` are NULL (so with the default nullValue "", a quoted "" is NULL too, as in Spark).
 */
export function tokenValue(tok: string, quoted: boolean, o: CsvReadOptions): string | null {
  const v = tok === "" ? (quoted ? o.emptyValue : null) : tok;
  return v === null || v === o.nullValue ? null : v;
}
