/** The file formats this folder reads and writes, and the checks shared by readers and writers. */
import { AnalysisException } from "../../common/errors.js";
import { type DataType, type StructType, sqlTypeName } from "../../types/datatypes.js";

export type FileFormat = "json" | "csv" | "text" | "parquet";

export function fileFormat(name: string): FileFormat {
  const f = name.toLowerCase();
  if (f === "json" || f === "csv" || f === "text" || f === "parquet") return f;
  throw new AnalysisException(
    "DATA_SOURCE_NOT_FOUND",
    `[DATA_SOURCE_NOT_FOUND] Failed to find the data source: ${name}. Make sure the provider name is correct and the package is properly registered and compatible with your Spark version.`,
  );
}

const DISPLAY: Record<FileFormat, string> = { json: "JSON", csv: "CSV", text: "Text", parquet: "Parquet" };

function supports(format: FileFormat, t: DataType): boolean {
  switch (format) {
    case "csv":
      // BINARY is written as its bytes in hex, `[01 02]`, and read as the text's UTF-8 bytes (Spark 4)
      return !["array", "map", "struct", "interval"].includes(t.kind);
    case "json":
      if (t.kind === "interval") return false;
      if (t.kind === "array") return supports(format, t.elementType);
      if (t.kind === "map") return supports(format, t.keyType) && supports(format, t.valueType);
      if (t.kind === "struct") return t.fields.every((f) => supports(format, f.type));
      return true;
    case "text":
      return t.kind === "string";
    case "parquet":
      return t.kind !== "interval";
  }
}

/** Spark's UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE check, done before anything is written. */
export function checkWritable(format: FileFormat, schema: StructType): void {
  for (const f of schema.fields) {
    if (!supports(format, f.type)) {
      throw new AnalysisException(
        "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
        `[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The ${DISPLAY[format]} datasource doesn't support the column \`${f.name}\` of the type "${sqlTypeName(f.type)}".`,
      );
    }
  }
}
