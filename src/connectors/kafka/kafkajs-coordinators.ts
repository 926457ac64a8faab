/**
 * A coordinator cache for one kafkajs cluster (the transactional producer's). kafkajs 2.2.4 asks
 * the broker for the transaction coordinator before each of AddPartitionsToTxn, AddOffsetsToTxn
 * and EndTxn, and for the group coordinator before TxnOffsetCommit: four FindCoordinator round
 * trips per exactly-once micro-batch. Kafka's Java producer keeps its coordinators until one
 * answers with an error; so does this cache: any failed call on a cached coordinator drops the
 * entry, so kafkajs's own retry (and arus's retry of the transaction) looks it up again.
 */

// biome-ignore lint/suspicious/noExplicitAny: kafkajs's cluster and broker objects are untyped
type Any = any;

/** How long an entry is used without an error before it is looked up again anyway. */
const COORDINATOR_CACHE_MS = 30_000;

/** Installs the cache on `cluster` (its findGroupCoordinator); returns a function that empties it. */
export function cacheCoordinators(cluster: Any): () => void {
  const find = cluster.findGroupCoordinator.bind(cluster) as (args: Any) => Promise<Any>;
  const cache = new Map<string, { at: number; broker: Promise<Any> }>();
  cluster.findGroupCoordinator = (args: { groupId: string; coordinatorType?: number }) => {
    const key = `${args.coordinatorType ?? 0}:${args.groupId}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < COORDINATOR_CACHE_MS) return hit.broker;
    const entry = { at: Date.now(), broker: null as unknown as Promise<Any> };
    const drop = () => {
      if (cache.get(key) === entry) cache.delete(key);
    };
    entry.broker = find(args).then((broker) => dropOnError(broker, drop));
    entry.broker.catch(drop);
    cache.set(key, entry);
    return entry.broker;
  };
  return () => cache.clear();
}

/** The broker, with every call that fails calling `drop` before the caller sees the error. */
function dropOnError(broker: Any, drop: () => void): Any {
  return new Proxy(broker, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        const out = v.apply(target, args);
        if (out && typeof (out as Promise<unknown>).then === "function") (out as Promise<unknown>).catch(drop);
        return out;
      };
    },
  });
}
