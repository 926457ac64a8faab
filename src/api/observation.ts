/**
 * Spark's Observation: the named metrics of df.observe(observation, ...) in a batch query,
 * available once the observed DataFrame's first action has run (`await observation.get()`).
 * A streaming query reports its observed metrics per micro-batch in progress
 * `observedMetrics` instead (observe with a name), as Spark does.
 */
import { randomUUID } from "node:crypto";
import { IllegalArgumentException } from "../common/errors.js";
import type { MetricsSink, ObservedMetricsRow } from "../plan/logical.js";
import { batchToRows, type Row } from "./values.js";

export class Observation {
  readonly name: string;
  private used = false;
  private values: Row | null = null;
  private readonly waiting: ((r: Row) => void)[] = [];

  constructor(name?: string) {
    if (name === "") throw new IllegalArgumentException("Name must not be empty");
    this.name = name ?? randomUUID();
  }

  /** The metrics of the first action on the observed DataFrame (waits for it; later actions do not change them). */
  get(): Promise<Row> {
    if (this.values) return Promise.resolve(this.values);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The metrics if the first action has run, else null (does not wait). */
  getOrNull(): Row | null {
    return this.values;
  }

  /** Where the plan delivers the metrics (DataFrame.observe); an Observation serves one DataFrame. */
  sinkFor(streaming: boolean): MetricsSink {
    if (streaming) {
      throw new IllegalArgumentException(
        "Observation does not support streaming Datasets. This is because there will be multiple observed metrics as microbatches are constructed. Please register a StreamingQueryListener and get the metric for each microbatch.",
      );
    }
    if (this.used) throw new IllegalArgumentException("An Observation can be used with a Dataset only once");
    this.used = true;
    return {
      complete: (m: ObservedMetricsRow) => {
        if (this.values) return;
        this.values = batchToRows(m.names, m.types, m.row)[0] ?? {};
        for (const w of this.waiting.splice(0)) w(this.values);
      },
    };
  }
}
