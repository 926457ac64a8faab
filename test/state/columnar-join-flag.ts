/**
 * Imported first by `columnar-join-streaming.test.ts` (not a test file itself): makes
 * `arus.state.join.columnar` default to "true" for every session of this test process, so the
 * suites' stream-stream joins keep their state in the columnar join tables without changing them.
 */
import { DEFAULTS } from "../../src/common/conf.js";

(DEFAULTS as Record<string, string>)["arus.state.join.columnar"] = "true";
