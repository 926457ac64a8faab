/**
 * Where `TEXT_SCHEMA` was before the formats got their folders (it lives in text/text.ts and is
 * exported by index.ts). connectors/file-stream/schema.ts still imports it from here; drop this
 * file once that import reads `../files/index.js`.
 */
export { TEXT_SCHEMA } from "./text/text.js";
