/** Shared helpers for the streaming semantics tests (not a test file itself). */
import { Session } from "../../src/index.js";

/** The session every streaming test uses: UTC, 2 shuffle partitions (state spread over 2 stores). */
export function utcSession(): Session {
  return Session.builder().appName("streaming-tests").config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
}

/** A timestamp `s` seconds after the epoch (times in these tests are "within one minute"). */
export function sec(s: number): Date {
  return new Date(s * 1000);
}

/** ISO text of `s` seconds after the epoch, as progress `eventTime` prints it. */
export function iso(s: number): string {
  return new Date(s * 1000).toISOString();
}
