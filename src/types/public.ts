/**
 * `types` (imported as `T`): Spark SQL data types for schemas, as in `pyspark.sql.types`.
 * `T.StructType([T.StructField("id", T.IntegerType, false)])`.
 */
export {
  ArrayOf as ArrayType,
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  IntegerType,
  LongType,
  MapOf as MapType,
  NullType,
  StringType,
  simpleString,
  TimestampType,
} from "./datatypes.js";

import { IllegalArgumentException } from "../common/errors.js";
import { type DataType, type StructField as Field, field, type StructType as Struct, StructOf } from "./datatypes.js";
import { DecimalOf, decimalBoundsError } from "./decimal.js";

export function StructField(name: string, dataType: DataType, nullable = true): Field {
  return field(name, dataType, nullable);
}
export function StructType(fields: readonly Field[] = []): Struct {
  return StructOf(fields);
}
export { ByteType, FloatType, ShortType } from "./datatypes.js";

export { Decimal } from "./decimal-value.js";

/** DECIMAL(precision, scale); `T.DecimalType()` is DECIMAL(10, 0), as in PySpark. */
export function DecimalType(precision = 10, scale = 0): DataTypeOf<"decimal"> {
  const bad = decimalBoundsError(precision, scale);
  if (bad) throw new IllegalArgumentException(bad);
  return DecimalOf(precision, scale);
}
type DataTypeOf<K extends string> = Extract<DataType, { kind: K }>;
