/** The file source offset (Spark's FileStreamSourceOffset): `{"logOffset":N}`, or legacy `N`. */
import { IllegalArgumentException } from "../../common/errors.js";
import type { Offset } from "../source.js";

export function fileOffset(logOffset: number): Offset {
  return { logOffset };
}

export function logOffsetOf(o: Offset): number {
  const v = typeof o === "string" ? (JSON.parse(o) as Offset) : o;
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.logOffset === "number") return v.logOffset;
  throw new IllegalArgumentException(`Invalid conversion from offset of ${JSON.stringify(o)} to FileStreamSourceOffset`);
}
