/**
 * Imported first by `row-join-streaming.test.ts` (not a test file itself): makes
 * `arus.state.join.columnar` default to "false" for every session of this test process, so the
 * suites' stream-stream joins keep their state in the row stores (as checkpoints written before
 * the columnar join state do) without changing them.
 */
import { DEFAULTS } from "../../src/common/conf.js";

(DEFAULTS as Record<string, string>)["arus.state.join.columnar"] = "false";
