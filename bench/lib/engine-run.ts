/** One query's figures from an engine's runner (bench/arus/run.ts, bench/pyspark/run.py print these as JSON lines). */
export interface EngineRun {
  engine: "arus" | "pyspark";
  query: string;
  title: string;
  inputRows: number;
  batches: number;
  wallS: number;
  engineS: number;
  cpuS: number;
  peakRssBytes: number;
  outputRows: number | null;
  checksum: string | null;
  checksumS: number | null;
  load: string;
  /** compare.ts: PySpark's checksum came from its cache, not this run. */
  checksumCached?: boolean;
}
