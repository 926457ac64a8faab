/**
 * The text of a map key in written JSON. Spark's JSON generator names a map entry by the key's
 * internal value's `toString`, not by its JSON: a decimal keeps its scale (`1.50`), a float or
 * double is Java's (`1.0`), a DATE is its day number, a TIMESTAMP or a day-time interval its
 * microseconds, and in `to_json` a struct or an array is its values in brackets,
 * comma-separated, NULL as `null` (`[1,q]`, `[[1,2]]`). Two cases are not Spark's, which writes
 * a JVM object's identity there: a BINARY key (`[B@1b2c3d`; arus writes its bytes) and, in the
 * JSON file writer, a struct or array key (`[0,1,1800000001,71]`, the raw row's words, or
 * `UnsafeArrayData@f37c2c84`; arus writes the bracket form `to_json` writes). */
import { javaDoubleToString, javaFloatToString } from "../../../common/show.js";
import type { DataType } from "../../../types/datatypes.js";
import { javaBigDecimalString, unscaledOf } from "../../../types/decimal.js";

type KeyText = (v: unknown) => string;

const orNull =
  (f: KeyText): KeyText =>
  (v) =>
    v === null || v === undefined ? "null" : f(v);

/** The text `type`'s internal values name a map entry by. */
export function mapKeyText(type: DataType): KeyText {
  switch (type.kind) {
    case "float":
      return (v) => javaFloatToString(v as number);
    case "double":
      return (v) => javaDoubleToString(v as number);
    case "decimal":
      return (v) => javaBigDecimalString(unscaledOf(v), type.scale);
    case "boolean":
      return (v) => (v ? "true" : "false");
    case "array": {
      const element = orNull(mapKeyText(type.elementType));
      return (v) => `[${(v as unknown[]).map(element).join(",")}]`;
    }
    case "struct": {
      const names = type.fields.map((f) => f.name);
      const fields = type.fields.map((f) => orNull(mapKeyText(f.type)));
      return (v) => `[${names.map((n, i) => fields[i]!((v as Record<string, unknown>)[n])).join(",")}]`;
    }
    default:
      // integers (and the wide BIGINT lane), strings, DATE days, TIMESTAMP and interval micros, binary bytes
      return (v) => String(v);
  }
}
