/**
 * Where a batch's rows came from, for error messages. A source may tag the batches it returns
 * (Kafka: the topic, partition and offset of each row); an expression that fails on one row
 * throws a RowError with that row's index, and the operator evaluating it over a tagged batch
 * adds the record's origin to the message. A WeakMap, so batches stay plain objects and an
 * untagged batch costs nothing.
 */
import { ArusError } from "../common/errors.js";
import type { Batch } from "./batch.js";

const origins = new WeakMap<Batch, (row: number) => string>();

/** Tags `batch` (returned) with a describer of its rows' origin. */
export function tagRowOrigin(batch: Batch, describe: (row: number) => string): Batch {
  origins.set(batch, describe);
  return batch;
}

/** An error raised while evaluating row `row` of a batch. */
export class RowError extends ArusError {
  constructor(
    errorClass: string,
    message: string,
    readonly row: number,
    options?: { cause?: unknown },
  ) {
    super(errorClass, message, options);
  }
}

/** `e` with the origin of its row named, when `e` is a RowError over a tagged batch. */
export function withRowOrigin(e: unknown, batch: Batch): unknown {
  if (!(e instanceof RowError)) return e;
  const describe = origins.get(batch);
  if (!describe) return e;
  return new ArusError(e.errorClass, `${e.message}\nThe record: ${describe(e.row)}.`, { cause: e });
}
