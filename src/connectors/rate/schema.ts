/** The fixed schema of the rate sources: `timestamp TIMESTAMP, value BIGINT`. */
import { IllegalArgumentException } from "../../common/errors.js";
import { field, LongType, StructOf, type StructType, TimestampType } from "../../types/datatypes.js";

export const RATE_SCHEMA: StructType = StructOf([field("timestamp", TimestampType, true), field("value", LongType, true)]);

export function parseSchemaText(userSchema: StructType | null, format: string): StructType {
  if (userSchema) throw new IllegalArgumentException(`The ${format} source does not support a user-specified schema.`);
  return RATE_SCHEMA;
}
