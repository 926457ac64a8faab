/**
 * What SQL's SET / RESET and `session.conf.set` / `unset` may change, with Spark's errors
 * (PySpark 4.3.0): static SQL settings (CANNOT_MODIFY_STATIC_CONFIG), Spark core settings
 * (CANNOT_MODIFY_CONFIG) and the typed values of the settings arus reads (INVALID_CONF_VALUE.*).
 * The builder's settings of a new session are not checked; those given to `getOrCreate` of a
 * running one are, except the static and core ones, which it ignores (`isRuntimeSetting`).
 */

import type { ConfGuard } from "../common/conf.js";
import { resolveTimeZone } from "../common/datetime/index.js";
import { AnalysisException, IllegalArgumentException } from "../common/errors.js";
import { SPARK_CORE_CONFS } from "./spark-core-confs.js";

/** Spark's StaticSQLConf keys (fixed when the session starts). */
const STATIC = new Set([
  "spark.python.sql.dataFrameDebugging.enabled",
  "spark.sql.artifact.copyFromLocalToFs.allowDestLocal",
  "spark.sql.avro.schemaUrlAllowedSchemes",
  "spark.sql.broadcastExchange.maxThreadThreshold",
  "spark.sql.cache.serializer",
  "spark.sql.catalog.spark_catalog.defaultDatabase",
  "spark.sql.catalogImplementation",
  "spark.sql.codegen.cache.maxEntries",
  "spark.sql.codegen.comments",
  "spark.sql.debug",
  "spark.sql.defaultUrlStreamHandlerFactory.enabled",
  "spark.sql.event.truncate.length",
  "spark.sql.extensions",
  "spark.sql.extensions.test.loadFromCp",
  "spark.sql.filesourceTableRelationCacheSize",
  "spark.sql.globalTempDatabase",
  "spark.sql.hive.thriftServer.http.sniHostCheckEnabled",
  "spark.sql.hive.thriftServer.singleSession",
  "spark.sql.kafka.disallowedOptions",
  "spark.sql.legacy.hive.thriftServer.allowSettingSystemProperties",
  "spark.sql.legacy.sessionInitWithConfigDefaults",
  "spark.sql.metadataCacheTTLSeconds",
  "spark.sql.queryExecutionListeners",
  "spark.sql.reflect.allowList",
  "spark.sql.restrictedMode.enabled",
  "spark.sql.resultQueryStage.maxThreadThreshold",
  "spark.sql.shuffleExchange.maxThreadThreshold",
  "spark.sql.sources.disabledJdbcConnProviderList",
  "spark.sql.sources.schemaStringLengthThreshold",
  "spark.sql.streaming.streamingQueryListeners",
  "spark.sql.streaming.ui.enabled",
  "spark.sql.streaming.ui.enabledCustomMetricList",
  "spark.sql.streaming.ui.retainedProgressUpdates",
  "spark.sql.streaming.ui.retainedQueries",
  "spark.sql.subquery.maxThreadThreshold",
  "spark.sql.ui.retainedExecutions",
  "spark.sql.warehouse.dir",
]);

type Rule =
  | { readonly type: "boolean" | "int" | "time in MILLISECONDS" }
  | { readonly type: "int"; readonly min: number; readonly requirement: string }
  | { readonly options: readonly string[] }
  | { readonly check: (v: string) => boolean; readonly requirement: string };

const BOOL: Rule = { type: "boolean" };
const INT: Rule = { type: "int" };
const MS: Rule = { type: "time in MILLISECONDS" };

/** Spark's type and checks of the settings arus reads (strings like excludedRules take anything). */
const RULES: Readonly<Record<string, Rule>> = {
  "spark.sql.ansi.enabled": BOOL,
  "spark.sql.caseSensitive": BOOL,
  "spark.sql.decimalOperations.allowPrecisionLoss": BOOL,
  "spark.sql.legacy.allowHashOnMapType": BOOL,
  "spark.sql.legacy.allowNegativeScaleOfDecimal": BOOL,
  "spark.sql.legacy.allowNullComparisonResultInArraySort": BOOL,
  "spark.sql.legacy.allowParameterlessCount": BOOL,
  "spark.sql.legacy.timeParserPolicy": { options: ["EXCEPTION", "LEGACY", "CORRECTED"] },
  "spark.sql.mapKeyDedupPolicy": { options: ["EXCEPTION", "LAST_WIN"] },
  "spark.sql.pivotMaxValues": INT,
  "spark.sql.shuffle.partitions": { type: "int", min: 1, requirement: "The value of spark.sql.shuffle.partitions must be positive" },
  "spark.sql.streaming.aggregation.stateFormatVersion": { type: "int", min: 1, requirement: "Valid versions are 1 and 2" },
  "spark.sql.streaming.fileSink.log.compactInterval": INT,
  "spark.sql.streaming.minBatchesToRetain": { type: "int", min: 1, requirement: "minBatchesToRetain must be positive" },
  "spark.sql.streaming.multipleWatermarkPolicy": {
    check: (v) => ["min", "max"].includes(v.toLowerCase()),
    requirement: "Invalid value for 'spark.sql.streaming.multipleWatermarkPolicy'. Valid values are 'min' and 'max'",
  },
  "spark.sql.streaming.noDataMicroBatches.enabled": BOOL,
  "spark.sql.streaming.noDataProgressEventInterval": MS,
  "spark.sql.streaming.numRecentProgressUpdates": INT,
  "spark.sql.streaming.pollingDelay": MS,
  "spark.sql.streaming.schemaInference": BOOL,
  "spark.sql.streaming.stateStore.minDeltasForSnapshot": INT,
  "spark.sql.streaming.statefulOperator.allowMultiple": BOOL,
  "spark.sql.streaming.statefulOperator.checkCorrectness.enabled": BOOL,
};

/** SET key=value and RESET key refuse static settings; SET also refuses Spark core settings. */
export function checkModifiable(key: string, setting: boolean): void {
  if (STATIC.has(key))
    throw new AnalysisException(
      "CANNOT_MODIFY_STATIC_CONFIG",
      `[CANNOT_MODIFY_STATIC_CONFIG] Cannot modify the value of the static Spark config: "${key}". SQLSTATE: 46110`,
    );
  if (setting && SPARK_CORE_CONFS.has(key))
    throw new AnalysisException(
      "CANNOT_MODIFY_CONFIG",
      `[CANNOT_MODIFY_CONFIG] Cannot modify the value of the Spark config: "${key}".\nSee also 'https://spark.apache.org/docs/latest/sql-migration-guide.html#ddl-statements'. SQLSTATE: 46110`,
    );
}

/** Spark's RuntimeConfig: `set` and `unset` refuse static and core settings, `set` a value of the wrong type. */
export const sessionConfGuard: ConfGuard = {
  set(key, value) {
    checkModifiable(key, true);
    checkValue(key, value);
  },
  unset(key) {
    checkModifiable(key, true);
  },
};

/** Can a running session take this setting (neither a static SQL setting nor a Spark core one)? */
export function isRuntimeSetting(key: string): boolean {
  return !STATIC.has(key) && !SPARK_CORE_CONFS.has(key);
}

/** Spark's INVALID_CONF_VALUE for a value its setting's type or check refuses. */
export function checkValue(key: string, value: string): void {
  const invalid = (sub: string, why: string) =>
    new IllegalArgumentException(
      `[INVALID_CONF_VALUE.${sub}] The value '${value}' in the config "${key}" is invalid. ${why} SQLSTATE: 22022`,
      `INVALID_CONF_VALUE.${sub}`,
    );
  if (key === "spark.sql.session.timeZone") {
    try {
      resolveTimeZone(value);
    } catch {
      throw invalid("TIME_ZONE", "Cannot resolve the given timezone.");
    }
    return;
  }
  const rule = RULES[key];
  if (!rule) return;
  if ("options" in rule) {
    if (!rule.options.includes(value.toUpperCase()))
      throw invalid("OUT_OF_RANGE_OF_OPTIONS", `It should be one of '${rule.options.join(", ")}'.`);
    return;
  }
  if ("check" in rule) {
    if (!rule.check(value)) throw invalid("REQUIREMENT", rule.requirement);
    return;
  }
  if (!fitsType(rule.type, value.trim())) throw invalid("TYPE_MISMATCH", `It should be a/an '${rule.type}' value.`);
  if ("min" in rule && Number(value.trim()) < rule.min) throw invalid("REQUIREMENT", rule.requirement);
}

/** Java's parse rules: Boolean (true/false, any case), Integer (32 bits), JavaUtils.timeStringAsMs. */
function fitsType(type: string, v: string): boolean {
  if (type === "boolean") return /^(true|false)$/i.test(v);
  if (type === "int") return /^[+-]?\d+$/.test(v) && Math.abs(Number(v)) <= 2 ** 31 - (v.startsWith("-") ? 0 : 1);
  return /^-?\d+(us|ms|s|m|min|h|d)?$/i.test(v);
}
