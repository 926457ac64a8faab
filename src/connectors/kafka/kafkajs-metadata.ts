/**
 * kafkajs 2.2.4's `cluster.metadata()` asks the brokers one after another through
 * `brokerPool.withBroker`, which drops every broker's error and resolves null when none
 * answered. Its admin then reads a field of that null (`listTopics`, `fetchTopicMetadata`,
 * `describeCluster`) and fails with a TypeError ("Cannot destructure property 'topicMetadata'
 * of ... as it is null"), which no caller can tell from a bug: a group-mode worker whose broker
 * stopped failed for good instead of retrying. This makes that null a KafkaJSBrokerNotFound, a
 * connection error like the one a refused connection gives (errors.ts: transient).
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: kafkajs's Cluster is untyped
type Any = any;

let installed = false;

export function installMetadataFix(): void {
  if (installed) return;
  const Cluster = require("kafkajs/src/cluster/index.js") as Any;
  const proto = Cluster?.prototype;
  if (typeof proto?.metadata !== "function") throw new Error("kafkajs internals changed: no Cluster.metadata (pin kafkajs 2.2.4)");
  const { KafkaJSBrokerNotFound } = require("kafkajs/src/errors.js") as Any;
  const metadata = proto.metadata as (this: Any, ...args: unknown[]) => Promise<unknown>;
  proto.metadata = async function (this: Any, ...args: unknown[]): Promise<unknown> {
    const md = await metadata.apply(this, args);
    if (md == null) throw new KafkaJSBrokerNotFound("no broker answered the Metadata request");
    return md;
  };
  installed = true;
}
