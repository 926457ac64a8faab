/** The JSON reader's settings from data source options (shared by the main and worker threads). */
import { AnalysisException } from "../../../common/errors.js";
import { dateTimeText } from "../datetime-text.js";
import { corruptColumnName, parseMode, type SourceOptions } from "../options.js";
import type { JsonReadSettings } from "./json-read.js";
import { jsonFeatures } from "./json-text.js";

export function jsonReadSettings(o: SourceOptions, zone: string): JsonReadSettings {
  refuseMultiLine(o);
  return {
    mode: parseMode(o),
    corruptColumn: corruptColumnName(o),
    dateTime: dateTimeText(o, zone),
    lineSep: o.get("lineSep"),
    features: jsonFeatures(o),
  };
}

/**
 * Spark's `multiLine` JSON (each file one JSON document) is not read yet: refused by name rather
 * than read as JSON lines, which would give other rows than Spark's.
 */
export function refuseMultiLine(o: SourceOptions): void {
  if (o.bool("multiLine", false)) {
    throw new AnalysisException(
      "UNSUPPORTED_FEATURE",
      "[UNSUPPORTED_FEATURE] The JSON option multiLine=true (each file one JSON document) is not supported by arus: it reads JSON lines, one record per line.",
    );
  }
}
