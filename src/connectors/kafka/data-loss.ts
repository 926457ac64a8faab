/**
 * Spark's KAFKA_DATA_LOSS errors: raised when `failOnDataLoss` is true (the default), a
 * warning on stderr otherwise.
 */
import { ArusError } from "../../common/errors.js";

const PREFIX =
  "Some data may have been lost because they are not available in Kafka any more; either the data was aged out by Kafka or the topic may have been deleted before all the data in the topic was processed. If you don't want your streaming query to fail on such cases, set the source option failOnDataLoss to false.\nReason: ";

export class KafkaDataLoss extends ArusError {}

export function reportDataLoss(failOnDataLoss: boolean, subClass: string, reason: string): void {
  if (failOnDataLoss) throw new KafkaDataLoss(`KAFKA_DATA_LOSS.${subClass}`, `[KAFKA_DATA_LOSS.${subClass}] ${PREFIX}${reason}`);
  console.warn(`arus kafka: ${reason} Some data may have been lost (failOnDataLoss=false: continuing).`);
}
