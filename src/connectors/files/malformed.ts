/** The FAILFAST error: names the file, the 1-based line and the offending record. */
import { AnalysisException, MalformedInputException } from "../../common/errors.js";
import { type StructType, sqlTypeName } from "../../types/datatypes.js";

const MAX_RECORD_CHARS = 1000; // Spark's maxErrorContentLength

export function malformedRecordError(file: string, line: number, record: string, cause?: string): MalformedInputException {
  const shown = record.length > MAX_RECORD_CHARS ? `${record.slice(0, MAX_RECORD_CHARS)}...` : record;
  const why = cause ? ` (${cause})` : "";
  return new MalformedInputException(
    `Malformed record in ${file} at line ${line}: ${shown}${why}\n` +
      "Parse Mode: FAILFAST. To process malformed records as null result, try setting the option 'mode' as 'PERMISSIVE'.",
    file,
    line,
  );
}

/** Index of the corrupt-record column in `schema` (-1 if absent); it must be a STRING column. */
export function corruptColumnIndex(schema: StructType, name: string): number {
  const i = schema.fields.findIndex((f) => f.name === name);
  if (i >= 0 && schema.fields[i]!.type.kind !== "string") {
    throw new AnalysisException(
      "INVALID_CORRUPT_RECORD_TYPE",
      `[INVALID_CORRUPT_RECORD_TYPE] The column \`${name}\` for corrupt records must have the nullable STRING type, but got ${sqlTypeName(schema.fields[i]!.type)}.`,
    );
  }
  return i;
}
