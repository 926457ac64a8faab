/**
 * Kafka differential cases where arus is known to differ from Spark, each with the reason. A
 * listed case that fails is reported as a known difference; one that passes fails until it is
 * removed from the list (as conformance/known-differences.ts).
 */
export const KAFKA_KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
  "kafka/min-offsets-per-trigger":
    "Under trigger availableNow arus reads every record there was at the start; Spark 4.3 still applies minOffsetsPerTrigger there, so fewer records than the minimum (the last 3 here) stay unread and the query stops (docs/differences.md).",
};
