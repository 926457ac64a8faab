/**
 * Progress `observedMetrics`: each df.observe name's metrics of the batch as a JSON-friendly
 * object, the way Spark's Row.jsonValue writes them (numbers stay numbers, decimals become
 * numbers, timestamps text to the second and dates text, in the session time zone), names sorted.
 */
import { getValue } from "../columnar/vector.js";
import { formatDate, formatTimestamp } from "../common/datetime/index.js";
import type { ObservedMetricsRow } from "../plan/logical.js";
import type { DataType } from "../types/datatypes.js";
import { formatUnscaled } from "../types/decimal.js";

export function observedMetricsJson(
  metrics: ReadonlyMap<string, ObservedMetricsRow>,
  timeZone: string,
): Record<string, Record<string, unknown>> | undefined {
  if (metrics.size === 0) return undefined;
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of [...metrics.keys()].sort()) {
    const m = metrics.get(name)!;
    const row: Record<string, unknown> = {};
    m.names.forEach((n, c) => {
      row[n] = jsonValue(getValue(m.row.columns[c]!, 0), m.types[c]!, timeZone);
    });
    out[name] = row;
  }
  return out;
}

function jsonValue(v: unknown, type: DataType, tz: string): unknown {
  if (v === null || v === undefined) return null;
  switch (type.kind) {
    case "timestamp": {
      // Row.jsonValue's formatter has no fraction: whole seconds, as Spark writes them.
      const micros = v as number | bigint;
      const whole =
        typeof micros === "bigint" ? micros - (((micros % 1_000_000n) + 1_000_000n) % 1_000_000n) : Math.floor(micros / 1e6) * 1e6;
      return formatTimestamp(whole, tz);
    }
    case "date":
      return formatDate(v as number);
    case "decimal":
      return Number(formatUnscaled(v as number | bigint, type.scale));
    case "bigint":
      // Past ±2^53 JSON numbers lose digits in JavaScript: the exact text instead.
      return typeof v === "bigint" ? String(v) : v;
    case "float":
    case "double":
      return Number.isFinite(v as number) ? v : String(v);
    case "binary":
      return Buffer.from(v as Uint8Array).toString("base64");
    case "array":
      return (v as unknown[]).map((x) => jsonValue(x, type.elementType, tz));
    case "struct": {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(type.fields.map((f) => [f.name, jsonValue(o[f.name], f.type, tz)]));
    }
    case "map":
      return Object.fromEntries([...(v as Map<unknown, unknown>)].map(([k, x]) => [String(k), jsonValue(x, type.valueType, tz)]));
    default:
      return v;
  }
}
