/** Registers the built-in streaming connectors (import for side effects). */
import "./rate/rate-source.js";
import "./rate/rate-micro-batch-source.js";
import "./console/console-sink.js";
import "./file-stream/index.js";
import "./table/index.js";
import "./kafka/index.js";
