/**
 * Time units, defined once: every conversion between micros, millis, seconds and days in the
 * engine uses these (TIMESTAMP = micros since the epoch, DATE = days since the epoch).
 */
export const MICROS_PER_MILLIS = 1_000;
export const MILLIS_PER_SECOND = 1_000;
export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
export const MICROS_PER_HOUR = 3_600 * MICROS_PER_SECOND;
export const SECONDS_PER_DAY = 86_400;
export const MILLIS_PER_DAY = SECONDS_PER_DAY * MILLIS_PER_SECOND;
export const MICROS_PER_DAY = SECONDS_PER_DAY * MICROS_PER_SECOND;
