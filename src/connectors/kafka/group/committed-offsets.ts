/**
 * A group's committed offsets read as a new owner of partitions must read them: stable
 * (OffsetFetch with require_stable, offset-fetch.ts), waiting up to a minute while a transaction
 * that commits one of them is still open, and retrying while the coordinator moves or loads.
 */
import type { TopicPartition } from "../client.js";
import type { CoordinatorConnection } from "./coordinator-connection.js";
import { COORDINATOR_MOVED, classify, errorName, kafkaCode } from "./errors.js";
import { fetchStableOffsets } from "./offset-fetch.js";

/** How long a read waits for a pending transactional offset commit to end. */
const STABLE_OFFSETS_WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** tpKey -> next offset to read, null when none; `where` names the member in errors. */
export async function readCommittedOffsets(
  brokers: CoordinatorConnection,
  groupId: string,
  tps: readonly TopicPartition[],
  where: string,
): Promise<Map<string, number | null>> {
  const since = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchStableOffsets(await brokers.coordinator(), groupId, tps);
    } catch (e) {
      const code = kafkaCode(e);
      const transient = classify(e, "") !== e;
      if (!transient || Date.now() - since > STABLE_OFFSETS_WAIT_MS) {
        throw new Error(`${where}: cannot read committed offsets: ${code === null ? (e as Error).message : errorName(code)}`, {
          cause: e,
        });
      }
      if (code === null || COORDINATOR_MOVED.has(code)) brokers.forgetCoordinator();
      await sleep(Math.min(500, 50 * (attempt + 1)));
    }
  }
}
