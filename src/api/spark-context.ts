/**
 * `session.sparkContext`: the parts of PySpark's SparkContext a Structured Streaming program
 * touches — `setLogLevel` (which arus's own warnings honour), `appName`, `master`,
 * `defaultParallelism`, `version`.
 */
import { localThreads, type RuntimeConfig } from "../common/conf.js";
import { type LogLevel, logLevel, setLogLevel } from "../common/log.js";

export class SparkContext {
  /** @internal */
  constructor(private readonly conf: RuntimeConfig) {}

  /** `spark.app.name` (a random id when the builder set none, as in Spark). */
  get appName(): string {
    return this.conf.get("spark.app.name");
  }
  /** `spark.master`: `local`, `local[N]` or `local[*]` (default `local[*]`). */
  get master(): string {
    return this.conf.getOption("spark.master") ?? "local[*]";
  }
  /** `spark.default.parallelism` if set, else the master's thread count (local[N] → N, local[*] → the cores). */
  get defaultParallelism(): number {
    const set = this.conf.getOption("spark.default.parallelism");
    return set !== undefined ? Number(set) : localThreads(this.master);
  }
  get version(): string {
    return "4.0.0-arus";
  }
  /** @internal set by the dashboard once it listens. */
  uiUrl: string | null = null;
  /** The dashboard's URL (`spark.ui.enabled`, docs/monitoring.md), or null when it is off or not up yet. */
  get uiWebUrl(): string | null {
    return this.uiUrl;
  }
  /** ALL, TRACE, DEBUG, INFO, WARN (default), ERROR, FATAL or OFF (any case), for the whole process as in Spark. */
  setLogLevel(level: string): void {
    setLogLevel(level);
  }
  /** arus-only: the level in force. */
  get logLevel(): LogLevel {
    return logLevel();
  }
}
