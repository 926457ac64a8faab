/**
 * Per-operator watermarks (Spark 3.4+'s PropagateWatermarkSimulator, used while
 * `spark.sql.streaming.statefulOperator.allowMultiple` is true): each stateful operator's input
 * watermark is the minimum of the watermarks its children produce, not the global one.
 *   - an EventTimeWatermark node produces the global watermark;
 *   - a stateful operator produces `produceOutputWatermark(input)`: its input watermark for an
 *     aggregation, deduplication, session window or limit; for a stream-stream join the minimum
 *     of its input and of both sides' state watermarks (a range condition `a.t <= b.t + 10 s`
 *     holds the output back by 10 s + 1 ms); an operator whose output has no event time
 *     (flatMapGroupsWithState, transformWithState in processing time) produces none;
 *   - any other node passes the minimum of its children's watermarks on (union, projections).
 * Children without a watermark are left out of the minimum; an operator with none gets 0.
 * Input watermarks are never negative, and a global watermark of 0 gives every operator 0.
 * A withWatermark above another (through operators that pass the watermark on) is refused here,
 * at run time, as Spark's simulation refuses it, not when the query starts.
 */
import { AnalysisException } from "../../common/errors.js";
import type { PhysicalOperator } from "../operator.js";
import { WatermarkExec } from "./watermark.js";

/** A stateful operator that shifts the watermark it passes on (Spark's produceOutputWatermark). */
export interface WatermarkProducer {
  produceOutputWatermark(inputWatermarkMs: number): number | null;
}

function operatorIdOf(op: PhysicalOperator): number | null {
  const id = (op as { operatorId?: unknown }).operatorId;
  return typeof id === "number" ? id : null;
}

/** Input watermark (ms) of every stateful operator in `plan`, by operator id, for global watermark `globalMs`. */
export function propagateWatermarks(plan: PhysicalOperator, globalMs: number): Map<number, number> {
  const inputs = new Map<number, number>();
  const visit = (op: PhysicalOperator): number | null => {
    const fromChildren = op.children.map(visit).filter((w): w is number => w !== null);
    if (op instanceof WatermarkExec) {
      // a withWatermark below this one already gives its rows a watermark: Spark's simulation
      // refuses it, so the query fails in its first batch with a watermark other than 0
      if (fromChildren.length > 0 && globalMs !== 0) throw redefiningWatermark();
      return globalMs;
    }
    const input = fromChildren.length ? Math.min(...fromChildren) : null;
    const id = operatorIdOf(op);
    if (id === null) return input;
    inputs.set(id, globalMs === 0 ? 0 : Math.max(input ?? 0, 0));
    if (input === null) return null;
    const producer = op as Partial<WatermarkProducer>;
    return producer.produceOutputWatermark ? producer.produceOutputWatermark(input) : input;
  };
  visit(plan);
  return inputs;
}

function redefiningWatermark(): AnalysisException {
  return new AnalysisException(
    "_LEGACY_ERROR_TEMP_3076",
    "Redefining watermark is disallowed. You can set the config 'spark.sql.streaming.statefulOperator.allowMultiple' to 'false' to restore the previous behavior. Note that multiple stateful operators will be disallowed.",
  );
}
