/**
 * arus: Spark Structured Streaming's model for TypeScript. The public API (see
 * docs/api.md): Session, DataFrame, Column, functions (F), types (T).
 */
import "./functions/index.js";
import "./connectors/builtin.js";

export { Column } from "./api/column.js";
export { DataFrame } from "./api/dataframe.js";
export * as functions from "./api/functions.js";
export * as F from "./api/functions.js";
export { GroupedData } from "./api/grouped.js";
export { Observation } from "./api/observation.js";
export type { OptionValue } from "./api/options.js";
export { DataFrameReader } from "./api/reader.js";
export { Session, SessionBuilder } from "./api/session.js";
export type { ShowOptions } from "./api/show-args.js";
export { SparkContext } from "./api/spark-context.js";
export type { QueryAlertEvent, StreamingQueryListener } from "./api/streaming/manager.js";
export { StreamingQueryManager } from "./api/streaming/manager.js";
export { MemoryStream } from "./api/streaming/memory-stream.js";
export { StreamingQuery } from "./api/streaming/query.js";
export { DataStreamReader } from "./api/streaming/reader.js";
export { DataStreamWriter } from "./api/streaming/writer.js";
export type { UDFRegistration, UserDefinedFunction } from "./api/udf.js";
export type { Row } from "./api/values.js";
export { Window, WindowSpec } from "./api/window.js";
export { DataFrameWriter } from "./api/writer.js";
export {
  AnalysisException,
  ArusError,
  IllegalArgumentException,
  MalformedInputException,
  ParseException,
  StreamingQueryException,
} from "./common/errors.js";
export {
  activeAlerts,
  dashboardUrl,
  PROMETHEUS_CONTENT_TYPE,
  prometheusMetrics,
  prometheusRegistry,
  startDashboard,
} from "./monitoring/index.js";
export type {
  ExpiredTimerInfo,
  GroupState,
  GroupsWithStateFunction,
  ListState,
  MapState,
  ProcessorRow,
  StatefulProcessorHandle,
  StatefulProcessorLike,
  StateSchema,
  TimeMode,
  TimerValues,
  ValueState,
} from "./plan/stateful-processor.js";
export { GroupStateTimeout, StatefulProcessor } from "./plan/stateful-processor.js";
export type { StreamingQueryProgress } from "./runtime/progress.js";
export type { TriggerSpec } from "./runtime/trigger.js";
export { Decimal, type DecimalLike } from "./types/decimal-value.js";
export * as types from "./types/public.js";
export * as T from "./types/public.js";
