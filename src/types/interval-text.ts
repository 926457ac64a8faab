import { DAY_TIME_FIELDS, type DataType, dayTimeFields } from "./datatypes.js";

/**
 * A day-time interval as Spark prints it for its type's fields: `INTERVAL '3' DAY`,
 * `INTERVAL '03' HOUR`, `INTERVAL '1 02:03:04.5' DAY TO SECOND` (Spark's toDayTimeIntervalString):
 * in generated names and in CAST(interval AS STRING), show() and collect() text alike.
 */
export function formatDayTimeInterval(micros: number, type: DataType | undefined): string {
  const [start, end] = type ? dayTimeFields(type) : (["DAY", "SECOND"] as const);
  let rest = Math.abs(micros);
  const two = (n: number) => String(n).padStart(2, "0");
  const seconds = (us: number) => {
    const whole = Math.trunc(us / 1e6);
    const frac = us - whole * 1e6;
    return two(whole) + (frac === 0 ? "" : `.${String(frac).padStart(6, "0").replace(/0+$/, "")}`);
  };
  const parts: string[] = [];
  const order = DAY_TIME_FIELDS.slice(DAY_TIME_FIELDS.indexOf(start), DAY_TIME_FIELDS.indexOf(end) + 1);
  for (const f of order) {
    if (f === "SECOND") {
      parts.push(seconds(rest));
      break;
    }
    const unit = f === "DAY" ? 86_400_000_000 : f === "HOUR" ? 3_600_000_000 : 60_000_000;
    const n = Math.trunc(rest / unit);
    rest -= n * unit;
    parts.push(f === "DAY" ? String(n) : two(n));
  }
  const text = order[0] === "DAY" && parts.length > 1 ? `${parts[0]} ${parts.slice(1).join(":")}` : parts.join(":");
  return `INTERVAL '${micros < 0 ? "-" : ""}${text}' ${start === end ? start : `${start} TO ${end}`}`;
}
