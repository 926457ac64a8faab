/** Duration settings read as Spark's timeStringAs reads them (JavaUtils.timeSuffixes). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RuntimeConfig } from "../../src/common/conf.js";

const ms = (v: string) => new RuntimeConfig({ "spark.sql.streaming.pollingDelay": v }).getMs("spark.sql.streaming.pollingDelay");

describe("duration settings", () => {
  it("take Spark's units, any case, milliseconds without one", () => {
    assert.equal(ms("250"), 250);
    assert.equal(ms("10ms"), 10);
    assert.equal(ms("5s"), 5000);
    assert.equal(ms("2m"), 120_000);
    assert.equal(ms("2min"), 120_000);
    assert.equal(ms("1h"), 3_600_000);
    assert.equal(ms("1d"), 86_400_000);
    assert.equal(ms("1500us"), 1);
    assert.equal(ms("10 S"), 10_000);
  });

  it("refuse what is not a duration, naming the key", () => {
    assert.throws(() => ms("soon"), /Config spark\.sql\.streaming\.pollingDelay must be a duration like 10ms, 5s, 2min or 1h, got 'soon'/);
    assert.throws(() => ms("3 fortnights"), /got '3 fortnights'/);
    assert.throws(() => ms("-1s"), /got '-1s'/);
  });
});
