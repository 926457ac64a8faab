/** The JSON reader's settings from data source options (shared by the main and worker threads). */
import { dateTimeText } from "../datetime-text.js";
import { corruptColumnName, parseMode, type SourceOptions } from "../options.js";
import type { JsonReadSettings } from "./json-read.js";
import { jsonFeatures } from "./json-text.js";

export function jsonReadSettings(o: SourceOptions, zone: string): JsonReadSettings {
  return {
    mode: parseMode(o),
    corruptColumn: corruptColumnName(o),
    dateTime: dateTimeText(o, zone),
    lineSep: o.get("lineSep"),
    features: jsonFeatures(o),
    multiLine: o.bool("multiLine", false),
  };
}
