import { Session } from "../../src/index.js";

/** One UTC session shared by a test file. */
export function utcSession(): Session {
  return Session.builder()
    .appName("test")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate();
}

/** Sort rows by their JSON text, for order-insensitive comparisons. */
export function sorted<T>(rows: T[]): T[] {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}
