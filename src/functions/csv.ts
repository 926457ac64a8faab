/**
 * from_csv / to_csv. `from_csv(str, schema, options?)` reads each value as one CSV record with
 * the CSV file reader's tokenizer and converters (connectors/files/csv), so options, null and
 * malformed handling are the reader's: PERMISSIVE keeps what parses (the schema's corrupt-record
 * column, if it has one, gets the text), FAILFAST raises naming the record; DROPMALFORMED is
 * refused as Spark refuses it. A null input is a null struct. The common case — every value one
 * plain line — is read as one text; anything else (null, blank, line breaks, a comment line) is
 * read value by value. `to_csv(struct)` writes one record per row with the CSV writer's quoting.
 */
import { type Batch, concatBatches, makeBatch } from "../columnar/batch.js";
import { makeVector, nullVector, type Vector } from "../columnar/vector.js";
import { ArusError } from "../common/errors.js";
import { csvReadOptions, csvWriteOptions } from "../connectors/files/csv/csv-options.js";
import { readCsvText } from "../connectors/files/csv/csv-read.js";
import { csvRecordEncoder } from "../connectors/files/csv/csv-write.js";
import { dateTimeText } from "../connectors/files/datetime-text.js";
import { SourceOptions } from "../connectors/files/options.js";
import { StringType, type StructType } from "../types/datatypes.js";
import { concatRows, failingOnRow, literalText, optionsOf, parseModeOf, schemaOf, textPerRow } from "./json.js";
import { valueText } from "./json-lines.js";
import { checkArity, type EvalContext, register, type ScalarFunction, typeMismatch } from "./registry.js";

const fromCsv: ScalarFunction = {
  kind: "scalar",
  name: "from_csv",
  resolve(args, types, call) {
    checkArity("from_csv", args, 2, 3);
    if (types[0]!.kind !== "string") throw typeMismatch(call, 0, '"STRING"', args[0]!, types[0]!);
    const schema = schemaOf(literalText(args[1], "schema", "from_csv")!, "from_csv");
    atomicFieldsOnly("from_csv", schema);
    literalText(args[2], "options", "from_csv");
    return { args, type: schema };
  },
  kernel(args, n, ctx) {
    const schema = schemaOf(args[1]!.values[0] as string, "from_csv");
    const opts = optionsOf(args[2] ? (args[2].values[0] as string) : null);
    return parseColumn(args[0]!, n, schema, opts, ctx);
  },
};

function parseColumn(input: Vector, n: number, schema: StructType, opts: Record<string, string>, ctx: EvalContext): Vector {
  const o = new SourceOptions(opts);
  parseModeOf("from_csv", o);
  // Each value is one record: no header line to skip.
  const read = { ...csvReadOptions(o), header: false };
  const dt = dateTimeText(o, ctx.timeZone);
  const isNull = (i: number) => input.validity !== null && input.validity[i] === 0;
  const validity = new Uint8Array(n).fill(1);
  let plain = true;
  for (let i = 0; i < n && plain; i++) {
    if (isNull(i)) plain = false;
    else {
      const v = valueText(input, i);
      plain = v.trim() !== "" && !v.includes("\n") && !v.includes("\r");
    }
  }
  let out: Batch | null = null;
  if (plain && n > 0) {
    const text = Array.from({ length: n }, (_, i) => valueText(input, i)).join("\n");
    const batch = concatRows(
      schema,
      failingOnRow(
        (line) => line - 1,
        (i) => valueText(input, i),
        () => readCsvText("from_csv", text, schema, read, dt),
      ),
    );
    if (batch.numRows === n) out = batch;
  }
  if (out === null) {
    const types = schema.fields.map((f) => f.type);
    const nullRow = makeBatch(
      types.map((t) => nullVector(t, 1)),
      1,
    );
    const rows: Batch[] = [];
    for (let i = 0; i < n; i++) {
      if (isNull(i)) {
        validity[i] = 0;
        rows.push(nullRow);
        continue;
      }
      const v = valueText(input, i);
      const one = concatRows(
        schema,
        failingOnRow(
          () => i,
          () => v,
          () => readCsvText("from_csv", v, schema, read, dt),
        ),
      );
      // A blank value or a comment is a record of nulls; of several lines only the first counts.
      rows.push(one.numRows === 0 ? nullRow : one.numRows === 1 ? one : firstRow(one));
    }
    out = n === 0 ? concatBatches(types, []) : concatBatches(types, rows);
  }
  return makeVector(schema, [], validity, n, out.columns);
}

/** CSV holds atomic values only: a struct, array or map field is refused (as Spark does). */
function atomicFieldsOnly(fn: string, schema: StructType): void {
  for (const f of schema.fields) {
    if (f.type.kind === "struct" || f.type.kind === "array" || f.type.kind === "map") {
      throw new ArusError("UNSUPPORTED_DATATYPE", `${fn}: CSV data source does not support ${f.type.kind} type of field "${f.name}"`);
    }
  }
}

function firstRow(b: Batch): Batch {
  return makeBatch(
    b.columns.map((c) => makeVector(c.type, c.values.slice(0, 1) as typeof c.values, c.validity ? c.validity.slice(0, 1) : null, 1)),
    1,
  );
}

const toCsv: ScalarFunction = {
  kind: "scalar",
  name: "to_csv",
  resolve(args, types, call) {
    checkArity("to_csv", args, 1, 2);
    if (types[0]!.kind !== "struct") throw typeMismatch(call, 0, '"STRUCT"', args[0]!, types[0]!);
    atomicFieldsOnly("to_csv", types[0] as StructType);
    return { args, type: StringType };
  },
  kernel(args, n, ctx) {
    const v = args[0]!;
    const opts = new SourceOptions(args[1] ? optionsOf(args[1].values[0] as string) : {});
    const record = csvRecordEncoder(v.type as StructType, csvWriteOptions(opts), dateTimeText(opts, ctx.timeZone));
    return textPerRow(v, n, (i) => record(v.children!, i));
  },
};

register(fromCsv, toCsv);
