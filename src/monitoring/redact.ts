/**
 * Spark's redaction of sensitive configuration (`spark.redaction.regex`, default
 * `(?i)secret|password|token|access[.]?key`): an entry whose key or value matches is shown as
 * `*********(redacted)`. arus adds `jaas` (Kafka's `kafka.sasl.jaas.config` holds credentials;
 * Spark's Kafka connector redacts it separately) so it is hidden whatever the regex says.
 */
export const REDACTED = "*********(redacted)";
export const DEFAULT_REDACTION_REGEX = "(?i)secret|password|token|access[.]?key";

/** A JavaScript RegExp from a Java pattern with an optional leading (?i). */
export function redactionPattern(javaRegex: string | undefined): RegExp {
  let src = javaRegex ?? DEFAULT_REDACTION_REGEX;
  let flags = "";
  if (src.startsWith("(?i)")) {
    src = src.slice(4);
    flags = "i";
  }
  try {
    return new RegExp(src, flags);
  } catch {
    return new RegExp(DEFAULT_REDACTION_REGEX.slice(4), "i");
  }
}

const ALWAYS = /jaas/i;

export function redactEntries(entries: Record<string, string>, pattern: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(entries)) {
    out[k] = pattern.test(k) || pattern.test(v) || ALWAYS.test(k) ? REDACTED : v;
  }
  return out;
}
