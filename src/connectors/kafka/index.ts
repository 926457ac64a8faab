/** Registers the `kafka` source and sink, streaming and batch (import for side effects). */
import { IllegalArgumentException } from "../../common/errors.js";
import { registerBatchSink, registerBatchSource, registerSink, registerSource } from "../registry.js";
import { kafkajsClient } from "./client-kafkajs.js";
import { bool, lowered, sourceOptions } from "./options.js";
import { connecting, KafkaReader } from "./reader.js";
import { checkRecordSizes, checkSinkSchema, toRecords } from "./records-out.js";
import { fixedSchema } from "./rows.js";
import { createKafkaSink, sinkOptions } from "./sink.js";
import { KafkaMicroBatchStream } from "./source.js";

const headersOf = (options: Readonly<Record<string, string>>) => bool(lowered(options), "includeHeaders", false);

registerSource("kafka", {
  schema: (options, userSchema) => {
    sourceOptions(options, true);
    return fixedSchema(userSchema, headersOf(options));
  },
  create: (options, schema, ctx) => new KafkaMicroBatchStream(sourceOptions(options, true), schema, ctx),
});

registerSink("kafka", {
  outputModes: ["append", "update", "complete"],
  create: (ctx) => {
    const opts = sinkOptions(ctx.options);
    if (ctx.schema)
      checkSinkSchema(
        ctx.schema.fields.map((f) => f.name),
        ctx.schema,
        opts.topic,
      );
    return createKafkaSink(ctx);
  },
});

registerBatchSource("kafka", {
  schema: (options, userSchema) => {
    sourceOptions(options, false);
    return fixedSchema(userSchema, headersOf(options));
  },
  async read(options, schema) {
    const reader = new KafkaReader(sourceOptions(options, false));
    try {
      const start = await reader.resolve(reader.opts.starting, "starting");
      const end = await reader.resolve(reader.opts.ending, "ending");
      return await reader.read(schema, start, end);
    } finally {
      await reader.close();
    }
  },
});

registerBatchSink("kafka", {
  async write(options, names, schema, batches, saveMode) {
    if (saveMode !== "append" && saveMode !== "errorifexists" && saveMode !== "error") {
      throw new IllegalArgumentException(
        `Save mode ${saveMode} not allowed for Kafka. Allowed save modes are Append and ErrorIfExists (default).`,
      );
    }
    const opts = sinkOptions(options);
    const records = toRecords(checkSinkSchema(names, schema, opts.topic), batches, opts.topic);
    checkRecordSizes(records, opts.maxRequestSize);
    if (!records.length) return;
    const servers = opts.client.bootstrapServers;
    const producer = await connecting(servers, "connect to", () => kafkajsClient(opts.client).producer());
    try {
      await connecting(servers, "write to", () => producer.send(records));
    } finally {
      await producer.close();
    }
  },
});
